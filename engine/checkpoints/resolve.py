"""What a person may type to name a checkpoint, and the folder it means."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from engine.checkpoints.errors import NoCheckpointError
from engine.checkpoints.layout import checkpoint_folders, folder_seq, is_simple_name
from engine.checkpoints.models import MANIFEST

LATEST = "latest"


def newest_folder(run_dir: Path) -> Path | None:
    folders = checkpoint_folders(run_dir)
    return folders[-1] if folders else None


def _given_path(path: Path) -> Path | None:
    """A checkpoint folder or a run's checkpoint folder given as a path; None if `path` is neither."""
    if not path.is_dir():
        return None
    # A run id (20261122-101500-3fa9) looks like a checkpoint folder name too: the place tells them apart.
    where = Path(os.path.abspath(path))
    in_a_run = where.parent.parent.name == "checkpoints" and folder_seq(path) is not None
    if (path / MANIFEST).exists() or in_a_run:
        return path  # a checkpoint folder, even one whose manifest is gone (verification will say so)
    return newest_folder(path) if where.parent.name == "checkpoints" else None


def _in_run(run_dir: Path, which: str) -> Path | None:
    for folder in checkpoint_folders(run_dir):
        if folder.name == which or (which.isdigit() and folder_seq(folder) == int(which)):
            return folder
    return None


def _in_root(root: Path, spec: str) -> Path | None:
    run_id, _, which = spec.strip("/").partition("/")
    if not is_simple_name(run_id) or "/" in which:
        return None
    run_dir = root / run_id
    return _in_run(run_dir, which) if which else newest_folder(run_dir)


def resolve_spec(root: Path, spec: str, newest_overall: Callable[[], Path | None]) -> Path:
    """The folder of 'latest', a folder path (a checkpoint's or a run's), <run id>/<folder or seq> or
    <run id>; raises NoCheckpointError when there is none."""
    if spec == LATEST:
        found = newest_overall()
        if found is None:
            raise NoCheckpointError(f"no checkpoints in {root}")
        return found
    found = _given_path(Path(spec)) or _in_root(root, spec)
    if found is None:
        raise NoCheckpointError(
            f"no checkpoint {spec!r} in {root} (give 'latest', <run id>, <run id>/<seq> or a checkpoint "
            "folder; `engine checkpoints list` shows them)"
        )
    return found
