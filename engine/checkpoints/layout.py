"""Names on disk: run folders, checkpoint folders (<seq, 6 digits>-<reason>), temp folders, parts."""

from __future__ import annotations

import re
from pathlib import Path

from engine.checkpoints.errors import CheckpointError
from engine.checkpoints.models import MANIFEST

TEMP_PREFIX = ".tmp-"
JSON_SUFFIX = ".json"
_SIMPLE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
_FOLDER = re.compile(r"(\d{6,})-([A-Za-z0-9][A-Za-z0-9_.-]*)")


def is_simple_name(name: str) -> bool:
    """A single file or folder name that cannot climb out of its folder or hide as a dot file."""
    return bool(_SIMPLE.fullmatch(name)) and ".." not in name


def require_simple(what: str, name: str) -> None:
    if not is_simple_name(name):
        raise CheckpointError(f"{what} {name!r} is not a simple name (letters, digits, '_', '-', '.')")


def folder_name(seq: int, reason: str) -> str:
    return f"{seq:06d}-{reason}"


def folder_seq(path: Path) -> int | None:
    """The sequence number of a checkpoint folder, None for anything else (temp folders included)."""
    match = _FOLDER.fullmatch(path.name)
    return int(match.group(1)) if match else None


def run_folders(root: Path) -> list[Path]:
    if not root.is_dir():
        return []
    return sorted(path for path in root.iterdir() if path.is_dir() and is_simple_name(path.name))


def checkpoint_folders(run_dir: Path) -> list[Path]:
    """Oldest first, by sequence number."""
    if not run_dir.is_dir():
        return []
    found = [path for path in run_dir.iterdir() if path.is_dir() and folder_seq(path) is not None]
    return sorted(found, key=lambda path: folder_seq(path) or 0)


def part_file_names(json_names: list[str], blob_names: list[str]) -> list[str]:
    """The file names the parts get; refuses names that would collide or be misread on loading."""
    for name in json_names:
        require_simple("checkpoint part", name)
    for name in blob_names:
        require_simple("checkpoint part", name)
        if name.endswith(JSON_SUFFIX):
            # Loading tells JSON parts from binary ones by this suffix.
            raise CheckpointError(f"binary checkpoint part {name!r} must not end in {JSON_SUFFIX}")
    files = [name + JSON_SUFFIX for name in json_names] + list(blob_names)
    if MANIFEST in files:
        raise CheckpointError(f"{MANIFEST} is reserved for the checkpoint's manifest")
    if len(set(files)) != len(files):
        raise CheckpointError(f"checkpoint parts collide: {sorted(files)}")
    return files
