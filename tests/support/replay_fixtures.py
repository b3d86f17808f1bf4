"""Battles logged for replay tests: a recorder that logs a battle as the conductor does, with any policy."""

from __future__ import annotations

from pathlib import Path

from engine.battles.policy import Policy
from engine.config import EngineConfig
from engine.files import write_bytes_atomic, write_json_atomic
from engine.game.actions import UseMove
from engine.layout import RunPaths
from engine.mechanics.battle_driver import DriveOptions, by_policy, drive_battle
from engine.mechanics.role import EmulatorRole
from tests.support.battle_scenarios import PreferPolicy

TAIL_WHIP_SLOT = 1  # SQUIRTLE's moves at level 13: TACKLE, TAIL_WHIP, BUBBLE


def always_tail_whip() -> Policy:
    """A deliberately bad policy: TAIL_WHIP whenever it is offered (it never damages anything)."""
    return PreferPolicy(lambda action: action == UseMove(slot=TAIL_WHIP_SLOT), "always TAIL_WHIP")


def record_battle(rom: Path, state: bytes, policy: Policy, data_dir: Path, run_id: str) -> str:
    """Play the battle `state` is in with `policy`, emulated as the conductor does, and leave its log and
    start state where `engine run` would (runs/<run id>/battles/). Returns the battle id."""
    config = EngineConfig()
    paths = RunPaths(data_dir=data_dir, run_id=run_id)
    paths.create()
    battle_id = f"{run_id}-b001"
    emulator = EmulatorRole(rom, config.emulator, config.player)
    try:
        emulator.start(state)
        options = DriveOptions(battle_id=battle_id, run_id=run_id, keep_states=True)
        driven = drive_battle(emulator, by_policy(policy), options)
    finally:
        emulator.close()
    assert driven.log is not None and driven.steps[0].state is not None, driven.halted
    write_bytes_atomic(paths.battle_start_state(battle_id), driven.steps[0].state)
    write_json_atomic(paths.battle_log(battle_id), driven.log.model_dump(mode="json"))
    return battle_id
