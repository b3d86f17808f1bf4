"""`engine run` end to end on a real cartridge: from power-on, from a save state, exploring into battles."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.cli import main
from engine.emulator.session import EmulatorSession
from tests.support.scenarios import set_party, start_battle


def run(args: list[str], tmp_path: Path) -> tuple[int, dict[str, Any], Path]:
    summary = tmp_path / "summary.json"
    code = main(["run", "--local", "--data-dir", str(tmp_path / "data"), "--summary", str(summary), *args])
    (run_dir,) = (tmp_path / "data" / "runs").iterdir()
    return code, json.loads(summary.read_text(encoding="utf-8")), run_dir


def save(game: EmulatorSession, tmp_path: Path) -> Path:
    path = tmp_path / "start.state"
    path.write_bytes(game.save_state())
    return path


def test_from_power_on_reaches_the_overworld(rom_path: Path, tmp_path: Path) -> None:
    code, summary, run_dir = run(["--rom", str(rom_path), "--max-decisions", "5"], tmp_path)
    assert code == 0 and summary["stopped"] == "max_decisions"
    assert summary["decisions"] == 5 == summary["overworld_steps"]
    steps = [json.loads(line) for line in (run_dir / "decisions.jsonl").read_text().splitlines()]
    assert [step["kind"] for step in steps] == ["overworld"] * 5
    assert "overworld: REDS_HOUSE_2F" in (run_dir / "run.log").read_text(encoding="utf-8")


def test_a_battle_from_a_save_state(game: EmulatorSession, rom_path: Path, tmp_path: Path) -> None:
    set_party(game, [("SQUIRTLE", 8)])
    start_battle(game, "RATTATA", 6)
    code, summary, run_dir = run(
        ["--rom", str(rom_path), "--state", str(save(game, tmp_path)), "--max-battles", "1"], tmp_path
    )
    assert code == 0 and summary["stopped"] == "max_battles"
    (battle,) = summary["battles"]
    assert (battle["outcome"], battle["battle_type"], battle["opponent"]) == ("victory", "wild", "RATTATA")
    assert battle["turns"] >= 1 and battle["decisions"] == summary["decisions"]
    assert summary["llm_calls"] == 0 and summary["cost_usd"] == 0.0 and summary["frames"] > 0
    log = json.loads((run_dir / "battles" / f"{battle['battle_id']}.json").read_text(encoding="utf-8"))
    assert len(log["decisions"]) == battle["decisions"] == len(log["turns"])
    first = log["decisions"][0]
    assert first["ours"]["species"] == "SQUIRTLE" and first["enemy"]["species"] == "RATTATA"
    assert first["enemy"]["hp"] is None and any(o.startswith("use ") for o in first["options"])
    # Victory: the enemy's HP bar went from full to empty over the turns, and it fainted on the last.
    dealt = [t["enemy_hp_lost_percent"] for t in log["turns"] if t["enemy_hp_lost_percent"] is not None]
    assert sum(dealt) == first["enemy"]["hp_percent"] == 100 and log["turns"][-1]["enemy_fainted"]
    start = run_dir / "battles" / log["start_state"]
    assert start.is_file() and start.stat().st_size > 100_000  # a PyBoy state, loadable with --state
    assert json.loads((run_dir / "summary.json").read_text(encoding="utf-8")) == summary


def test_a_new_game_finds_and_wins_its_first_battles(rom_path: Path, tmp_path: Path) -> None:
    """From power-on with no party: the walk leaves the house, takes a starter from Oak's table, beats the
    rival in the lab and meets a wild Pokémon on Route 1."""
    code, summary, run_dir = run(
        ["--rom", str(rom_path), "--max-battles", "2", "--max-decisions", "8000"], tmp_path
    )
    assert code == 0 and summary["stopped"] == "max_battles"
    rival, wild = summary["battles"]
    assert (rival["battle_type"], rival["opponent"].split()[0], rival["outcome"]) == (
        "trainer",
        "RIVAL1",
        "victory",
    )
    assert (wild["battle_type"], wild["outcome"]) == ("wild", "victory")
    assert summary["overworld_steps"] > 0
    assert (
        len(list((run_dir / "battles").glob("*.json")))
        == 2
        == len(list((run_dir / "battles").glob("*.state")))
    )


@pytest.mark.parametrize("flag", ["--max-battles", "--max-decisions"])
def test_a_broken_state_is_refused_without_a_run(flag: str, rom_path: Path, tmp_path: Path) -> None:
    broken = tmp_path / "broken.state"
    broken.write_bytes(b"\x00" * 100)
    code = main(
        [
            "run",
            "--local",
            "--rom",
            str(rom_path),
            "--state",
            str(broken),
            flag,
            "1",
            "--data-dir",
            str(tmp_path / "data"),
        ]
    )
    assert code == 2
