"""The Vision role's verbs."""

from __future__ import annotations

from typing import Protocol

from engine.messages import Frame, Perception, RoleReport
from engine.vision.screen.reading import ScreenReading


class VisionPort(Protocol):
    def perceive(self, frame: Frame) -> Perception: ...
    def read_screen(self, png: bytes) -> ScreenReading: ...
    def report(self) -> RoleReport: ...
