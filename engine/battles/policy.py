"""What chooses battle actions, as the battle drivers see it: the rule-based policy, or anything else that
answers the same way."""

from __future__ import annotations

from typing import Protocol

from engine.game.actions import BattleAction
from engine.game.models import GameState


class Decision(Protocol):
    @property
    def action(self) -> BattleAction: ...
    @property
    def reason(self) -> str: ...


class Policy(Protocol):
    def decide(self, state: GameState, legal: list[BattleAction] | None = None) -> Decision | None: ...
