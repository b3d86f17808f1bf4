"""Choosers for replays and rollouts: the logged actions again, or one action then a policy; and going
back to a battle's start state so that what follows depends on the state alone. The driving itself is
`engine.mechanics.battle_driver`, the same steps the conductor plays."""

from __future__ import annotations

from collections.abc import Sequence

from engine.battles.models import DecisionRecord
from engine.battles.policy import Policy
from engine.game.actions import BattleAction, describe
from engine.game.models import GameState
from engine.mechanics.battle_driver import Chosen, Halt, Picker, by_policy
from engine.mechanics.role import EmulatorRole

COUNTERFACTUAL_REASON = "counterfactual: the action tried at this decision"


def restart_from(emulator: EmulatorRole, state: bytes) -> None:
    """Load a save state so that what follows depends on the state alone."""
    emulator.session.load_state(state)  # forgets the session's call records: the state alone decides


def follow_log(decisions: Sequence[DecisionRecord]) -> Picker:
    """The logged actions in order, found among the legal ones by their labels."""

    def pick(index: int, state: GameState, legal: list[BattleAction]) -> Chosen | Halt:
        point = state.decision_point
        if index >= len(decisions):
            return Halt(f"the log ends after {len(decisions)} decisions; the replay goes on at {point.value}")
        logged = decisions[index]
        if point is not logged.point:
            return Halt(f"decision point: logged {logged.point.value}, replayed {point.value}")
        for action in legal:
            if describe(action, state) == logged.action:
                return Chosen(action, logged.reason)
        offered = ", ".join(describe(action, state) for action in legal) or "none"
        return Halt(f"the logged '{logged.action}' is not legal here (legal: {offered})")

    return pick


def forced_then(label: str, policy: Policy) -> Picker:
    """`label` at the first decision, then whatever `policy` chooses."""
    then = by_policy(policy)

    def pick(index: int, state: GameState, legal: list[BattleAction]) -> Chosen | Halt:
        if index > 0:
            return then(index, state, legal)
        action = next((a for a in legal if describe(a, state) == label), None)
        if action is None:
            return Halt(f"'{label}' is not legal at {state.decision_point.value}")
        return Chosen(action, COUNTERFACTUAL_REASON)

    return pick
