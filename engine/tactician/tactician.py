"""The Tactician role: one choice per decision point, from the legal set, given the directive."""

from __future__ import annotations

from collections import deque
from typing import Any

from engine.game.actions import describe, legal_actions
from engine.game.battle import BattleError
from engine.game.models import GameState
from engine.game.overworld import StepOutcome
from engine.messages import BattleChoice, Directive, NavChoice, RoleReport
from engine.tactician.explorer import Explorer, NavDecision
from engine.tactician.rule_based import RuleBasedPolicy

HISTORY_KEPT = 20


class Tactician:
    def __init__(self, seed: int = 0) -> None:
        self.policy = RuleBasedPolicy()
        self.explorer = Explorer(seed=seed)
        self.recent: deque[str] = deque(maxlen=HISTORY_KEPT)  # the last turns, for model prompts later
        self.battle_choices = 0
        self.nav_choices = 0

    def choose_battle(self, state: GameState, directive: Directive | None) -> BattleChoice:
        legal = legal_actions(state)
        decision = self.policy.decide(state, legal)
        if decision is None:
            raise BattleError(f"no legal action at {state.decision_point.value}")
        label = describe(decision.action, state)
        self.recent.append(label)
        self.battle_choices += 1
        return BattleChoice(action=decision.action, label=label, reason=decision.reason)

    def choose_step(self, state: GameState, directive: Directive | None) -> NavChoice:
        decision = self.explorer.decide(state.overworld)
        self.nav_choices += 1
        return NavChoice(move=decision.kind, direction=decision.direction, reason=decision.reason)

    def stepped(self, before: GameState, choice: NavChoice, outcome: StepOutcome, after: GameState) -> None:
        decision = NavDecision(kind=choice.move, direction=choice.direction, reason=choice.reason)
        self.explorer.record(before.overworld, decision, outcome, after.overworld)

    def snapshot(self) -> dict[str, Any]:
        return {"recent": list(self.recent), "explorer": self.explorer.snapshot()}

    def report(self) -> RoleReport:
        counters = {"battle_choices": float(self.battle_choices), "nav_choices": float(self.nav_choices)}
        return RoleReport(role="tactician", healthy=True, counters=counters)
