"""The learning benchmarks' pure parts: which of a run's checkpoints each stretch of benchmarks/stretches.py
starts from, the report of B against A with its sign test, and benchmarks.speedrun's second runs (--again)
beside their first."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.speedrun import print_pairs
from benchmarks.stretches import _sign_test, report, starts


def kept_run(data: Path, milestones: list[tuple[str, int]], checkpoints: list[tuple[str, int]]) -> None:
    """A power-on run's summary and its checkpoints' manifests, as far as `starts` reads them."""
    run = data / "runs" / "r1"
    run.mkdir(parents=True)
    splits = [{"name": name, "frame": frame, "at_start": False} for name, frame in milestones]
    (run / "summary.json").write_text(json.dumps({"run_id": "r1", "milestones": splits}))
    for seq, (reason, frames) in enumerate(checkpoints, 1):
        folder = data / "checkpoints" / "r1" / f"{seq:06d}-{reason}"
        folder.mkdir(parents=True)
        (folder / "manifest.json").write_text(json.dumps({"reason": reason, "frames": frames}))


def test_a_stretch_starts_at_the_first_battle_end_after_the_milestone_before_it(tmp_path: Path) -> None:
    kept_run(
        tmp_path,
        [("beat_misty", 100), ("get_hm01", 200), ("beat_lt_surge", 300), ("beat_erika", 400)],
        [("battle_end", 150), ("battle_start", 210), ("battle_end", 220), ("battle_end", 250), ("stop", 310),
         ("battle_end", 500)],
    )  # fmt: skip
    found = starts(tmp_path, ("beat_lt_surge", "beat_erika", "beat_koga", "beat_misty"))
    names = [(target, state.parent.name) for target, state in found]
    # Surge: after HM01 (200), its first battle end (220); Erika: none between 300 and 400; Koga never
    # reached; Misty is the run's first milestone: nothing before it to start from.
    assert names == [("beat_lt_surge", "000003-battle_end")]
    assert found[0][1].name == "emulator.state"


def test_without_a_kept_checkpoint_a_stretch_starts_at_the_first_battle_after_the_milestone(
    tmp_path: Path,
) -> None:
    kept_run(tmp_path, [("beat_misty", 100), ("get_hm01", 200), ("beat_lt_surge", 300)], [("stop", 310)])
    battles = tmp_path / "runs" / "r1" / "battles"
    battles.mkdir()
    for number, start in ((1, 150), (2, 230), (3, 260)):
        (battles / f"r1-b{number:03d}.json").write_text(json.dumps({"start_frame": start}))
        (battles / f"r1-b{number:03d}.state").write_bytes(b"state")
    found = starts(tmp_path, ("beat_lt_surge",))
    assert found == [("beat_lt_surge", battles / "r1-b002.state")]  # the first battle after HM01 (200)
    (battles / "r1-b002.state").unlink()  # a record without its state is passed over
    assert starts(tmp_path, ("beat_lt_surge",)) == [("beat_lt_surge", battles / "r1-b003.state")]


def test_the_hall_of_fames_stretch_is_the_whole_gauntlet_from_the_lobby(tmp_path: Path) -> None:
    gauntlet = [("cross_victory_road", 100), ("beat_lorelei", 200), ("beat_champion", 400),
                ("enter_hall_of_fame", 400)]  # fmt: skip
    kept_run(tmp_path, gauntlet, [("battle_end", 150), ("battle_end", 250)])
    found = starts(tmp_path, ("enter_hall_of_fame",))
    assert [(target, state.parent.name) for target, state in found] == [
        ("enter_hall_of_fame", "000001-battle_end")
    ]
    battles = tmp_path / "runs" / "r1" / "battles"
    battles.mkdir()
    (battles / "r1-b001.json").write_text(json.dumps({"start_frame": 120}))
    (battles / "r1-b001.state").write_bytes(b"state")
    # A run that kept only its newest checkpoints: the first battle comes before the first one kept.
    assert starts(tmp_path, ("enter_hall_of_fame",)) == [("enter_hall_of_fame", battles / "r1-b001.state")]


def test_the_report_counts_b_against_a_per_state(capsys: pytest.CaptureFixture[str]) -> None:
    rows: list[dict[str, object]] = []
    for name, a, b in (("s1", (1000, 1), (700, 0)), ("s2", (1000, 0), (1100, 0)), ("s3", (500, 0), (500, 0))):
        rows.append(
            {"stretch": name, "side": "A", "frames": a[0], "defeats": a[1], "reached": True, "wall_s": 1}
        )
        rows.append(
            {"stretch": name, "side": "B", "frames": b[0], "defeats": b[1], "reached": True, "wall_s": 1}
        )
    report(rows)
    out = capsys.readouterr().out
    assert "| s1 | 1,000 | 700 | 0.70 | 1 | 0 |" in out
    assert "3 states: B at least 20% fewer frames or fewer defeats on 1; B worse than A" in out
    assert "on 1" in out.split("B worse")[1]  # s2 took more frames
    assert "B fewer on 1, more on 1" in out


def test_the_sign_test_is_two_sided_and_exact() -> None:
    assert _sign_test(0, 0) == 1.0
    assert _sign_test(5, 0) == pytest.approx(2 / 32)
    assert _sign_test(8, 2) == pytest.approx(2 * (1 + 10 + 45) / 1024)
    assert _sign_test(3, 3) == 1.0


def test_a_second_run_with_the_first_runs_memory_is_shown_beside_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    first = {"game": "red", "seed": 7, "frames": 1_000_000, "defeats": 3, "e4_entries": 2, "wall_s": 900}
    again = first | {"frames": 900_000, "defeats": 1, "e4_entries": 1, "wall_s": 800, "again": True}
    lonely = {"game": "blue", "seed": 8, "frames": 5, "again": True}  # its first run is missing: not shown
    print_pairs([first, again, lonely])
    out = capsys.readouterr().out
    assert "| red | 7 | 1,000,000 / 900,000 | 0.90 | 3 / 1 | 2 / 1 | 900 / 800 |" in out
    assert "| blue |" not in out
