"""`engine llm-log` over a real call log, the redactor, and the screenshot encoder."""

from __future__ import annotations

import errno
import io
import json
import os
import struct
import zlib
from pathlib import Path

import numpy as np
import pytest

from engine.cli import main
from engine.emulator.png import encode_png
from engine.llm import logview
from engine.llm.calllog import CallLog, Redactor
from engine.llm.logview import render_entry, show_llm_log

KEY = "sk-ant-api03-abcdefghijklmnop"


def call_entry(n: int, error: str | None = None) -> dict[str, object]:
    return {
        "event": "call", "role": "tactician", "tier": "acting", "provider": "anthropic", "model": "m",
        "attempt": "answer", "messages": [{"role": "user", "text": f"prompt {n} " + "x" * 300, "images": 0}],
        "response": None if error else f'{{"action_id": {n}}}', "tokens_in": 100 + n, "tokens_out": 9,
        "cost_usd": 0.00012, "latency_s": 0.5, "breaker": "closed", "error": error, "battle_id": "r-b001",
    }  # fmt: skip


def make_run(tmp_path: Path, run_id: str, entries: int) -> Path:
    log = CallLog(tmp_path / "runs" / run_id / "llm.jsonl", [KEY])
    for n in range(entries):
        log.write(call_entry(n, error="TransientModelError: 429" if n == 1 else None))
    log.write({"event": "validation", "role": "tactician", "tier": "acting", "attempt": "answer",
               "validation": "ok"})  # fmt: skip
    return tmp_path / "runs" / run_id / "llm.jsonl"


def test_the_newest_run_is_shown_by_default(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    make_run(tmp_path, "20261122-100000-aaaa", 2)
    make_run(tmp_path, "20261122-110000-bbbb", 4)
    assert main(["llm-log", "--data-dir", str(tmp_path), "-n", "3"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("run 20261122-110000-bbbb: the last 3 entries")
    assert "#3 " in out and "#2 " not in out
    assert "anthropic:m answer 103+9 tokens $0.00012 0.50 s breaker closed battle r-b001" in out
    assert "answer: ok" in out and "…" in out  # previews are cut


def test_errors_full_text_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    make_run(tmp_path, "20261122-100000-aaaa", 3)
    main(["llm-log", "--data-dir", str(tmp_path), "--run", "20261122-100000-aaaa", "--full"])
    out = capsys.readouterr().out
    assert "error:  TransientModelError: 429" in out and "x" * 300 in out
    main(["llm-log", "--data-dir", str(tmp_path), "--json", "-n", "1"])
    (line,) = capsys.readouterr().out.splitlines()
    assert json.loads(line)["validation"] == "ok"


def test_a_torn_last_line_is_skipped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = make_run(tmp_path, "20261122-100000-aaaa", 2)
    with path.open("a", encoding="utf-8") as handle:
        handle.write('{"seq": 99, "event": "ca')
    assert main(["llm-log", "--data-dir", str(tmp_path)]) == 0
    assert "#99" not in capsys.readouterr().out


DEEP = b"[" * 100_000 + b"]" * 100_000
NOT_OBJECTS = (b"[1,2]", b'"x"', b"3")


def append_bytes(path: Path, data: bytes) -> None:
    with path.open("ab") as handle:
        handle.write(data)


def run_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str], *more: str) -> tuple[str, str]:
    assert main(["llm-log", "--data-dir", str(tmp_path), *more]) == 0
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return out, err


def test_a_last_line_torn_inside_a_multi_byte_character_is_counted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = make_run(tmp_path, "20261122-100000-aaaa", 2)
    append_bytes(path, '{"seq": 99, "messages": [{"text": "ÉVOLI'.encode()[:-4])  # cut inside "É"
    out, _ = run_cli(tmp_path, capsys)
    assert "the last 3 entries" in out and "(1 unreadable line skipped)" in out and "#99" not in out


def test_lines_that_are_not_objects_are_skipped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = make_run(tmp_path, "20261122-100000-aaaa", 1)
    append_bytes(path, b"\n".join(NOT_OBJECTS) + b"\n")
    out = io.StringIO()
    assert show_llm_log(tmp_path, None, 20, False, False, out) == 0
    assert "the last 2 entries" in out.getvalue() and "(3 unreadable lines skipped)" in out.getvalue()
    run_cli(tmp_path, capsys)


def test_nesting_100000_deep_is_skipped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = make_run(tmp_path, "20261122-100000-aaaa", 1)
    append_bytes(path, DEEP + b"\n" + b'{"a":' * 100_000 + b"1" + b"}" * 100_000 + b"\n")
    out, _ = run_cli(tmp_path, capsys)
    assert "the last 2 entries" in out and "(2 unreadable lines skipped)" in out


def test_json_output_stays_json_and_the_count_goes_to_stderr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = make_run(tmp_path, "20261122-100000-aaaa", 2)
    append_bytes(path, DEEP + b"\n[1,2]\n")
    out, err = run_cli(tmp_path, capsys, "--json")
    assert [json.loads(line)["seq"] for line in out.splitlines()] == [1, 2, 3]
    assert err.strip().endswith("llm.jsonl: 2 unreadable lines skipped")


WRONG_TYPES: dict[str, object] = {
    "seq": [1], "at": 7, "role": {"x": 1}, "tokens_in": "many", "tokens_out": None, "cost_usd": "x",
    "latency_s": True, "messages": 5, "response": 42, "battle_id": ["r"],
}  # fmt: skip


@pytest.mark.parametrize(
    ("fields", "shown"),
    [
        (WRONG_TYPES, ["#? ? ? acting", "?+? tokens $? ? s breaker closed", "prompt: -", "answer: ?"]),
        ({"messages": [3]}, ["prompt: -"]),
        ({"messages": "text"}, ["prompt: -"]),
        ({"messages": [{"text": ["not", "text"]}]}, ["prompt: ?"]),
        ({"error": {"code": 429}}, ["error:  ?"]),
    ],
    ids=["many", "message-not-object", "messages-not-list", "text-not-string", "error-object"],
)
def test_fields_of_the_wrong_type_are_shown_as_a_question_mark(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], fields: dict[str, object], shown: list[str]
) -> None:
    text = render_entry({**call_entry(1), **fields})
    for part in shown:
        assert part in text
    path = make_run(tmp_path, "20261122-100000-aaaa", 0)
    append_bytes(path, (json.dumps({**call_entry(1), **fields}) + "\n").encode())
    assert text in run_cli(tmp_path, capsys)[0]


