"""`engine llm-log` over a real call log, the redactor, and the screenshot encoder."""

from __future__ import annotations

import json
import struct
import zlib
from pathlib import Path

import numpy as np
import pytest

from engine.cli import main
from engine.emulator.png import encode_png
from engine.llm.calllog import CallLog, Redactor

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
