"""The Checkpoint role: pulls a snapshot from every role and writes them as one atomic, verified checkpoint;
after a failure, pushes a checkpoint's snapshots back.

The conductor asks for a checkpoint only between cycles, when no role is in the middle of a verb, so the
snapshots of one checkpoint describe one moment: at the start, at battle start and end, every
`every_decisions` decisions (it counts them itself), when `due` says the interval has passed since the
last checkpoint, at a clean stop, and (`crash`) when the run fails. Lesson memory is never part of a
checkpoint: what was learned stays learned.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from engine.actors.handles import RoleHandle
from engine.checkpoints.compat import check_compatible
from engine.checkpoints.errors import NoCheckpointError
from engine.checkpoints.models import CheckpointHeader, LoadedCheckpoint, Manifest
from engine.checkpoints.store import CheckpointStore
from engine.config import CheckpointConfig
from engine.emulator.snapshot import EmulatorSnapshot
from engine.memory.clock import FRAMES_PER_HOUR
from engine.messages import RoleReport
from engine.resilience.checkpoint_clock import CheckpointClock
from engine.telemetry.metrics import RunMetrics

log = logging.getLogger("engine.checkpoints")
COGNITIVE_ROLES = ("observer", "strategist", "tactician", "gateway")  # JSON snapshots, restored together
EMULATOR_STATE = "emulator.state"
BATTLE_REASONS = frozenset({"battle_start", "battle_end"})


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class CheckpointSaved(_Frozen):
    name: str
    path: str
    reason: str
    bytes: int
    write_seconds: float


class CheckpointRestored(_Frozen):
    name: str
    path: str
    manifest: Manifest
    conductor: dict[str, Any]
    skipped: tuple[str, ...] = ()  # newer checkpoints of the run that failed verification, and why


class ConductorPart(_Frozen):
    """What the conductor adds to a checkpoint: its own state and the counters the manifest shows."""

    state: dict[str, Any]
    decisions: int
    decisions_offset: int
    battles: int


class Checkpointer:
    def __init__(
        self,
        config: CheckpointConfig,
        run_id: str,
        config_hash: str,
        store: CheckpointStore | None,
        sources: Mapping[str, RoleHandle],
        metrics: RunMetrics | None = None,
    ) -> None:
        self.config = config
        self.run_id = run_id
        self.config_hash = config_hash
        self.store = store
        self.sources = sources  # emulator, memory and the COGNITIVE_ROLES
        # None: no data directory, nothing is kept (a restore then finds no checkpoint)
        self.metrics = metrics
        self.clock = CheckpointClock(config.interval_seconds, metrics)
        self.counts = {"written": 0, "failed": 0, "restored": 0}
        self.last: CheckpointSaved | None = None
        self._cartridge: tuple[str, str] | None = None  # (game, ROM sha256), asked once

    # -- the timer -----------------------------------------------------------------------------------
    def start(self) -> None:
        self.clock.start()

    def stop(self) -> None:
        self.clock.stop()

    def due(self) -> bool:
        """Has the interval passed since the last checkpoint?"""
        return self.clock.due()

    # -- writing -------------------------------------------------------------------------------------
    def save(self, reason: str, conductor: ConductorPart) -> CheckpointSaved | None:
        """Write one checkpoint; None when battle checkpoints are off. A failed write (a full disk) raises
        the store's CheckpointWriteError after counting it; the previous checkpoint is untouched."""
        if self.store is None or (reason in BATTLE_REASONS and not self.config.at_battles):
            return None
        started = time.perf_counter()
        self.clock.written()  # also after a failure: a full disk is not retried every cycle
        try:
            stored = self._write(reason, conductor)
        except Exception:
            self.counts["failed"] += 1
            if self.metrics is not None:
                self.metrics.checkpoint(reason, None)
            raise
        seconds = time.perf_counter() - started
        self.counts["written"] += 1
        if self.metrics is not None:
            self.metrics.checkpoint(reason, seconds)
        self.last = CheckpointSaved(name=stored.name, path=str(stored.path), reason=reason,
                                    bytes=stored.bytes, write_seconds=round(seconds, 4))  # fmt: skip
        return self.last

    def _write(self, reason: str, conductor: ConductorPart) -> Any:
        emulator: EmulatorSnapshot = self.sources["emulator"].call("snapshot")
        parts: dict[str, Any] = {role: self.sources[role].call("snapshot") for role in COGNITIVE_ROLES}
        parts["emulator"] = emulator.to_json()
        parts["conductor"] = conductor.state
        game, rom_sha256 = self._identify()
        header = CheckpointHeader(
            run_id=self.run_id, reason=reason, game=game, rom_sha256=rom_sha256,
            config_hash=self.config_hash, frames=emulator.frames, decisions=conductor.decisions,
            decisions_offset=conductor.decisions_offset, battles=conductor.battles,
            play_frames=self._play_frames(),
        )  # fmt: skip
        return self._store().write(header, parts, {EMULATOR_STATE: emulator.state})

    def _identify(self) -> tuple[str, str]:
        if self._cartridge is None:
            emulator = self.sources["emulator"]
            self._cartridge = (emulator.call("game_name"), emulator.call("cartridge_sha256"))
        return self._cartridge

    def _play_frames(self) -> int:
        """The play clock, for the record (it is memory's, and memory is never rolled back)."""
        try:
            return round(self.sources["memory"].call("play_hours") * FRAMES_PER_HOUR)
        except Exception as exc:  # a checkpoint without the clock beats no checkpoint
            log.warning("play clock unavailable for the checkpoint: %s", exc)
            return 0

    def newest_intact(self) -> str | None:
        """The run's newest checkpoint that verifies (what `--resume latest` would take), or None."""
        return self.store.newest_intact(self.run_id) if self.store is not None else None

    # -- restoring -----------------------------------------------------------------------------------
    def restore(self, path: str | None = None) -> CheckpointRestored:
        """Load the checkpoint at `path` (None: this run's newest that verifies, skipping broken ones with
        a warning), check it belongs to this cartridge, and push every role's snapshot back."""
        loaded = self._load(path)
        # The store warned here about newer broken ones it skipped; the conductor repeats it in run.log.
        skipped = self._store().broken_newer(loaded.path, self.run_id) if path is None else ()
        emulator = EmulatorSnapshot.from_parts(loaded.json_parts["emulator"], loaded.blobs[EMULATOR_STATE])
        self.sources["emulator"].call("restore", emulator)
        for role in COGNITIVE_ROLES:
            self.sources[role].call("restore", loaded.json_parts[role])
        self.counts["restored"] += 1
        self.clock.written()
        return CheckpointRestored(name=loaded.name, path=str(loaded.path), manifest=loaded.manifest,
                                  conductor=loaded.json_parts["conductor"],
                                  skipped=skipped)  # fmt: skip

    def _load(self, path: str | None) -> LoadedCheckpoint:
        game, rom_sha256 = self._identify()

        def check(manifest: Manifest) -> None:
            check_compatible(manifest, game, rom_sha256)

        store = self._store()
        if path is None:
            return store.latest(self.run_id, check)
        loaded = store.load(Path(path))
        check(loaded.manifest)
        return loaded

    def _store(self) -> CheckpointStore:
        if self.store is None:
            raise NoCheckpointError("this run keeps no checkpoints: it has no data directory")
        return self.store

    def report(self) -> RoleReport:
        since = self.clock.seconds_since_written()
        counters = {key: float(value) for key, value in self.counts.items()}
        counters["seconds_since_checkpoint"] = since if since is not None else -1.0
        detail = f"last: {self.last.name} ({self.last.reason})" if self.last is not None else "none yet"
        return RoleReport(role="checkpoint", healthy=True, counters=counters, detail=detail)
