"""The Vision role's verbs."""

from __future__ import annotations

from typing import Protocol

from engine.messages import Frame, Perception, RoleReport


class VisionPort(Protocol):
    def perceive(self, frame: Frame) -> Perception: ...
    def report(self) -> RoleReport: ...
