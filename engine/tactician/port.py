"""The Tactician role's verbs."""

from __future__ import annotations

from typing import Protocol

from engine.game.models import GameState
from engine.messages import BattleChoice, Directive, LegReport, RoleReport
from engine.tactician.tactician import TacticianSnapshot
from engine.world.goals import Leg


class TacticianPort(Protocol):
    def choose_battle(
        self,
        state: GameState,
        directive: Directive | None,
        screenshot: bytes | None = None,
        battle_id: str | None = None,
    ) -> BattleChoice: ...
    def choose_leg(self, state: GameState, directive: Directive | None) -> Leg: ...
    def travelled(self, before: GameState, leg: Leg, report: LegReport) -> None: ...
    def snapshot(self) -> TacticianSnapshot: ...
    def restore(self, snapshot: TacticianSnapshot) -> None: ...
    def report(self) -> RoleReport: ...
