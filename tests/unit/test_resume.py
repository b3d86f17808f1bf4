"""`engine run --resume`: the checkpoint is chosen and checked before anything starts, with one clear line
for a wrong cartridge, a broken explicit checkpoint, or nothing to resume."""

from __future__ import annotations

import hashlib
import logging
from pathlib import Path

import pytest

from engine.checkpoints.errors import CheckpointCorruptError, CheckpointIncompatibleError
from engine.checkpoints.models import CheckpointHeader, StoredCheckpoint
from engine.checkpoints.store import CheckpointStore
from engine.cli import main
from engine.config import EngineConfig, config_from_mapping, config_hash
from engine.runtime.resume import find_resume_point
from tests.support.romgen import write_rom
from tests.unit.test_cli import assert_one_line_error


@pytest.fixture
def rom(tmp_path: Path) -> Path:
    return write_rom(tmp_path, "red.gb", title=b"POKEMON RED")


def save(
    data_dir: Path, rom: Path, reason: str, run_id: str = "run-a", **changes: object
) -> StoredCheckpoint:
    sha = hashlib.sha256(rom.read_bytes()).hexdigest()
    header = {"run_id": run_id, "reason": reason, "game": "red", "rom_sha256": sha,
              "config_hash": config_hash(EngineConfig()), "frames": 100, "decisions": 4,
              "decisions_offset": 0, "battles": 0, "play_frames": 0}  # fmt: skip
    store = CheckpointStore(data_dir / "checkpoints")
    return store.write(
        CheckpointHeader(**{**header, **changes}), {"conductor": {}}, {"emulator.state": b"x" * 64}
    )


def test_latest_is_the_newest_checkpoint_that_verifies(tmp_path: Path, rom: Path) -> None:
    older = save(tmp_path, rom, "battle_start")
    newest = save(tmp_path, rom, "decisions")
    (newest.path / "emulator.state").write_bytes(b"x" * 10)  # truncated by a failing disk
    point = find_resume_point("latest", tmp_path, rom, EngineConfig())
    assert (point.path, point.run_id, point.data_dir) == (older.path, "run-a", tmp_path)
    (skipped,) = point.skipped
    assert skipped.startswith(f"{newest.name}: ") and "emulator.state" in skipped


def test_another_cartridge_is_refused_naming_both(tmp_path: Path, rom: Path) -> None:
    save(tmp_path, rom, "decisions")
    blue = write_rom(tmp_path, "blue.gb", title=b"POKEMON BLUE")
    with pytest.raises(CheckpointIncompatibleError, match="another cartridge") as refused:
        find_resume_point("latest", tmp_path, blue, EngineConfig())
    assert hashlib.sha256(blue.read_bytes()).hexdigest()[:12] in str(refused.value)


def test_a_broken_checkpoint_named_explicitly_is_refused(tmp_path: Path, rom: Path) -> None:
    save(tmp_path, rom, "battle_start")
    broken = save(tmp_path, rom, "decisions")
    (broken.path / "emulator.state").write_bytes(b"y" * 64)
    with pytest.raises(CheckpointCorruptError, match=r"emulator\.state"):
        find_resume_point(str(broken.path), tmp_path, rom, EngineConfig())


def test_other_settings_are_allowed_with_a_warning(
    tmp_path: Path, rom: Path, caplog: pytest.LogCaptureFixture
) -> None:
    stored = save(tmp_path, rom, "decisions")
    other = config_from_mapping({"checkpoint": {"every_decisions": 7}})
    with caplog.at_level(logging.WARNING, logger="engine.run"):
        point = find_resume_point("run-a", tmp_path, rom, other)
    assert point.path == stored.path
    assert "settings differ" in caplog.text and stored.name in caplog.text


def test_the_cli_refuses_state_and_resume_together(
    tmp_path: Path, rom: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "battle.state"
    state.write_bytes(b"state")
    code = main(["run", "--local", "--rom", str(rom), "--state", str(state), "--resume", "latest"])
    assert_one_line_error(code, capsys.readouterr().err, "--state and --resume")


def test_the_cli_says_when_there_is_nothing_to_resume(
    tmp_path: Path, rom: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    code = main(["run", "--local", "--rom", str(rom), "--resume", "latest", "--data-dir", str(data)])
    assert_one_line_error(code, capsys.readouterr().err, "checkpoint")
    assert not (data / "runs").exists()  # nothing was started
