"""The Strategist role's verbs."""

from __future__ import annotations

from typing import Protocol

from engine.game.models import GameState
from engine.messages import Directive, GameEvent, RoleReport
from engine.strategist.strategist import StrategistSnapshot


class StrategistPort(Protocol):
    def consider(self, events: list[GameEvent], state: GameState) -> Directive | None: ...
    def snapshot(self) -> StrategistSnapshot: ...
    def restore(self, snapshot: StrategistSnapshot) -> None: ...
    def report(self) -> RoleReport: ...
