"""Splits against the personal best, from hand-made summaries: deltas, gold segments, the sum of best,
which runs are compared (same cartridge, same start), milestones a start state had, unreadable summaries,
the timer's words, and `engine stats --splits`."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest

from engine.cli import main
from engine.game.capture import load_capture
from engine.game.ram import RED_BLUE
from engine.game.state import decode_state
from engine.runtime.milestones import Milestones, Split
from engine.runtime.run_start import RunStart
from engine.runtime.split_history import comparison_for, read_runs, tables
from engine.runtime.splits import RunSplits, SplitComparison, sum_of_best
from engine.story.graph import story_graph
from engine.watch.splits import GAME_FPS, clock, delta_words
from tests.conftest import GEN1_FIXTURES

RED = "a" * 64
BLUE = "b" * 64
POWER_ON = RunStart.power_on().model_dump(mode="json")
TITLES = {objective.name: objective.title for objective in story_graph().objectives}


def split(name: str, frame: int, at_start: bool = False, seconds: float | None = None) -> dict[str, Any]:
    number = story_graph().named(name).milestone or 0
    return {"name": name, "title": TITLES[name], "number": number, "frame": frame, "decision": frame // 100,
            "seconds": frame / 600 if seconds is None else seconds, "at_start": at_start}  # fmt: skip


def keep_run(data: Path, run_id: str, splits: list[dict[str, Any]], rom: str | None = RED,
             start: dict[str, Any] | None = POWER_ON) -> None:  # fmt: skip
    """A finished run's summary as the conductor writes it (the parts splits read, and some others)."""
    folder = data / "runs" / run_id
    folder.mkdir(parents=True)
    summary: dict[str, Any] = {"run_id": run_id, "game": "red", "stopped": "until", "battles": [],
                               "decisions": 10, "overworld_steps": 5, "llm_calls": 0, "cost_usd": 0.0,
                               "frames": max((s["frame"] for s in splits), default=0), "wall_seconds": 9.0,
                               "milestones": splits}  # fmt: skip
    if rom is not None:
        summary["rom_sha256"] = rom
    if start is not None:
        summary["start"] = start
    (folder / "summary.json").write_text(json.dumps(summary), encoding="utf-8")


def three_runs(data: Path) -> None:
    """Two earlier runs to Oak's starter and a third: B is the personal best (as far as A, fewer frames),
    the third's meet_oak segment (950) beats every earlier one (A 1000, B 1300)."""
    keep_run(data, "20260101-000000-aaaa", [split("leave_house", 1000), split("meet_oak", 2000),
                                            split("get_starter", 5000)])  # fmt: skip
    keep_run(data, "20260102-000000-bbbb", [split("leave_house", 900), split("meet_oak", 2200),
                                            split("get_starter", 4800)])  # fmt: skip
    keep_run(data, "20260103-000000-cccc", [split("leave_house", 950), split("meet_oak", 1900),
                                            split("get_starter", 4700)])  # fmt: skip


def test_deltas_gold_segments_and_the_sum_of_best(tmp_path: Path) -> None:
    three_runs(tmp_path)
    table = tables(tmp_path, ["20260103-000000-cccc"])["20260103-000000-cccc"]
    assert table.comparison == "20260102-000000-bbbb" and table.comparable_runs == 2
    assert (table.pb_name, table.pb_frame) == ("get_starter", 4800)
    assert [row.frame for row in table.rows] == [950, 1900, 4700]
    assert [row.segment_frames for row in table.rows] == [950, 950, 2800]
    assert [row.delta_frames for row in table.rows] == [50, -300, -100]  # against B's 900, 2200, 4800
    assert [row.gold for row in table.rows] == [False, True, False]  # 950 vs 900; 950 vs 1000; 2800 vs 2600
    assert [row.best_segment_frames for row in table.rows] == [900, 1000, 2600]
    assert table.sum_of_best_frames == 900 + 950 + 2600 and table.sum_of_best_to == "get_starter"
    assert table.rows[0].segment_seconds == round(950 / 600, 3)


