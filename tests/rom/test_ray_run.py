"""A real battle through the Ray path plays exactly as in-process: same outcome, decisions and frames."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.cli import main
from engine.emulator.session import EmulatorSession
from tests.support.scenarios import set_party, start_battle

pytestmark = [pytest.mark.rom, pytest.mark.ray]


def run(mode: list[str], rom: Path, state: Path, folder: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """`engine run` with --local or (mode empty) on the session's Ray instance; the summary and decisions
    without what differs between two runs anyway (run id, clocks)."""
    folder.mkdir()
    summary_file = folder / "summary.json"
    args = ["run", *mode, "--rom", str(rom), "--state", str(state), "--max-battles", "1"]
    assert main([*args, "--data-dir", str(folder / "data"), "--summary", str(summary_file)]) == 0
    summary = json.loads(summary_file.read_text(encoding="utf-8"))
    run_id = summary.pop("run_id")
    summary.pop("wall_seconds")
    for battle in summary["battles"]:
        battle.pop("wall_seconds")
        battle["battle_id"] = battle["battle_id"].removeprefix(run_id)
    summary["battle_ids"] = [battle_id.removeprefix(run_id) for battle_id in summary["battle_ids"]]
    for split in summary["milestones"]:
        split.pop("seconds")
    lines = (folder / "data" / "runs" / run_id / "decisions.jsonl").read_text(encoding="utf-8").splitlines()
    decisions = [json.loads(line) for line in lines]
    for entry in decisions:
        entry.pop("seconds")  # the run's wall-clock time at the decision
        entry["battle_id"] = entry["battle_id"].removeprefix(run_id)
    return summary, decisions


@pytest.mark.parametrize(
    ("party", "opponent"),
    [([("SQUIRTLE", 8)], ("RATTATA", 6)), ([("IVYSAUR", 24), ("PIKACHU", 22)], ("MISTY", 1))],
    ids=["wild_rattata", "misty"],
)
def test_a_battle_on_ray_plays_as_in_process(
    rom_path: Path,  # first: without a cartridge the test skips before Ray starts
    ray_instance: Any,
    game: EmulatorSession,
    tmp_path: Path,
    party: list[tuple[str, int]],
    opponent: tuple[str, int],
) -> None:
    set_party(game, party)
    start_battle(game, *opponent)
    state = tmp_path / "battle.state"
    state.write_bytes(game.save_state())
    local = run(["--local"], rom_path, state, tmp_path / "local")
    on_ray = run([], rom_path, state, tmp_path / "ray")
    assert on_ray == local
    (battle,) = on_ray[0]["battles"]
    assert battle["outcome"] == "victory" and battle["decisions"] == len(on_ray[1]) > 0
    assert on_ray[0]["frames"] > battle["frames"] > 0
