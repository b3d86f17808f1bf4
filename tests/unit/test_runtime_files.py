"""A run's files: ids, layout, atomic JSON, the battle tracker and the summary from real captures."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from engine.battles.errors import BattleError
from engine.battles.models import DecisionRecord
from engine.battles.tracker import BattleTracker
from engine.errors import UserInputError
from engine.files import append_json_line, write_json_atomic
from engine.game.capture import load_capture
from engine.game.models import DecisionPoint, GameState
from engine.game.ram import RED_BLUE
from engine.game.state import decode_state
from engine.layout import RunPaths, new_run_id
from engine.runtime.launch import exit_code
from engine.runtime.summary import RunSummary
from tests.conftest import GEN1_FIXTURES


def capture(name: str) -> GameState:
    return decode_state(load_capture(GEN1_FIXTURES / name), RED_BLUE)


def test_run_ids_sort_by_start_time_and_differ() -> None:
    early = new_run_id(datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC))
    late = new_run_id(datetime(2026, 1, 2, 3, 4, 6, tzinfo=UTC))
    assert early.startswith("20260102-030405-") and early < late
    assert len({new_run_id() for _ in range(20)}) > 1


def test_layout_creates_the_folders(tmp_path: Path) -> None:
    paths = RunPaths(tmp_path / "data", "r1")
    paths.create()
    for folder in ("checkpoints", "memory", "runs/r1/battles"):
        assert (tmp_path / "data" / folder).is_dir()
    assert paths.battle_log("r1-b001") == tmp_path / "data/runs/r1/battles/r1-b001.json"


def test_a_data_dir_that_is_a_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    with pytest.raises(UserInputError, match="is a file"):
        RunPaths(tmp_path / "file", "r1").create()


def test_atomic_json_replaces_whole_files_and_leaves_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "out" / "summary.json"
    write_json_atomic(target, {"a": 1})
    write_json_atomic(target, {"a": 2, "name": "POKéMON"})
    assert json.loads(target.read_text(encoding="utf-8")) == {"a": 2, "name": "POKéMON"}
    assert [p.name for p in target.parent.iterdir()] == ["summary.json"]


def test_json_lines_append(tmp_path: Path) -> None:
    log = tmp_path / "decisions.jsonl"
    append_json_line(log, {"seq": 1})
    append_json_line(log, {"seq": 2})
    assert [json.loads(line)["seq"] for line in log.read_text().splitlines()] == [1, 2]


def test_tracker_counts_turns_and_reads_the_outcome() -> None:
    start = capture("red_wild_main_menu")
    tracker = BattleTracker("r1-b001", 100, start)
    assert (tracker.battle_type, tracker.opponent) == ("wild", "PIDGEY")
    tracker.note(DecisionRecord(point=DecisionPoint.BATTLE_MAIN_MENU, action="use TACKLE", reason="r"))
    tracker.note(
        DecisionRecord(point=DecisionPoint.LEARN_MOVE_PROMPT, action="keep the old moves", reason="r")
    )
    log = tracker.finish(start, battle_result=2, end_frame=400, run_id="r1")
    # Both sides still standing and wBattleResult 2: the player ran.
    assert (log.summary.outcome, log.summary.turns, log.summary.decisions) == ("flee", 1, 2)
    assert log.summary.frames == 300
    assert log.decisions[1].action == "keep the old moves"


def test_tracker_needs_a_battle() -> None:
    with pytest.raises(BattleError):
        BattleTracker("r1-b001", 0, capture("red_bedroom_overworld"))


@pytest.mark.parametrize(
    ("stopped", "code"), [("max_battles", 0), ("max_decisions", 0), ("error", 1), ("interrupted", 130)]
)
def test_exit_codes(stopped: str, code: int) -> None:
    summary = RunSummary(
        run_id="r",
        game="red",
        stopped=stopped,
        battles=(),
        decisions=0,
        overworld_steps=0,
        llm_calls=0,
        cost_usd=0.0,
        frames=0,
        wall_seconds=0.0,
    )
    assert exit_code(summary) == code