def test_the_first_run_has_nothing_to_compare_and_no_gold(tmp_path: Path) -> None:
    three_runs(tmp_path)
    table = tables(tmp_path, ["20260101-000000-aaaa"])["20260101-000000-aaaa"]
    assert table.comparison is None and table.comparable_runs == 0 and table.pb_frame is None
    assert all(row.delta_frames is None and not row.gold for row in table.rows)
    assert table.sum_of_best_frames == 5000  # its own segments are the only ones
    # The second run compares with the first only (runs that began later are not its history).
    second = tables(tmp_path, ["20260102-000000-bbbb"])["20260102-000000-bbbb"]
    assert second.comparison == "20260101-000000-aaaa" and second.comparable_runs == 1
    assert [row.gold for row in second.rows] == [True, False, True]


def test_only_the_same_cartridge_from_the_same_start_is_compared(tmp_path: Path) -> None:
    state_a = from_state("1", "brock.state")
    renamed = from_state("1", "renamed.state")
    state_b = from_state("2", "brock.state")
    fast = [split("leave_house", 10), split("meet_oak", 20)]
    keep_run(tmp_path, "20260101-000000-blue", fast, rom=BLUE)  # another cartridge
    keep_run(tmp_path, "20260101-000001-stat", fast, start=state_a)  # from a save state
    keep_run(tmp_path, "20260101-000002-olde", fast, rom=None, start=None)  # says neither
    keep_run(tmp_path, "20260101-000003-slow", [split("leave_house", 900), split("meet_oak", 1800)])
    keep_run(tmp_path, "20260102-000000-mine", [split("leave_house", 1000), split("meet_oak", 2000)])
    keep_run(tmp_path, "20260102-000001-stat", [split("meet_oak", 30)], start=renamed)
    keep_run(tmp_path, "20260102-000002-othr", [split("meet_oak", 30)], start=state_b)
    found = tables(tmp_path, ["20260102-000000-mine", "20260102-000001-stat", "20260102-000002-othr"])
    mine = found["20260102-000000-mine"]
    assert mine.comparison == "20260101-000003-slow" and mine.comparable_runs == 1
    assert [row.delta_frames for row in mine.rows] == [100, 200]
    assert found["20260102-000001-stat"].comparison == "20260101-000001-stat"  # same bytes, another name
    assert found["20260102-000001-stat"].start.startswith("state renamed.state")
    assert found["20260102-000002-othr"].comparison is None  # a state with other bytes


def from_state(digit: str, name: str) -> dict[str, Any]:
    return RunStart(kind="state", state_sha256=digit * 64, state_name=name).model_dump(mode="json")


def test_the_personal_best_is_the_furthest_run_then_the_fewest_frames(tmp_path: Path) -> None:
    keep_run(tmp_path, "20260101-000000-quik", [split("leave_house", 100), split("meet_oak", 200)])
    keep_run(tmp_path, "20260101-000001-frth", [split("leave_house", 500), split("meet_oak", 900),
                                                split("get_starter", 3000)])  # fmt: skip
    # A detour (the optional Town Map) does not make a run further along than one that went on.
    keep_run(tmp_path, "20260101-000002-detr", [split("deliver_parcel", 50), split("town_map", 60)],
             start=RunStart(kind="state", state_sha256="3" * 64).model_dump(mode="json"))  # fmt: skip
    keep_run(tmp_path, "20260101-000003-ontw", [split("deliver_parcel", 50), split("buy_poke_balls", 90)],
             start=RunStart(kind="state", state_sha256="3" * 64).model_dump(mode="json"))  # fmt: skip
    runs = read_runs(tmp_path)
    me = RunSplits(run_id="20260109-000000-late", rom_sha256=RED, start=RunStart.power_on())
    assert comparison_for(runs, me).pb is not None
    assert comparison_for(runs, me).table([]).comparison == "20260101-000001-frth"
    from_state = me.model_copy(update={"start": RunStart(kind="state", state_sha256="3" * 64)})
    assert comparison_for(runs, from_state).table([]).comparison == "20260101-000003-ontw"


