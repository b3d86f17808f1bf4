"""File system steps of an atomic write: every byte on disk (fsync) before the rename makes it visible."""

from __future__ import annotations

import os
import shutil
from pathlib import Path


def write_synced(path: Path, data: bytes) -> None:
    """Write one new file and fsync it: the default `write_file` of the store."""
    with path.open("wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())


def remove_tree(path: Path) -> None:
    """Best effort: a leftover temp folder is harmless (the next write of that run removes it)."""
    shutil.rmtree(path, ignore_errors=True)


def folder_bytes(path: Path) -> int:
    try:
        return sum(item.stat().st_size for item in path.iterdir() if item.is_file())
    except OSError:
        return 0
