"""decisions.jsonl after rollbacks and kills: nothing deleted, undone decisions marked, torn lines closed."""

from __future__ import annotations

import json
from pathlib import Path

from engine.files import append_json_line
from engine.runtime.decision_log import close_torn_line, lines_after, log_size, read_decisions


def write_decisions(path: Path, seqs: range) -> None:
    for seq in seqs:
        append_json_line(path, {"seq": seq, "kind": "battle", "action": f"use move {seq}"})


def test_a_rollback_marks_only_the_decisions_after_its_checkpoint(tmp_path: Path) -> None:
    path = tmp_path / "decisions.jsonl"
    write_decisions(path, range(1, 4))
    checkpoint_offset = log_size(path)
    write_decisions(path, range(4, 7))
    assert [entry["seq"] for entry in lines_after(path, checkpoint_offset)] == [4, 5, 6]
    append_json_line(path, {"kind": "rollback", "after_offset": checkpoint_offset, "decisions": 3})
    write_decisions(path, range(4, 6))
    entries = read_decisions(path)
    assert [(entry.get("seq"), bool(entry.get("rolled_back"))) for entry in entries] == [
        (1, False), (2, False), (3, False), (4, True), (5, True), (6, True), (None, False), (4, False),
        (5, False),
    ]  # fmt: skip
    assert len(path.read_text(encoding="utf-8").splitlines()) == 9  # nothing was deleted


def test_a_second_rollback_to_an_earlier_checkpoint_marks_the_redone_decisions_too(tmp_path: Path) -> None:
    path = tmp_path / "decisions.jsonl"
    write_decisions(path, range(1, 3))
    early = log_size(path)
    write_decisions(path, range(3, 5))
    append_json_line(path, {"kind": "rollback", "after_offset": log_size(path)})
    write_decisions(path, range(5, 6))
    append_json_line(path, {"kind": "resume", "after_offset": early})
    live = [entry["seq"] for entry in read_decisions(path) if "seq" in entry and not entry.get("rolled_back")]
    assert live == [1, 2]


def test_a_line_torn_by_a_kill_is_closed_and_skipped(tmp_path: Path) -> None:
    path = tmp_path / "decisions.jsonl"
    write_decisions(path, range(1, 3))
    with path.open("a", encoding="utf-8") as handle:
        handle.write('{"seq": 3, "kind": "bat')  # the process died here
    assert close_torn_line(path) is True
    assert close_torn_line(path) is False  # already closed: nothing added twice
    append_json_line(path, {"seq": 3, "kind": "battle"})
    assert [entry["seq"] for entry in read_decisions(path)] == [1, 2, 3]
    assert json.loads(path.read_text(encoding="utf-8").splitlines()[-1]) == {"seq": 3, "kind": "battle"}


def test_no_log_yet(tmp_path: Path) -> None:
    path = tmp_path / "decisions.jsonl"
    assert (log_size(path), close_torn_line(path), lines_after(path, 0), read_decisions(path)) == (
        0, False, [], [],
    )  # fmt: skip
