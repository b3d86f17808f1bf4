"""The checkpoint store: atomic writes, pruning, listing, verification, loading and finding checkpoints.

A checkpoint becomes visible only by the rename of a complete, fsynced temp folder, so a crash or a full
disk mid-write leaves the previous checkpoints as they were. Reading never trusts a folder: the manifest is
checked against its seal and every part against the manifest's size and sha256 before anything is handed
back.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from engine.checkpoints.compat import check_compatible, data_dir_of, schema_refusal
from engine.checkpoints.disk import remove_tree, write_synced
from engine.checkpoints.errors import (
    CheckpointCorruptError,
    CheckpointError,
    CheckpointWriteError,
    NoCheckpointError,
)
from engine.checkpoints.layout import (
    JSON_SUFFIX,
    TEMP_PREFIX,
    checkpoint_folders,
    folder_name,
    folder_seq,
    is_simple_name,
    part_file_names,
    require_simple,
    run_folders,
)
from engine.checkpoints.models import (
    MANIFEST,
    SCHEMA_VERSION,
    SEAL,
    CheckpointEntry,
    CheckpointHeader,
    LoadedCheckpoint,
    Manifest,
    PartDigest,
    StoredCheckpoint,
    checkpoint_name,
)
from engine.checkpoints.resolve import resolve_spec
from engine.checkpoints.verify import Inspection, inspect_checkpoint, read_manifest, seal_for
from engine.files import fsync_dir

__all__ = ["CheckpointStore", "check_compatible", "data_dir_of", "write_synced"]

log = logging.getLogger("engine.checkpoints")

WriteFile = Callable[[Path, bytes], None]


def _encode_parts(json_parts: Mapping[str, Any], blobs: Mapping[str, bytes]) -> dict[str, bytes]:
    """Every part's bytes, before anything touches the disk: a bad part must not leave a temp folder."""
    if SEAL in part_file_names(list(json_parts), list(blobs)):
        raise CheckpointError(f"{SEAL} is reserved for the checkpoint's seal")
    files: dict[str, bytes] = {}
    for name, value in json_parts.items():
        try:
            text = json.dumps(value, indent=2, ensure_ascii=False, allow_nan=False)
        except (TypeError, ValueError) as exc:
            raise CheckpointError(f"checkpoint part {name!r} is not JSON data: {exc}") from exc
        files[name + JSON_SUFFIX] = (text + "\n").encode("utf-8")
    files.update({name: bytes(data) for name, data in blobs.items()})
    return files


def _remove_stale_temps(run_dir: Path) -> None:
    # One writer per run: any temp folder found here is left over from a crash or an earlier failure.
    for path in run_dir.iterdir():
        if path.name.startswith(TEMP_PREFIX):
            remove_tree(path)


def _next_seq(run_dir: Path) -> int:
    seqs = [folder_seq(folder) or 0 for folder in checkpoint_folders(run_dir)]
    return max(seqs, default=0) + 1


def _created_at(folder: Path, manifest: Manifest | None) -> float:
    if manifest is not None:
        try:
            return datetime.fromisoformat(manifest.created_at).timestamp()
        except ValueError:
            pass
    try:
        return folder.stat().st_mtime  # a broken manifest has no time of its own
    except OSError:
        return 0.0


def _loaded(folder: Path, inspection: Inspection) -> LoadedCheckpoint:
    if inspection.manifest is None or inspection.problems:
        raise CheckpointCorruptError(folder, inspection.problems)
    json_parts: dict[str, Any] = {}
    blobs: dict[str, bytes] = {}
    for name, data in inspection.contents.items():
        if not name.endswith(JSON_SUFFIX):
            blobs[name] = data
            continue
        try:
            json_parts[name.removesuffix(JSON_SUFFIX)] = json.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise CheckpointCorruptError(folder, (f"{name}: not valid JSON ({exc})",)) from exc
    return LoadedCheckpoint(folder, inspection.manifest, json_parts, blobs)