def test_a_validation_entry_of_wrong_types(tmp_path: Path) -> None:
    entry = {"event": "validation", "seq": 4, "at": None, "attempt": [1], "validation": {"ok": 1}}
    assert render_entry(entry) == "#4 ? ? ? ? answer: ?"


def test_an_empty_log_and_a_log_of_only_bad_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "runs" / "20261122-100000-aaaa" / "llm.jsonl"
    path.parent.mkdir(parents=True)
    path.write_bytes(b"")
    out, _ = run_cli(tmp_path, capsys)
    assert "no model calls" in out and "skipped" not in out
    path.write_bytes(b"[1,2]\n" + DEEP + b"\n" + b'{"seq": 1, "\xc3')
    out, _ = run_cli(tmp_path, capsys)
    assert out == f"run 20261122-100000-aaaa: no readable entries in {path} (3 unreadable lines skipped)\n"


def test_an_unreadable_log_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    make_run(tmp_path, "20261122-100000-aaaa", 1)

    def refuse(path: Path, **_: object) -> None:
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))

    monkeypatch.setattr(logview, "read_objects", refuse)
    assert main(["llm-log", "--data-dir", str(tmp_path)]) == 2
    assert capsys.readouterr().err.endswith("llm.jsonl: Permission denied\n")


def test_no_runs_or_an_unknown_run_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["llm-log", "--data-dir", str(tmp_path)]) == 2
    assert "no runs under" in capsys.readouterr().err
    make_run(tmp_path, "20261122-100000-aaaa", 1)
    assert main(["llm-log", "--data-dir", str(tmp_path), "--run", "nope"]) == 2
    assert "no run nope" in capsys.readouterr().err


def test_a_run_without_model_calls_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "runs" / "20261122-100000-aaaa").mkdir(parents=True)
    assert main(["llm-log", "--data-dir", str(tmp_path)]) == 0
    assert "no model calls" in capsys.readouterr().out


def test_keys_are_redacted_everywhere_in_an_entry(tmp_path: Path) -> None:
    log = CallLog(tmp_path / "llm.jsonl", [KEY, "abc"])
    log.write({"messages": [{"text": f"key {KEY} and Bearer abcdefghijklmnopqrstu"}], "note": "abc stays"})
    text = (tmp_path / "llm.jsonl").read_text()
    assert KEY not in text and "abcdefghijklmnopqrstu" not in text
    assert "abc stays" in text  # too short to be a key: redacting it would mangle ordinary words
    assert Redactor([]).text("sk-proj-0123456789abcdefXYZ") == "[redacted]"


def png_pixels(data: bytes) -> np.ndarray:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    idat_length = struct.unpack(">I", data[33:37])[0]
    assert data[37:41] == b"IDAT"
    raw = zlib.decompress(data[41 : 41 + idat_length])
    rows = np.frombuffer(raw, dtype=np.uint8).reshape(height, width * 3 + 1)
    assert (rows[:, 0] == 0).all()
    return rows[:, 1:].reshape(height, width, 3)


def test_the_png_encoder_round_trips_a_frame() -> None:
    frame = np.random.default_rng(1).integers(0, 256, (144, 160, 3), dtype=np.uint8)
    assert np.array_equal(png_pixels(encode_png(frame)), frame)
    with pytest.raises(ValueError, match="uint8"):
        encode_png(frame.astype(np.int32))