def test_milestones_the_start_had_are_listed_apart_never_compared(tmp_path: Path) -> None:
    start = RunStart(kind="state", state_sha256="4" * 64, state_name="pewter.state").model_dump(mode="json")
    had = [split("leave_house", 0, at_start=True), split("reach_pewter", 0, at_start=True)]
    keep_run(tmp_path, "20260101-000000-aaaa", [*had, split("beat_brock", 9000)], start=start)
    # A faster earlier run's at-start entries must not turn into segments or a personal best's splits.
    keep_run(tmp_path, "20260102-000000-bbbb", [*had, split("beat_brock", 8000)], start=start)
    table = tables(tmp_path, ["20260102-000000-bbbb"])["20260102-000000-bbbb"]
    assert [row.name for row in table.rows] == ["beat_brock"]
    assert table.rows[0].segment_frames == 8000 and table.rows[0].delta_frames == -1000
    assert table.rows[0].gold and table.rows[0].best_segment_frames == 9000
    assert table.at_start == (TITLES["leave_house"], TITLES["reach_pewter"])
    assert table.sum_of_best_frames == 8000 and not table.ahead


def test_a_corrupt_or_partial_summary_is_skipped_with_one_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    three_runs(tmp_path)
    torn = tmp_path / "runs" / "20260102-120000-torn"
    torn.mkdir()
    (torn / "summary.json").write_text('{"run_id": "20260102-120000-torn", "milestones": [{"na', "utf-8")
    odd = tmp_path / "runs" / "20260102-130000-odds"
    odd.mkdir()
    (odd / "summary.json").write_text(json.dumps({"milestones": [{"name": "leave_house"}]}), "utf-8")
    (tmp_path / "runs" / "20260102-140000-live").mkdir()  # still playing: no summary, and no word about it
    with caplog.at_level(logging.WARNING, logger="engine.run"):
        runs = read_runs(tmp_path)
    assert [run.run_id for run in runs] == ["20260101-000000-aaaa", "20260102-000000-bbbb",
                                            "20260103-000000-cccc"]  # fmt: skip
    lines = [record.getMessage() for record in caplog.records]
    assert len(lines) == 2, lines
    assert "20260102-120000-torn" in lines[0] and "not JSON" in lines[0]
    assert "20260102-130000-odds" in lines[1] and "milestones.0" in lines[1]
    assert tables(tmp_path, ["20260103-000000-cccc"])["20260103-000000-cccc"].comparable_runs == 2


def test_the_sum_of_best_takes_the_fastest_chain_across_routes() -> None:
    # One run took the Town Map between the parcel and the balls, another went straight on.
    best = {("(start)", "deliver_parcel"): 100, ("deliver_parcel", "town_map"): 30,
            ("town_map", "buy_poke_balls"): 30, ("deliver_parcel", "buy_poke_balls"): 80,
            ("buy_poke_balls", "reach_pewter"): 500}  # fmt: skip
    assert sum_of_best(best, "reach_pewter") == 100 + 30 + 30 + 500
    assert sum_of_best(best, "beat_brock") is None  # no segment leads there


