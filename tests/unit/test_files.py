"""Writing a run's files: whole or not at all, durable folders, and a full disk that leaves nothing behind."""

from __future__ import annotations

import errno
import logging
import os
import stat
from collections.abc import Callable
from pathlib import Path

import pytest

from engine.files import StorageError, append_json_line, write_bytes_atomic, write_json_atomic
from engine.runtime.logs import attach_run_logs, detach_run_logs


def full_disk(*_args: object) -> None:
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_the_folder_is_fsynced_after_the_rename(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    synced: list[str] = []
    real_fsync = os.fsync

    def recording_fsync(descriptor: int) -> None:
        synced.append("dir" if stat.S_ISDIR(os.fstat(descriptor).st_mode) else "file")
        real_fsync(descriptor)

    monkeypatch.setattr(os, "fsync", recording_fsync)
    write_json_atomic(tmp_path / "summary.json", {"a": 1})
    assert synced == ["file", "dir"]  # the data first, then the folder that now names it


def test_a_write_makes_missing_folders_and_asks_for_none_that_exist(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_bytes_atomic(tmp_path / "a" / "b" / "state", b"1")
    assert (tmp_path / "a" / "b" / "state").read_bytes() == b"1"
    made: list[Path] = []
    real_mkdir = Path.mkdir

    def recording_mkdir(self: Path, *args: object, **kwargs: object) -> None:
        made.append(self)
        real_mkdir(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Path, "mkdir", recording_mkdir)
    write_bytes_atomic(tmp_path / "a" / "b" / "state", b"2")
    assert made == [] and (tmp_path / "a" / "b" / "state").read_bytes() == b"2"
    write_bytes_atomic(tmp_path / "a" / "c" / "state", b"3")
    assert made == [tmp_path / "a" / "c"]


@pytest.mark.parametrize("failing", ["fsync", "replace"])
def test_a_failed_write_keeps_the_old_file_and_leaves_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failing: str
) -> None:
    target = tmp_path / "journey.json"
    write_json_atomic(target, {"old": True})
    if failing == "fsync":
        monkeypatch.setattr(os, "fsync", full_disk)
    else:
        monkeypatch.setattr(Path, "replace", full_disk)
    with pytest.raises(StorageError) as raised:
        write_bytes_atomic(target, b'{"new": true}')
    assert raised.value.disk_full and raised.value.path == str(target)
    assert str(raised.value) == f"cannot write {target}: No space left on device"
    assert target.read_text(encoding="utf-8").strip() == '{\n  "old": true\n}'
    assert sorted(path.name for path in tmp_path.iterdir()) == ["journey.json"]


class ShortDisk:
    """A file object whose disk fills after `room` more bytes: writes then take what fits and fail."""

    def __init__(self, handle: object, room: int) -> None:
        self.handle, self.room = handle, room

    def __getattr__(self, name: str) -> object:
        return getattr(self.handle, name)

    def __enter__(self) -> ShortDisk:
        return self

    def __exit__(self, *exc: object) -> None:
        self.handle.close()  # type: ignore[attr-defined]

    def write(self, data: bytes) -> int:
        if self.room <= 0:
            full_disk()
        taken = data[: self.room]
        self.room -= len(taken)
        return self.handle.write(taken)  # type: ignore[attr-defined,no-any-return]


def test_an_append_cut_short_by_a_full_disk_is_taken_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "decisions.jsonl"
    append_json_line(log, {"seq": 1})
    before = log.read_bytes()
    real_open: Callable[..., object] = Path.open
    monkeypatch.setattr(Path, "open", lambda self, *a, **k: ShortDisk(real_open(self, *a, **k), room=5))
    with pytest.raises(StorageError, match="No space left on device"):
        append_json_line(log, {"seq": 2, "reason": "a line longer than the room left"})
    monkeypatch.undo()
    assert log.read_bytes() == before  # no torn half-line for the next append to land after
    append_json_line(log, {"seq": 2})
    assert log.read_text(encoding="utf-8").splitlines() == ['{"seq": 1}', '{"seq": 2}']


class FullStream:
    def write(self, text: str) -> int:
        full_disk()
        return 0

    def flush(self) -> None:
        pass

    def close(self) -> None:
        pass


def test_a_run_log_that_cannot_be_written_goes_quiet_not_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    handlers = attach_run_logs(tmp_path / "run.log", "INFO")
    (file_handler,) = handlers
    file_handler.stream = FullStream()  # type: ignore[attr-defined]
    try:
        logging.getLogger("engine.run").info("a line the disk has no room for")
        logging.getLogger("engine.run").info("and another")
    finally:
        detach_run_logs(handlers)
    assert getattr(file_handler, "failed", False)
    assert "Logging error" not in capsys.readouterr().err  # logging's own report: a traceback per line
