"""What a checkpoint's manifest says, and how the store hands checkpoints back."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.frozen import Frozen

# Bump when the layout or the manifest changes meaning; older engines then refuse instead of misreading.
# v2: the manifest is sealed (SEAL); a v1 checkpoint has no seal, so it could not be told from a tampered one.
# v3: the tactician's part holds the map explorer (squares seen, gates tried) instead of the random walk.
# v4: emulator.state is packed (zlib behind a marker). Its other parts are v3's, and a v3 emulator.state
# reads as the plain state it is, so v3 checkpoints are still read: no earlier run is stranded.
SCHEMA_VERSION = 4
READ_SCHEMAS = (3, 4)
MANIFEST = "manifest.json"
# The manifest's sha256, written after it, in the form `sha256sum -c manifest.sha256` checks.
SEAL = "manifest.sha256"


def schemas_read() -> str:
    """The schemas this engine reads, in words: "v3 and v4"."""
    *earlier, last = (f"v{version}" for version in READ_SCHEMAS)
    return f"{', '.join(earlier)} and {last}" if earlier else last


class PartDigest(Frozen):
    sha256: str
    bytes: int


class CheckpointHeader(Frozen):
    """What the writer knows about the run when it takes the checkpoint."""

    run_id: str
    reason: str  # why now: "periodic", "battle_start", "battle_end"...; part of the folder name
    game: str
    rom_sha256: str
    config_hash: str
    frames: int
    decisions: int
    decisions_offset: int
    battles: int
    play_frames: int


class Manifest(CheckpointHeader):
    schema_version: int
    seq: int
    created_at: str  # ISO-8601, UTC
    parts: dict[str, PartDigest]  # keyed by file name: "conductor.json", "emulator.state"

    @property
    def name(self) -> str:
        return f"{self.run_id}/{self.seq:06d}-{self.reason}"


def checkpoint_name(path: Path) -> str:
    """How people name a checkpoint: "<run id>/<folder>", e.g. 20261122-101500-3fa9/000012-battle_end."""
    return f"{path.parent.name}/{path.name}"


@dataclass(frozen=True)
class StoredCheckpoint:
    """A checkpoint just written."""

    path: Path
    manifest: Manifest

    @property
    def name(self) -> str:
        return checkpoint_name(self.path)

    @property
    def bytes(self) -> int:
        parts = sum(part.bytes for part in self.manifest.parts.values())
        return parts + (self.path / MANIFEST).stat().st_size + (self.path / SEAL).stat().st_size


@dataclass(frozen=True)
class CheckpointEntry:
    """A checkpoint as listed: a broken one is listed too, with what is wrong with it."""

    path: Path
    manifest: Manifest | None  # None when the manifest is missing, unreadable or of another schema
    problems: tuple[str, ...]

    @property
    def name(self) -> str:
        return checkpoint_name(self.path)

    @property
    def ok(self) -> bool:
        return not self.problems


@dataclass(frozen=True)
class LoadedCheckpoint:
    """A verified checkpoint's contents."""

    path: Path
    manifest: Manifest
    json_parts: dict[str, Any]  # by part name without ".json": "conductor"
    blobs: dict[str, bytes]  # by file name: "emulator.state"

    @property
    def name(self) -> str:
        return checkpoint_name(self.path)
