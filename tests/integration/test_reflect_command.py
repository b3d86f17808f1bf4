"""`engine reflect --battle ID` standalone: every phase on a stored log, lessons into the real memory."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.cli import main
from tests.unit.test_reflection_role import brock_defeat, stored_log


def test_reflect_stores_lessons_and_reports_them(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log_path = stored_log(tmp_path)
    data_dir = log_path.parent.parent.parent.parent
    battle_id = brock_defeat().summary.battle_id
    args = ["reflect", "--battle", battle_id, "--data-dir", str(data_dir), "--json"]
    assert main(args) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["battle_id"] == battle_id and report["failure"]["kind"] == "defeat"
    assert report["memory"] == "stored" and len(report["stored"]) == len(report["accepted"]) > 0
    assert main(["lessons", "list", "--data-dir", str(data_dir), "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)["lessons"]
    assert {lesson["lesson_id"] for lesson in listed} == set(report["stored"])
    # Text mode, and again: the same lessons merge (more evidence), nothing is duplicated.
    assert main(args[:-1]) == 0
    out = capsys.readouterr().out
    assert "failure: defeat" in out and f"accepted {len(report['accepted'])}:" in out
    assert main(["lessons", "list", "--data-dir", str(data_dir), "--json"]) == 0
    again = json.loads(capsys.readouterr().out)["lessons"]
    assert len(again) == len(listed) and all(lesson["evidence"] == 2 for lesson in again)


def test_an_unknown_battle_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    stored_log(tmp_path)
    data_dir = next(tmp_path.rglob("runs")).parent
    assert main(["reflect", "--battle", "nope-b001", "--data-dir", str(data_dir)]) == 2
    assert "no battle log nope-b001.json" in capsys.readouterr().err
