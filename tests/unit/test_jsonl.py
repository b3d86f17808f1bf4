"""The shared JSON Lines reader over damaged files, and decisions.jsonl read through it: a bad line costs
that line (counted), never the file, and byte offsets stay those of the file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.files import append_json_line
from engine.jsonl import parse_object, read_objects, skipped_note
from engine.runtime.decision_log import lines_after, log_size, read_decisions

DEEP = b"[" * 100_000 + b"]" * 100_000
DEEP_OBJECT = b'{"a":' * 100_000 + b"1" + b"}" * 100_000
NOT_OBJECTS = (b"[1,2]", b'"x"', b"3", b"null", b"true")


def write_lines(path: Path, *lines: bytes, end: bytes = b"\n") -> None:
    path.write_bytes(b"\n".join(lines) + end)


def test_a_last_line_torn_inside_a_multi_byte_character_is_skipped(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    first = '{"player": "ÉVOLI"}\n'.encode()
    torn = '{"player": "É'.encode()[:-1]  # the first byte of "É" only: not UTF-8
    path.write_bytes(first + b'{"n": 2}\n' + torn)
    found = read_objects(path)
    assert found.entries == [{"player": "ÉVOLI"}, {"n": 2}]
    assert [line.offset for line in found.lines] == [0, len(first)]  # bytes, not characters
    assert found.skipped == 1


def test_bad_utf8_mid_file_costs_one_line_not_the_rest(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    write_lines(path, b'{"n": 1}', b'{"n": "\xff\xfe"}', b'{"n": 3}')
    found = read_objects(path)
    assert (found.entries, found.skipped) == ([{"n": 1}, {"n": 3}], 1)


def test_lines_that_are_json_but_not_objects_are_skipped(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    write_lines(path, *NOT_OBJECTS, b'{"n": 1}')
    found = read_objects(path)
    assert (found.entries, found.skipped) == ([{"n": 1}], len(NOT_OBJECTS))


@pytest.mark.parametrize("deep", [DEEP, DEEP_OBJECT], ids=["list", "object"])
def test_nesting_100000_deep_is_a_skipped_line_not_a_recursion_error(tmp_path: Path, deep: bytes) -> None:
    path = tmp_path / "log.jsonl"
    write_lines(path, b'{"n": 1}', deep, b'{"n": 2}')
    found = read_objects(path)
    assert (found.entries, found.skipped) == ([{"n": 1}, {"n": 2}], 1)
    assert found.lines[1].offset == len(b'{"n": 1}\n') + len(deep) + 1


def test_a_line_too_big_for_memory_is_skipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real_loads = json.loads

    def loads(text: str) -> object:
        if "huge" in text:
            raise MemoryError
        return real_loads(text)

    monkeypatch.setattr(json, "loads", loads)
    assert parse_object(b'{"huge": 1}') is None
    assert parse_object(b'{"n": 1}') == {"n": 1}


def test_numbers_too_long_to_convert_are_skipped() -> None:
    assert parse_object(b'{"n": ' + b"9" * 10_000 + b"}") is None


def test_an_empty_or_missing_file_reads_as_nothing(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    for found in (read_objects(path), read_objects(tmp_path)):  # missing; a folder, not a file
        assert (found.lines, found.skipped) == ((), 0)
    path.write_bytes(b"")
    assert (read_objects(path).lines, read_objects(path).skipped) == ((), 0)
    path.write_bytes(b"\n  \n\r\n")  # blank lines hold no entry: nothing is lost
    assert (read_objects(path).lines, read_objects(path).skipped) == ((), 0)


def test_a_file_of_only_bad_lines_reads_as_none_and_counts_them(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    write_lines(path, b"[1,2]", DEEP, b'{"torn', end=b"")
    found = read_objects(path)
    assert (found.lines, found.skipped) == ((), 3)
    assert skipped_note(found.skipped) == "3 unreadable lines skipped"
    assert skipped_note(1) == "1 unreadable line skipped"


def test_start_and_last_keep_file_offsets(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    lines = [json.dumps({"n": n, "text": "é" * n}, ensure_ascii=False).encode() for n in range(5)]
    write_lines(path, *lines)
    offsets = [sum(len(line) + 1 for line in lines[:n]) for n in range(5)]
    assert [line.offset for line in read_objects(path).lines] == offsets
    tail = read_objects(path, start=offsets[2])
    assert [(line.offset, line.entry["n"]) for line in tail.lines] == [(offsets[n], n) for n in (2, 3, 4)]
    newest = read_objects(path, last=2)
    assert [line.entry["n"] for line in newest.lines] == [3, 4]


def test_a_carriage_return_does_not_end_a_line(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    path.write_bytes(b'{"n":\r1}\r\n{"n": 2}\n')
    assert read_objects(path).entries == [{"n": 1}, {"n": 2}]


def test_the_decision_log_survives_damage_and_keeps_its_offsets(tmp_path: Path) -> None:
    path = tmp_path / "decisions.jsonl"
    append_json_line(path, {"seq": 1, "kind": "battle"})
    checkpoint = log_size(path)
    append_json_line(path, {"seq": 2, "kind": "battle", "note": "ÉVOLI"})
    with path.open("ab") as handle:
        handle.write(DEEP + b"\n" + b"[3]\n" + '{"seq": 9, "note": "É'.encode()[:-1] + b"\n")
    append_json_line(path, {"seq": 3, "kind": "battle"})
    assert [entry["seq"] for entry in lines_after(path, checkpoint)] == [2, 3]
    append_json_line(path, {"kind": "rollback", "after_offset": checkpoint})
    marked = [(entry.get("seq"), bool(entry.get("rolled_back"))) for entry in read_decisions(path)]
    assert marked == [(1, False), (2, True), (3, True), (None, False)]


def test_a_restart_line_with_a_wrong_offset_undoes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "decisions.jsonl"
    append_json_line(path, {"seq": 1, "kind": "battle"})
    for after in ("x", None, True, [0]):
        append_json_line(path, {"kind": "rollback", "after_offset": after})
    assert not any(entry.get("rolled_back") for entry in read_decisions(path))