class CheckpointStore:
    """Checkpoints under `root` (DATA_DIR/checkpoints), `keep` newest per run."""

    def __init__(self, root: Path, keep: int = 5, write_file: WriteFile = write_synced) -> None:
        if keep < 1:
            raise ValueError(f"keep must be 1 or more, not {keep}")
        self.root = root
        self.keep = keep
        # One file written and fsynced; a seam so tests can fill the disk at any byte.
        self.write_file = write_file

    # Writing

    def write(
        self, header: CheckpointHeader, json_parts: Mapping[str, Any], blobs: Mapping[str, bytes]
    ) -> StoredCheckpoint:
        require_simple("run id", header.run_id)
        require_simple("checkpoint reason", header.reason)
        files = _encode_parts(json_parts, blobs)
        run_dir = self.root / header.run_id
        try:
            final, manifest = self._write_folder(run_dir, header, files)
        except OSError as exc:
            cause = exc.strerror or str(exc)
            raise CheckpointWriteError(run_dir, cause, self._newest_intact(run_dir), exc.errno) from exc
        self._prune(run_dir, final)
        return StoredCheckpoint(final, manifest)

    def _write_folder(
        self, run_dir: Path, header: CheckpointHeader, files: dict[str, bytes]
    ) -> tuple[Path, Manifest]:
        run_dir.mkdir(parents=True, exist_ok=True)
        _remove_stale_temps(run_dir)
        seq = _next_seq(run_dir)
        temp = run_dir / f"{TEMP_PREFIX}{seq:06d}"
        final = run_dir / folder_name(seq, header.reason)
        try:
            manifest = self._write_temp(temp, header, seq, files)
            os.rename(temp, final)
        except BaseException:
            # Whatever cut the write short (a full disk at any file, an interrupt), the half-written folder
            # goes now: the next write would remove it, but a run may never write again.
            remove_tree(temp)
            raise
        fsync_dir(run_dir)
        return final, manifest

    def _write_temp(
        self, temp: Path, header: CheckpointHeader, seq: int, files: dict[str, bytes]
    ) -> Manifest:
        temp.mkdir()
        digests: dict[str, PartDigest] = {}
        for name, data in files.items():
            self.write_file(temp / name, data)
            digests[name] = PartDigest(sha256=hashlib.sha256(data).hexdigest(), bytes=len(data))
        manifest = Manifest(
            **header.model_dump(),
            schema_version=SCHEMA_VERSION,
            seq=seq,
            created_at=datetime.now(UTC).isoformat(timespec="microseconds"),
            parts=digests,
        )
        # After the parts: a folder with a manifest has every part the manifest names. Then the seal, last:
        # the sha256 of the manifest's exact bytes, so that no value in it can change unnoticed.
        manifest_bytes = (manifest.model_dump_json(indent=2) + "\n").encode("utf-8")
        self.write_file(temp / MANIFEST, manifest_bytes)
        self.write_file(temp / SEAL, seal_for(manifest_bytes))
        fsync_dir(temp)
        return manifest

    def newest_intact(self, run_id: str) -> str | None:
        """The name of the run's newest checkpoint that verifies, None if it has none."""
        return self._newest_intact(self.root / run_id) if is_simple_name(run_id) else None

    def _newest_intact(self, run_dir: Path) -> str | None:
        try:
            folders = checkpoint_folders(run_dir)
        except OSError:
            return None
        for folder in reversed(folders):
            if not inspect_checkpoint(folder).problems:
                return checkpoint_name(folder)
        return None

    def _prune(self, run_dir: Path, new: Path) -> None:
        try:
            older = [folder for folder in checkpoint_folders(run_dir) if folder != new]
        except OSError as exc:
            log.warning("could not list old checkpoints in %s: %s", run_dir, exc.strerror or exc)
            return
        for folder in older[: max(0, len(older) + 1 - self.keep)]:
            try:
                # Renamed first so that a removal cut short leaves a temp folder, not a broken checkpoint.
                doomed = run_dir / f"{TEMP_PREFIX}prune-{folder.name}"
                os.rename(folder, doomed)
                remove_tree(doomed)
            except OSError as exc:
                log.warning(
                    "could not remove old checkpoint %s: %s", checkpoint_name(folder), exc.strerror or exc
                )

    # Reading

    def _ordered(self, run_id: str | None) -> list[Path]:
        """Checkpoint folders, newest first (by creation time, then sequence number); not verified."""
        if run_id is not None and not is_simple_name(run_id):
            return []
        runs = [self.root / run_id] if run_id is not None else run_folders(self.root)
        keyed = []
        for run_dir in runs:
            for folder in checkpoint_folders(run_dir):
                manifest = read_manifest(folder)[0]
                keyed.append((_created_at(folder, manifest), folder_seq(folder) or 0, str(folder), folder))
        keyed.sort(reverse=True)
        return [item[-1] for item in keyed]

    def entries(self, run_id: str | None = None) -> list[CheckpointEntry]:
        """Newest first, broken ones included (with their problems)."""
        return [self.entry(folder) for folder in self._ordered(run_id)]

    def entry(self, path: Path) -> CheckpointEntry:
        inspection = inspect_checkpoint(path)
        return CheckpointEntry(path, inspection.manifest, inspection.problems)

    def verify(self, path: Path) -> tuple[str, ...]:
        return inspect_checkpoint(path).problems

    def load(self, path: Path) -> LoadedCheckpoint:
        inspection = inspect_checkpoint(path)
        if inspection.other_schema:
            raise schema_refusal(checkpoint_name(path), inspection.schema_version or 0)
        return _loaded(path, inspection)

    def broken_newer(self, used: Path, run_id: str | None = None) -> tuple[str, ...]:
        """The checkpoints newer than `used` (of `run_id`, or of every run), each with what is wrong:
        the ones `latest` skipped to reach it."""
        skipped = []
        for entry in self.entries(run_id):
            if entry.path == used:
                break
            skipped.append(f"{entry.name}: {'; '.join(entry.problems) or 'unreadable'}")
        return tuple(skipped)

    def latest(
        self, run_id: str | None = None, check: Callable[[Manifest], None] | None = None
    ) -> LoadedCheckpoint:
        """The newest checkpoint that verifies. `check` (which raises CheckpointIncompatibleError) judges
        it, and its refusal stands: an older checkpoint would silently lose progress."""
        failed = 0
        for folder in self._ordered(run_id):
            inspection = inspect_checkpoint(folder)
            if inspection.other_schema:
                raise schema_refusal(checkpoint_name(folder), inspection.schema_version or 0)
            if inspection.problems or inspection.manifest is None:
                log.warning(
                    "checkpoint %s failed verification (%s): trying the previous one",
                    checkpoint_name(folder),
                    "; ".join(inspection.problems),
                )
                failed += 1
                continue
            if check is not None:
                check(inspection.manifest)
            return _loaded(folder, inspection)
        where = f"{self.root}" + (f" for run {run_id}" if run_id is not None else "")
        detail = f" ({failed} failed verification)" if failed else ""
        raise NoCheckpointError(f"no usable checkpoint in {where}{detail}")

    def resolve(self, spec: str) -> Path:
        """A folder from what a person typed; it still has to pass `load`'s verification."""
        return resolve_spec(self.root, spec, lambda: next(iter(self._ordered(None)), None))
