"""`engine stats`: numbers counted from a run's files (rollbacks respected), learning velocity, the totals
across runs, and the PNG charts `--plot` draws."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import pytest

from engine.battles.models import BattleLog, BattleSummary
from engine.cli import main
from engine.errors import UserInputError
from engine.runtime.plots import write_charts
from engine.runtime.stats import BattlePoint, StatsError, learning_velocity, rolling_win_rate, run_stats
from engine.runtime.stats_report import as_json, gather, runs_in

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def battle(run: Path, number: int, outcome: str, kind: str = "wild", stored: int = 0) -> str:
    battle_id = f"{run.name}-b{number:03d}"
    summary = BattleSummary(battle_id=battle_id, outcome=outcome, battle_type=kind, opponent="RATTATA",  # type: ignore[arg-type]
                            turns=2, decisions=2, frames=600, wall_seconds=0.5)  # fmt: skip
    (run / "battles").mkdir(parents=True, exist_ok=True)
    log = BattleLog(summary=summary, run_id=run.name, start_frame=100 * number, decisions=())
    (run / "battles" / f"{battle_id}.json").write_text(log.model_dump_json())
    (run / "reflections").mkdir(exist_ok=True)
    report = {"battle_id": battle_id, "stored": [f"lesson-{i}" for i in range(stored)]}
    (run / "reflections" / f"{battle_id}.json").write_text(json.dumps(report))
    return battle_id


def decision(seq: int, seconds: float, battle_id: str | None = None, tier: str = "rule_based",
             lessons: int = 0) -> dict[str, object]:  # fmt: skip
    kind = "battle" if battle_id else "overworld"
    entry: dict[str, object] = {"seq": seq, "kind": kind, "point": "p", "action": "a", "reason": "r",
                                "frame": 1000 * seq, "seconds": seconds}  # fmt: skip
    if battle_id:
        entry |= {"battle_id": battle_id, "lessons": lessons, "model": {"tier": tier, "cost_usd": 0.0}}
    return entry


def a_run(data: Path, run_id: str = "20261124-100000-aaaa") -> Path:
    """Two battles (won, lost), four decisions of which one was undone by a rollback, two model calls."""
    run = data / "runs" / run_id
    won = battle(run, 1, "victory", stored=2)
    lost = battle(run, 2, "defeat", kind="trainer", stored=1)
    lines = [json.dumps(decision(1, 1.0)), json.dumps(decision(2, 2.0, won, tier="acting", lessons=3))]
    undone_at = sum(len(line) + 1 for line in lines)
    lines += [json.dumps(decision(3, 2.5, lost, tier="thinking")),
              json.dumps({"kind": "rollback", "after_offset": undone_at}),
              json.dumps(decision(3, 3.0, lost, lessons=4))]  # fmt: skip
    (run / "decisions.jsonl").write_text("\n".join(lines) + "\n")
    calls = [{"event": "call", "at": "2026-11-24T10:00:30+00:00", "cost_usd": 0.01},
             {"event": "validation", "at": "2026-11-24T10:00:31+00:00"},
             {"event": "call", "at": "2026-11-24T10:01:00+00:00", "cost_usd": 0.02}]  # fmt: skip
    (run / "llm.jsonl").write_text("".join(json.dumps(call) + "\n" for call in calls))
    summary = {"run_id": run_id, "game": "red", "stopped": "until", "wall_seconds": 120.0, "frames": 60000,
               "llm": {"calls": 2, "tokens_in": 900, "tokens_out": 100, "cost_usd": 0.03, "fallbacks": 1,
                       "step_downs": 2},
               "milestones": [{"number": 1, "name": "leave_house", "title": "leave the house", "seconds": 0.7,
                               "decision": 1, "frame": 1, "at_start": False},
                              {"number": 2, "name": "meet_oak", "title": "meet Oak", "seconds": 0.0,
                               "decision": 0, "frame": 0, "at_start": True}]}  # fmt: skip
    (run / "summary.json").write_text(json.dumps(summary))
    return run


def test_a_runs_numbers_come_from_its_files_and_a_rollback_undoes_decisions(tmp_path: Path) -> None:
    stats = run_stats(a_run(tmp_path))
    assert stats.decisions == 3  # the undone decision 3 is not counted
    assert stats.tiers == {"rule_based": 2, "acting": 1}
    assert {kind: (r.won, r.lost) for kind, r in stats.battles.items()} == {"trainer": (0, 1), "wild": (1, 0)}
    assert (stats.lessons_stored, stats.lessons_recalled) == (3, 7)
    assert [split.name for split in stats.milestones] == ["leave_house"]  # reached before the start: no split
    rates = stats.rates()
    assert rates["decisions_per_minute"] == 1.5 and rates["frames_per_second"] == 500.0
    assert rates["cost_usd_per_hour"] == 0.9 and rates["cost_usd_per_battle"] == 0.015
    assert [(p.seconds, p.cost_usd) for p in stats.cost_line] == [(30.0, 0.01), (60.0, 0.03)]


def test_a_run_still_playing_is_counted_from_its_decisions(tmp_path: Path) -> None:
    run = a_run(tmp_path)
    (run / "summary.json").unlink()
    stats = run_stats(run)
    assert (stats.stopped, stats.wall_seconds, stats.frames) == ("unfinished", 3.0, 3000)


def test_learning_velocity_compares_the_last_window_with_the_one_before() -> None:
    def point(outcome: str, kind: str = "wild") -> BattlePoint:
        return BattlePoint(run_id="r", battle_id="b", battle_type=kind, outcome=outcome, seconds=0.0,
                           lessons_recalled=0, lessons_stored=0)  # fmt: skip

    early = [point("defeat")] * 6 + [point("victory")] * 4
    late = [point("victory")] * 9 + [point("defeat")]
    timeline = (*early, point("victory", "trainer"), *late)
    assert learning_velocity(timeline, window=10) == {"trainer": None, "wild": 50.0}
    assert rolling_win_rate(tuple(late[:4]), window=2) == [1.0, 1.0, 1.0, 1.0]
    assert rolling_win_rate((point("defeat"), point("victory")), window=10) == [0.0, 0.5]


def test_totals_across_runs_and_their_milestone_splits(tmp_path: Path) -> None:
    a_run(tmp_path, "20261124-100000-aaaa")
    second = a_run(tmp_path, "20261124-110000-bbbb")
    summary = json.loads((second / "summary.json").read_text())
    summary["milestones"][0]["seconds"] = 1.5
    (second / "summary.json").write_text(json.dumps(summary))
    (tmp_path / "runs" / "empty").mkdir()  # nothing to count: skipped, not fatal
    report = as_json(gather(runs_in(tmp_path)))
    total = report["overall"]
    assert total["runs"] == 2 and total["decisions"] == 6 and total["cost_usd"] == 0.06
    assert total["battles"]["wild"] == {"won": 2, "lost": 0, "other": 0, "win_rate": 1.0}
    assert total["milestone_splits"] == [{"number": 1, "name": "leave_house", "title": "leave the house",
                                          "runs": 2, "median_seconds": 1.1, "best_seconds": 0.7}]  # fmt: skip


def test_nothing_to_count_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(UserInputError, match="no runs under"):
        runs_in(tmp_path)
    (tmp_path / "runs" / "r").mkdir(parents=True)
    with pytest.raises(StatsError, match="no run with"):
        gather(runs_in(tmp_path))


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == PNG_SIGNATURE
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_stats_command_prints_json_and_draws_the_charts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a_run(tmp_path)
    plots = tmp_path / "plots"
    assert main(["stats", "--data-dir", str(tmp_path), "--all", "--json", "--plot", str(plots)]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["runs"][0]["decisions"] == 3
    names = sorted(path.name for path in plots.iterdir())
    assert names == ["cost.png", "lessons.png", "milestones.png", "win_rate.png"]
    assert all(png_size(plots / name) == (800, 450) for name in names)
    assert err.count("chart written") == 4


def test_stats_in_words_name_the_run_and_its_battles(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a_run(tmp_path)
    assert main(["stats", "--data-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "run 20261124-100000-aaaa (red, until, harness engine)" in out
    assert "trainer 0 won / 1 lost / 0 other (0% won), wild 1 won / 0 lost / 0 other (100% won)" in out
    assert "3 stored, 7 recalled" in out


def test_milestones_past_the_benchmarks_twelve_come_after_them(tmp_path: Path) -> None:
    run = a_run(tmp_path)
    summary = json.loads((run / "summary.json").read_text())
    summary["milestones"] = [
        {"number": 12, "name": "beat_brock", "title": "beat Brock", "seconds": 9.9, "decision": 90},
        {"number": 0, "name": "beat_misty", "title": "beat Misty", "seconds": 40.0, "decision": 300},
    ]  # fmt: skip
    (run / "summary.json").write_text(json.dumps(summary))
    splits = as_json(gather(runs_in(tmp_path)))["overall"]["milestone_splits"]
    assert [row["name"] for row in splits] == ["beat_brock", "beat_misty"]
    assert [split.order for split in run_stats(run).milestones] == [1, 2]


def test_a_split_edited_by_hand_is_skipped_and_an_unwritable_plot_folder_is_one_line(tmp_path: Path) -> None:
    run = a_run(tmp_path)
    summary = json.loads((run / "summary.json").read_text())
    summary["milestones"].insert(0, {"name": "half a split"})
    (run / "summary.json").write_text(json.dumps(summary))
    assert [split.name for split in run_stats(run).milestones] == ["leave_house"]
    (tmp_path / "taken").write_text("a file, not a folder")
    with pytest.raises(UserInputError, match="--plot"):
        write_charts([run_stats(run)], tmp_path / "taken")


def test_stats_name_a_harness_level_and_its_fallbacks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = a_run(tmp_path)
    summary = json.loads((run / "summary.json").read_text())
    (run / "summary.json").write_text(json.dumps({**summary, "harness": "buttons", "harness_fallbacks": 3}))
    assert main(["stats", "--data-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "(red, until, harness buttons)" in out and "harness buttons: 3 no-op steps" in out