def test_the_segment_under_way_while_the_run_plays() -> None:
    frames = (("leave_house", 1000), ("meet_oak", 2000), ("get_starter", 5000))
    own = tuple(Split.model_validate(split(name, frame)) for name, frame in frames)
    pb = RunSplits(run_id="r1", rom_sha256=RED, start=RunStart.power_on(), splits=own)
    comparison = SplitComparison(RunStart.power_on(), [pb])
    mine = [Split.model_validate(split("leave_house", 1200))]
    running = comparison.table(mine, now=1900).running
    assert running is not None and running.name == "meet_oak" and running.segment_frames == 700
    assert running.delta_frames is None  # not behind the PB's split yet
    later = comparison.table(mine, now=2300, heading=("get_starter", "get a starter")).running
    assert later is not None and later.name == "get_starter"  # the objective pursued, which the PB reached
    assert comparison.table(mine, now=2300).running.delta_frames == 300  # type: ignore[union-attr]
    assert [ahead.name for ahead in comparison.table(mine).ahead] == ["meet_oak", "get_starter"]
    assert comparison.table(mine).running is None  # a finished run has no segment under way
    alone = SplitComparison(RunStart.power_on(), []).table([], now=50, heading=("leave_house", "leave"))
    assert alone.running is not None and (alone.running.name, alone.running.frame) == ("leave_house", 50)


def test_a_state_in_a_battle_has_its_milestones_at_the_start() -> None:
    battle = decode_state(load_capture(GEN1_FIXTURES / "red_brock_main_menu"), RED_BLUE).battle
    after = decode_state(load_capture(GEN1_FIXTURES / "red_wild_post_battle_overworld"), RED_BLUE)
    in_battle = after.model_copy(update={"battle": battle})  # a state with a story, saved in a battle
    assert battle is not None
    milestones = Milestones(story_graph())
    first = milestones.check(in_battle, 0, 0, 0.0)
    assert first and all(split.at_start for split in first)  # not the run's own once the battle ends
    assert milestones.check(in_battle, 500, 1, 1.0) == []  # later in a battle: nothing recorded


def test_the_timer_words() -> None:
    minute = round(60 * GAME_FPS)
    assert clock(0) == "0:00:00" and clock(minute) == "0:01:00" and clock(95916) == "0:26:45"
    assert clock(3600 * minute // 60 + minute * 61) == "2:01:00"
    assert delta_words(0) == "0.0" and delta_words(-round(12.3 * GAME_FPS)) == "-12.3"
    assert delta_words(round(62.5 * GAME_FPS)) == "+1:02.5"
    assert delta_words(round(3725 * GAME_FPS)) == "+1:02:05.0"


def test_engine_stats_splits_prints_the_table_against_the_personal_best(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    three_runs(tmp_path)
    assert main(["stats", "--data-dir", str(tmp_path), "--splits"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "run 20260103-000000-cccc (red, until)"
    assert lines[1] == ("  splits from power-on (game clock) against the personal best 20260102-000000-bbbb "
                        "(get_starter at 0:01:20; 2 earlier runs)")  # fmt: skip
    assert lines[2].split() == ["#", "milestone", "game", "time", "segment", "+/-", "wall"]
    assert lines[3].split() == ["1", "leave_house", "0:00:15", "0:00:15", "+0.8", "1.6s"]
    assert lines[4].split() == ["2", "meet_oak", "0:00:31", "0:00:15", "-5.0*", "3.2s"]
    assert lines[5].split() == ["3", "get_starter", "0:01:18", "0:00:46", "-1.7", "7.8s"]
    assert lines[6] == "  sum of best 0:01:14 to get_starter; * a gold segment"
    assert main(["stats", "--data-dir", str(tmp_path), "--splits", "--json"]) == 0
    table = json.loads(capsys.readouterr().out)["runs"][0]["splits"]
    assert [row["gold"] for row in table["rows"]] == [False, True, False]
    # The whole stats text shows the same table in place of the one-line milestones.
    assert main(["stats", "--data-dir", str(tmp_path)]) == 0
    words = capsys.readouterr().out
    assert "sum of best 0:01:14 to get_starter" in words and "  milestones: " not in words
    assert main(["stats", "--data-dir", str(tmp_path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["runs"][0]["splits"]["comparison"] == "20260102-000000-bbbb"
