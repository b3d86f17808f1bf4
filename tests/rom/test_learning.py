"""Learning end to end on a real cartridge: runs store measured lessons, later decisions use them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.cli import main
from engine.emulator.session import EmulatorSession
from tests.support.scenarios import set_party, start_battle

pytestmark = pytest.mark.rom

PARTY = ("NIDORINO", 22, ["HORN_ATTACK", "DOUBLE_KICK"])


def battle_state(game: EmulatorSession, tmp_path: Path, seed: int) -> Path:
    game.tick(1 + 37 * seed)  # another wait, other random numbers: another battle
    set_party(game, [PARTY])
    start_battle(game, "RATICATE", 24)
    path = tmp_path / f"seed{seed}.state"
    path.write_bytes(game.save_state())
    return path


def run(rom: Path, state: Path, data: Path, *extra: str) -> Path:
    assert main(["run", "--local", "--rom", str(rom), "--state", str(state), "--max-battles", "1",
                 "--data-dir", str(data), *extra]) == 0  # fmt: skip
    return max((data / "runs").iterdir(), key=lambda run_dir: run_dir.stat().st_mtime_ns)


def first_choice(run_dir: Path) -> str:
    return json.loads((run_dir / "decisions.jsonl").read_text().splitlines()[0])["action"]


def test_lessons_from_earlier_battles_steer_later_decisions(
    game: EmulatorSession, rom_path: Path, tmp_path: Path
) -> None:
    # The one-turn policy scores one hit per use, so it misjudges DOUBLE KICK until lessons correct it
    # (the search counts both hits from the start and has nothing to learn here).
    one_turn = tmp_path / "one-turn.yaml"
    one_turn.write_text("models:\n  rule_based:\n    battle: one_turn\n")
    bedroom = game.save_state()
    states = []
    for seed in range(4):
        game.load_state(bedroom)
        states.append(battle_state(game, tmp_path, seed))
    data = tmp_path / "data"
    first = run(rom_path, states[0], data, "--config", str(one_turn))
    reasons = [json.loads(line)["reason"] for line in (first / "decisions.jsonl").read_text().splitlines()]
    assert not any("seen" in reason for reason in reasons)  # nothing learned yet
    report = json.loads(next((first / "reflections").glob("*.json")).read_text())
    assert report["memory"] in ("stored", "nothing_to_store")
    for state in states[1:3]:
        run(rom_path, state, data, "--config", str(one_turn))
    clock = json.loads((data / "memory" / "clock.json").read_text())["play_hours"]
    assert clock > 0  # the play clock moved with the battles
    off = tmp_path / "memory-off.yaml"
    off.write_text("memory:\n  enabled: false\nmodels:\n  rule_based:\n    battle: one_turn\n")
    # The same battle, without and with what the earlier battles measured.
    without = run(rom_path, states[3], tmp_path / "fresh", "--config", str(off))
    with_lessons = run(rom_path, states[3], data, "--config", str(one_turn))
    assert first_choice(without) == "use HORN_ATTACK"  # the calculator's pick: one hit per use
    assert first_choice(with_lessons) == "use DOUBLE_KICK"  # measured: two hits do more
