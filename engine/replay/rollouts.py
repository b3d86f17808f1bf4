"""Rollouts: from one decision's save state, one action, then the rule-based policy to the battle's end.

`RolloutWorker` is the plain class (one emulator each); `--local` runs one in-process, and on Ray each
pool actor is a thin shell around one (engine.replay.pool). A rollout depends only on its state and
task, never on what the worker played before (`restart_from`), so results do not depend on which worker
ran them or in what order.
"""

from __future__ import annotations

from pathlib import Path

from engine.battles.tracker import enemy_side, our_side
from engine.config import EmulatorConfig, PlayerConfig
from engine.errors import EngineError
from engine.frozen import Frozen
from engine.game.actions import as_battle_sees_it
from engine.game.models import GameState
from engine.mechanics.battle_driver import DrivenBattle, DriveOptions, drive_battle
from engine.mechanics.role import EmulatorRole
from engine.reflection.forensics import measure
from engine.reflection.turns import read_turns
from engine.replay.defaults import DEFAULT_MAX_DECISIONS
from engine.replay.driver import forced_then, restart_from
from engine.replay.models import RolloutResult
from engine.tactician.rule_based import RuleBasedPolicy

ROLLOUT_RUN_ID = "rollout"


class RolloutTask(Frozen):
    decision: int  # index of the decision in the logged battle
    action: str  # the label to take there
    baseline: bool
    max_decisions: int = DEFAULT_MAX_DECISIONS
    screenshots: bool = False  # render a frame before each action, as the conductor did


def party_hp_percent(final: GameState) -> float:
    """The whole party's HP as % of its total (the active member's as the battle struct has it)."""
    members = [as_battle_sees_it(final, mon) for mon in final.party]
    total = sum(mon.max_hp for mon in members)
    return round(100 * sum(mon.hp for mon in members) / total, 1) if total else 0.0


def enemies_left(final: GameState) -> int | None:
    battle = final.battle
    if battle is None or battle.enemy is None:
        return None
    active_left = int(battle.enemy.hp > 0)
    if battle.kind == "wild" or battle.enemy_party_count is None or battle.enemy_party_pos is None:
        return active_left
    return battle.enemy_party_count - battle.enemy_party_pos - 1 + active_left


def rollout_result(task: RolloutTask, driven: DrivenBattle) -> RolloutResult:
    final = driven.final
    ours = our_side(final) if final is not None else None
    enemy = enemy_side(final) if final is not None else None
    return RolloutResult(
        decision=task.decision,
        action=task.action,
        baseline=task.baseline,
        outcome=driven.log.summary.outcome if driven.log is not None else None,
        decisions=len(driven.steps),
        party_hp_percent=party_hp_percent(final) if final is not None else 0.0,
        active_hp_percent=ours.hp_percent if ours is not None else None,
        enemy_hp_percent=enemy.hp_percent if enemy is not None else None,
        enemies_left=enemies_left(final) if final is not None else None,
        frames=driven.frames,
        actions=tuple(step.record.action for step in driven.steps),
        unfinished=driven.halted,
        measures=measure(read_turns(driven.log)) if driven.log is not None else (),
    )


def failed(task: RolloutTask, why: str) -> RolloutResult:
    return RolloutResult(
        decision=task.decision, action=task.action, baseline=task.baseline, outcome=None, decisions=0,
        party_hp_percent=0.0, active_hp_percent=None, enemy_hp_percent=None, enemies_left=None, frames=0,
        unfinished=why,
    )  # fmt: skip


class RolloutWorker:
    """One emulator session on the user's cartridge, playing rollouts one after another."""

    def __init__(self, rom: Path, emulator: EmulatorConfig, player: PlayerConfig) -> None:
        self.emulator = EmulatorRole(rom, emulator, player)
        self.policy = RuleBasedPolicy()
        self.played = 0

    def ready(self) -> bool:
        return True

    def run(self, state: bytes, task: RolloutTask) -> RolloutResult:
        """A rollout that cannot be played (the game refused an input, a bad state) is reported as
        unfinished with the error, rather than ending the other rollouts."""
        self.played += 1
        options = DriveOptions(
            battle_id=f"{ROLLOUT_RUN_ID}-d{task.decision}",
            run_id=ROLLOUT_RUN_ID,
            max_decisions=task.max_decisions,
            screenshots=task.screenshots,
        )
        try:
            restart_from(self.emulator, state)
            driven = drive_battle(self.emulator, forced_then(task.action, self.policy), options)
        except EngineError as exc:
            return failed(task, str(exc))
        return rollout_result(task, driven)

    def close(self) -> None:
        self.emulator.close()
