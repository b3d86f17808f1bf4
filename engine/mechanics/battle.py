"""Play one battle to its end: decide at each choice point, execute, repeat.

Outcomes follow the game's own bookkeeping. A catch ends the battle with wBattleResult 2, as running away
does (no EXP, the enemy leaves unbeaten), so its outcome is "flee"; `BattleResult.caught` names the
species caught, which is how a catch is told apart from an escape.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from engine.battles.errors import BattleError
from engine.battles.models import DecisionRecord, Outcome
from engine.battles.outcome import battle_outcome, opponent_name
from engine.battles.policy import Policy
from engine.frozen import Frozen
from engine.game.actions import describe, legal_actions
from engine.game.models import DecisionPoint
from engine.mechanics.executor import BattleExecutor


class BattleResult(Frozen):
    outcome: Outcome
    battle_type: Literal["wild", "trainer"]
    opponent: str
    decisions: tuple[DecisionRecord, ...]
    frames: int
    caught: str | None = None  # the species caught with a ball (outcome "flee"), if any


def play_battle(
    executor: BattleExecutor,
    policy: Policy,
    *,
    max_decisions: int = 200,
    on_decision: Callable[[DecisionRecord], None] | None = None,
) -> BattleResult:
    """From inside a battle (or the moment one starts) to the overworld afterwards."""
    start_frame = executor.session.frame
    executor.last_in_battle = None
    executor.caught_species = None
    state = executor.advance()
    records: list[DecisionRecord] = []
    while state.decision_point is not DecisionPoint.OVERWORLD_FREE and len(records) < max_decisions:
        decision = policy.decide(state, legal_actions(state))
        if decision is None:
            raise BattleError(f"no legal action at {state.decision_point.value}")
        record = DecisionRecord(
            point=state.decision_point, action=describe(decision.action, state), reason=decision.reason
        )
        records.append(record)
        if on_decision is not None:
            on_decision(record)
        state = executor.execute(decision.action)
    final = executor.last_in_battle
    if final is None or final.battle is None:
        raise BattleError("no battle happened")
    result = executor.session.read_u8(executor.session.ram_map.wBattleResult)
    return BattleResult(
        outcome=battle_outcome(final, result),
        battle_type=final.battle.kind,
        opponent=opponent_name(final.battle),
        decisions=tuple(records),
        frames=executor.session.frame - start_frame,
        caught=executor.caught_species,
    )
