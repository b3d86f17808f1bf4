"""The Tactician role's verbs."""

from __future__ import annotations

from typing import Protocol

from engine.game.models import GameState
from engine.messages import BattleChoice, Directive, NavChoice, RoleReport, StepOutcome
from engine.tactician.tactician import TacticianSnapshot


class TacticianPort(Protocol):
    def choose_battle(
        self,
        state: GameState,
        directive: Directive | None,
        screenshot: bytes | None = None,
        battle_id: str | None = None,
    ) -> BattleChoice: ...
    def choose_step(self, state: GameState, directive: Directive | None) -> NavChoice: ...
    def stepped(
        self, before: GameState, choice: NavChoice, outcome: StepOutcome, after: GameState
    ) -> None: ...
    def snapshot(self) -> TacticianSnapshot: ...
    def restore(self, snapshot: TacticianSnapshot) -> None: ...
    def report(self) -> RoleReport: ...
