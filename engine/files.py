"""Writing files so that a crash or a full disk never leaves half of one.

A whole file is written beside its target under a hidden temporary name, flushed and fsynced, renamed over
the target, and the folder is fsynced so the rename itself survives a power cut. A write that fails leaves
the old file as it was and no temporary file behind. Appends (the JSON Lines logs) are one `write` of a
whole line each; a line torn by a killed process is what the readers skip.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
from pathlib import Path
from typing import Any

from engine.errors import EngineError

TEMP_PREFIX = "."
TEMP_SUFFIX = ".tmp"
DISK_FULL = frozenset({errno.ENOSPC, errno.EDQUOT})


class StorageError(EngineError):
    """A file could not be written (a full disk, no permission); nothing half-written was left behind."""

    def __init__(self, path: Path | str, reason: str, code: int | None = None) -> None:
        super().__init__(f"cannot write {path}: {reason}")
        self.path = str(path)
        self.reason = reason
        self.code = code

    @classmethod
    def from_os_error(cls, path: Path, error: OSError) -> StorageError:
        return cls(path, error.strerror or str(error), error.errno)

    @property
    def disk_full(self) -> bool:
        return self.code in DISK_FULL


def temporary_for(path: Path) -> Path:
    return path.with_name(f"{TEMP_PREFIX}{path.name}{TEMP_SUFFIX}")


def fsync_dir(path: Path) -> None:
    """Make a folder's entries (a new file, a rename) durable, not just the files' contents."""
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def write_bytes_atomic(path: Path, data: bytes, *, mode: int = 0o644) -> None:
    """Readers see the old file or the new one, never half of one. Raises StorageError (e.g. a full disk)
    with nothing changed on disk."""
    temporary = temporary_for(path)
    try:
        descriptor = _create(temporary, mode)
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        temporary.replace(path)
        fsync_dir(path.parent)
    except OSError as exc:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise StorageError.from_os_error(path, exc) from exc
    except BaseException:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise


def _create(path: Path, mode: int) -> int:
    """A new file opened for writing; its folder is made only when missing (a run writes thousands of
    files into folders that exist, and asking for each folder again cost more than the write)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
    try:
        return os.open(path, flags, mode)
    except FileNotFoundError:
        path.parent.mkdir(parents=True, exist_ok=True)
        return os.open(path, flags, mode)


def write_json_atomic(path: Path, data: Any) -> None:
    write_bytes_atomic(path, (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))


def append_json_line(path: Path, data: Any) -> None:
    """Append one line. A write that fails part-way (a full disk) is cut back off, so the next line that
    fits does not start in the middle of a torn one; StorageError says what failed."""
    line = (json.dumps(data, ensure_ascii=False) + "\n").encode("utf-8")
    try:
        with path.open("ab", buffering=0) as handle:
            _append(handle, line)
    except OSError as exc:
        raise StorageError.from_os_error(path, exc) from exc


def _append(handle: Any, line: bytes) -> None:
    size = handle.tell()
    try:
        written = 0
        while written < len(line):  # an unbuffered write may take part of the line
            written += handle.write(line[written:])
    except OSError:
        with contextlib.suppress(OSError):
            handle.truncate(size)
        raise
