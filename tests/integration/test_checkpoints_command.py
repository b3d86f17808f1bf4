"""`engine checkpoints list|show|verify` on a data directory filled through the store, one checkpoint
of it broken."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from engine.checkpoints.models import CheckpointHeader, StoredCheckpoint
from engine.checkpoints.store import CheckpointStore
from engine.cli import main

RUN = "20261122-101500-3fa9"
OTHER_RUN = "20261123-090000-77b1"
STATE = bytes(range(256)) * 16


def _header(run_id: str, reason: str, frames: int) -> CheckpointHeader:
    return CheckpointHeader(
        run_id=run_id,
        reason=reason,
        game="POKEMON RED",
        rom_sha256="a1b2c3d4e5f6" + "0" * 52,
        config_hash="cfg1",
        frames=frames,
        decisions=frames // 100,
        decisions_offset=0,
        battles=2,
        play_frames=frames,
    )


@dataclass(frozen=True)
class Filled:
    data_dir: Path
    good: StoredCheckpoint
    broken: StoredCheckpoint
    other: StoredCheckpoint


@pytest.fixture
def filled(tmp_path: Path) -> Filled:
    store = CheckpointStore(tmp_path / "checkpoints")
    parts = {"conductor": {"decisions": 3}}
    good = store.write(_header(RUN, "periodic", 1000), parts, {"emulator.state": STATE})
    broken = store.write(_header(RUN, "battle_end", 2000), parts, {"emulator.state": STATE})
    other = store.write(_header(OTHER_RUN, "battle_start", 3000), parts, {"emulator.state": STATE})
    (broken.path / "emulator.state").write_bytes(STATE[:10])
    return Filled(tmp_path, good, broken, other)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["checkpoints", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_list_shows_newest_first_and_marks_the_broken_one(
    filled: Filled, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "list", "--data-dir", str(filled.data_dir))
    assert code == 0
    lines = out.splitlines()
    assert [line.split()[0] for line in lines] == [filled.other.name, filled.broken.name, filled.good.name]
    assert lines[0].endswith("OK") and "frames 3000" in lines[0] and "battles 2" in lines[0]
    assert "battle_start" in lines[0] and " KB " in lines[0]
    assert f"BROKEN: emulator.state: 10 bytes, the manifest says {len(STATE)}" in lines[1]
    code, out, _ = run(capsys, "list", "--run", RUN, "--data-dir", str(filled.data_dir), "--json")
    listed = json.loads(out)["checkpoints"]
    assert code == 0 and [item["name"] for item in listed] == [filled.broken.name, filled.good.name]
    assert [item["ok"] for item in listed] == [False, True]
    assert listed[1]["manifest"]["frames"] == 1000 and listed[1]["bytes"] == filled.good.bytes


def test_show_prints_the_manifest_and_parts(filled: Filled, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "show", f"{RUN}/1", "--data-dir", str(filled.data_dir))
    digest = filled.good.manifest.parts["emulator.state"]
    assert code == 0 and out.startswith(f"checkpoint {filled.good.name}\n")
    assert "status: OK" in out and "reason: periodic" in out and "frames: 1000" in out
    assert "emulator.state" in out and f"{digest.bytes} bytes  sha256 {digest.sha256[:12]}" in out
    code, out, _ = run(capsys, "show", "latest", "--data-dir", str(filled.data_dir), "--json")
    shown = json.loads(out)
    assert code == 0 and shown["name"] == filled.other.name
    assert set(shown["manifest"]["parts"]) == {"conductor.json", "emulator.state"}


def test_verify_exits_1_when_any_is_broken(filled: Filled, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "verify", "--data-dir", str(filled.data_dir))
    assert code == 1
    assert f"BROKEN  {filled.broken.name}" in out and f"OK      {filled.good.name}" in out
    assert "emulator.state: 10 bytes" in out and out.rstrip().endswith("3 checkpoints, 1 broken")
    code, out, _ = run(capsys, "verify", RUN + "/000001-periodic", "--data-dir", str(filled.data_dir))
    assert code == 0 and out.splitlines() == [f"OK      {filled.good.name}", "1 checkpoint, 0 broken"]
    code, out, _ = run(capsys, "verify", "--data-dir", str(filled.data_dir), "--json")
    report = json.loads(out)
    assert code == 1 and report["ok"] is False and len(report["checkpoints"]) == 3


def test_an_unknown_spec_is_one_line_and_exit_2(filled: Filled, capsys: pytest.CaptureFixture[str]) -> None:
    for action in ("show", "verify"):
        code, out, err = run(capsys, action, f"{RUN}/9", "--data-dir", str(filled.data_dir))
        assert code == 2 and out == ""
        assert err.startswith(f"engine: error: no checkpoint '{RUN}/9' in ") and err.count("\n") == 1


def test_an_empty_data_dir_has_no_checkpoints(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "list", "--data-dir", str(tmp_path))
    assert code == 0 and out == f"no checkpoints in {tmp_path / 'checkpoints'}\n"
    code, out, _ = run(capsys, "verify", "--data-dir", str(tmp_path))
    assert code == 0 and out.startswith("no checkpoints in")
    code, out, _ = run(capsys, "list", "--data-dir", str(tmp_path), "--json")
    assert code == 0 and json.loads(out)["checkpoints"] == []
    code, _, err = run(capsys, "show", "latest", "--data-dir", str(tmp_path))
    assert code == 2 and err.startswith("engine: error: no checkpoints in")
