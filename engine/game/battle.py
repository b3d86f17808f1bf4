"""Play one battle to its end: decide at each choice point, execute, repeat.

Outcomes follow the game's own bookkeeping. A catch ends the battle with wBattleResult 2, as running away
does (no EXP, the enemy leaves unbeaten), so its outcome is "flee"; `BattleResult.caught` names the
species caught, which is how a catch is told apart from an escape.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal, Protocol

from engine.errors import EngineError
from engine.game.actions import BattleAction, describe, legal_actions
from engine.game.executor import BattleExecutor
from engine.game.models import BattleState, DecisionPoint, Frozen, GameState

Outcome = Literal["victory", "defeat", "flee", "draw"]
# wBattleResult (pret ram/wram.asm: 0 win, 1 lose, 2 draw; set to 2 by running and by a catch,
# engine/battle/core.asm UseBagItem.returnAfterCapturingMon)
RAN_OR_CAUGHT = 2


class Decision(Protocol):
    action: BattleAction
    reason: str


class Policy(Protocol):
    def decide(self, state: GameState, legal: list[BattleAction] | None = None) -> Decision | None: ...


class BattleError(EngineError):
    """A battle could not be played: no legal action where one was needed, or no battle at all."""


class SideView(Frozen):
    """One side's active Pokémon as the player sees it: our HP exactly, the enemy's as its HP bar (%);
    our moves and their PP too (the enemy's are hidden from the player: left empty)."""

    species: str
    level: int
    hp: int | None = None
    max_hp: int | None = None
    hp_percent: float
    status: str
    moves: tuple[str, ...] = ()
    pp: tuple[int, ...] = ()  # PP left, one per move


class DecisionRecord(Frozen):
    point: DecisionPoint
    action: str
    reason: str
    tier: Literal["rule_based", "acting", "thinking"] = "rule_based"
    cost_usd: float = 0.0
    frame: int | None = None
    options: tuple[str, ...] = ()  # the legal actions offered, as labels
    ours: SideView | None = None
    enemy: SideView | None = None
    move: str | None = None  # our move, when the action used one (STRUGGLE included)
    # The battle messages shown while the action was carried out, up to the next decision (see
    # BattleExecutor.take_battle_text), e.g. ("SQUIRTLE used BUBBLE!", "It's super effective!").
    text: tuple[str, ...] = ()


class BattleResult(Frozen):
    outcome: Outcome
    battle_type: Literal["wild", "trainer"]
    opponent: str
    decisions: tuple[DecisionRecord, ...]
    frames: int
    caught: str | None = None  # the species caught with a ball (outcome "flee"), if any


def opponent_name(battle: BattleState) -> str:
    if battle.kind == "trainer":
        return f"{battle.trainer_class_name} #{battle.trainer_number}"
    if battle.enemy is None:
        return "?"
    return battle.enemy.species_name or "?"


def battle_outcome(final: GameState, battle_result: int) -> Outcome:
    """From the last in-battle look at both sides and wBattleResult (2 after running or a catch)."""
    battle = final.battle
    assert battle is not None
    we_are_down = all(mon.hp == 0 for mon in final.party)
    enemy_down = battle.enemy is not None and battle.enemy.hp == 0
    if battle.kind == "trainer" and enemy_down and battle.enemy_party_count is not None:
        enemy_down = battle.enemy_party_pos == battle.enemy_party_count - 1
    if we_are_down:
        return "draw" if enemy_down else "defeat"
    if enemy_down:
        return "victory"
    return "flee" if battle_result == RAN_OR_CAUGHT else "draw"


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
