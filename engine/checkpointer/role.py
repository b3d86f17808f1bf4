"""The Checkpoint role: pulls a snapshot from every role and writes them as one atomic, verified checkpoint;
after a failure, pushes a checkpoint's snapshots back.

The conductor asks for a checkpoint only between cycles, when no role is in the middle of a verb, so the
snapshots of one checkpoint describe one moment: at the start, at battle start and end, every
`every_decisions` decisions (it counts them itself), when `due` says the interval has passed since the
last checkpoint, at a clean stop, and (`crash`) when the run fails. Lesson memory is never part of a
checkpoint: what was learned stays learned.

`save` takes the snapshots and returns; the role's writer thread (engine.checkpointer.writer) packs,
encodes and writes them while the conductor plays on. What the writes came to is told by the next `save`
or `flush` (which the conductor asks before it records its next decision), and `save(..., wait=True)`
(the run's last checkpoint) returns only once everything is on disk. Restoring, and naming the newest
intact checkpoint, wait for the writer first.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from pydantic import ValidationError

from engine.checkpointer.clock import CheckpointClock
from engine.checkpointer.writer import Job, Writer
from engine.checkpoints.compat import check_compatible
from engine.checkpoints.errors import CheckpointCorruptError, CheckpointError, NoCheckpointError
from engine.checkpoints.models import CheckpointHeader, LoadedCheckpoint, Manifest, StoredCheckpoint
from engine.checkpoints.store import CheckpointStore
from engine.config import CheckpointConfig
from engine.emulator.errors import SaveStateError
from engine.emulator.state_file import pack, unpack
from engine.frozen import Frozen
from engine.llm.gateway import GatewaySnapshot
from engine.llm.port import GatewayPort
from engine.mechanics.port import EmulatorPort
from engine.mechanics.snapshot import EmulatorSnapshot
from engine.memory.clock import FRAMES_PER_HOUR
from engine.memory.port import MemoryPort
from engine.messages import RoleReport
from engine.observer.journey import ObserverSnapshot
from engine.observer.port import ObserverPort
from engine.strategist.port import StrategistPort
from engine.strategist.strategist import StrategistSnapshot
from engine.tactician.port import TacticianPort
from engine.tactician.tactician import TacticianSnapshot
from engine.telemetry.metrics import RunMetrics

log = logging.getLogger("engine.checkpoints")
Snapshot = TypeVar("Snapshot", bound=Frozen)
# The JSON parts a checkpoint restores together, with the model each part is read back into.
SNAPSHOT_MODELS: dict[str, type[Frozen]] = {
    "observer": ObserverSnapshot,
    "strategist": StrategistSnapshot,
    "tactician": TacticianSnapshot,
    "gateway": GatewaySnapshot,
}
EMULATOR_STATE = "emulator.state"
# A wild battle won, fled or drawn: checkpointed only if the newest checkpoint is older than
# `checkpoint.wild_battle_seconds` (thousands of them an hour, and each save state costs ~12 ms).
ROUTINE_BATTLE_END = "wild_battle_end"
BATTLE_REASONS = frozenset({"battle_start", "battle_end", ROUTINE_BATTLE_END})


class CheckpointSaved(Frozen):
    name: str
    path: str
    reason: str
    bytes: int
    write_seconds: float  # the writer's clock: packing, encoding, files written and fsynced, rename, pruning
    take_seconds: float = 0.0  # the caller's: the snapshots pulled from every role


@dataclass(frozen=True)
class Written:
    """Checkpoint writes finished since the role was last asked, and the ones that failed (each error's
    `reason` names its checkpoint; a full disk is a CheckpointWriteError whose `code` says so)."""

    saved: tuple[CheckpointSaved, ...] = ()
    failed: tuple[CheckpointError, ...] = ()


@dataclass(frozen=True)
class CheckpointTaken:
    reason: str
    seconds: float  # what the caller waited: the snapshots, and with `wait` the writes too
    written: Written = field(default_factory=Written)


class CheckpointRestored(Frozen):
    name: str
    path: str
    manifest: Manifest
    conductor: dict[str, Any]
    skipped: tuple[str, ...] = ()  # newer checkpoints of the run that failed verification, and why


class ConductorPart(Frozen):
    """What the conductor adds to a checkpoint: its own state and the counters the manifest shows."""

    state: dict[str, Any]
    decisions: int
    decisions_offset: int
    battles: int


@dataclass(frozen=True)
class CheckpointSources:
    """The roles a checkpoint is made of (memory only for the play clock: lessons are never rolled back)."""

    emulator: EmulatorPort
    observer: ObserverPort
    strategist: StrategistPort
    tactician: TacticianPort
    gateway: GatewayPort
    memory: MemoryPort

    def snapshots(self) -> dict[str, Frozen]:
        return {"observer": self.observer.snapshot(), "strategist": self.strategist.snapshot(),
                "tactician": self.tactician.snapshot(), "gateway": self.gateway.snapshot()}  # fmt: skip

    def restore(self, parts: dict[str, Any]) -> None:
        self.observer.restore(_parsed(ObserverSnapshot, parts, "observer"))
        self.strategist.restore(_parsed(StrategistSnapshot, parts, "strategist"))
        self.tactician.restore(_parsed(TacticianSnapshot, parts, "tactician"))
        self.gateway.restore(_parsed(GatewaySnapshot, parts, "gateway"))


def _machine(loaded: LoadedCheckpoint) -> bytes:
    """The emulator's state as PyBoy wrote it: packed since schema v4, plain in v3 checkpoints."""
    try:
        return unpack(loaded.blobs[EMULATOR_STATE])
    except SaveStateError as exc:  # it passed its sha256, so it was written this way
        raise CheckpointCorruptError(loaded.path, (f"{EMULATOR_STATE}: {exc}",)) from exc


def _parsed(model: type[Snapshot], parts: dict[str, Any], name: str) -> Snapshot:
    try:
        return model.model_validate(parts[name])
    except (KeyError, ValidationError) as exc:
        raise CheckpointCorruptError(Path(f"{name}.json"), (f"{name}.json: not a {model.__name__}",)) from exc


class Checkpointer:
    def __init__(
        self,
        config: CheckpointConfig,
        run_id: str,
        config_hash: str,
        store: CheckpointStore | None,
        sources: CheckpointSources,
        metrics: RunMetrics | None = None,
    ) -> None:
        self.config = config
        self.run_id = run_id
        self.config_hash = config_hash
        self.store = store
        self.sources = sources
        # None: no data directory, nothing is kept (a restore then finds no checkpoint)
        self.metrics = metrics
        self.clock = CheckpointClock(config.interval_seconds, metrics)
        self.counts = {"written": 0, "failed": 0, "restored": 0}
        self.last: CheckpointSaved | None = None
        self._cartridge: tuple[str, str] | None = None  # (game, ROM sha256), asked once
        self.writer: Writer[CheckpointSaved] = Writer()
        self._counting = threading.Lock()  # counts and `last` change on the writer's thread too

    # -- the timer -----------------------------------------------------------------------------------
    def start(self) -> None:
        self.clock.start()

    def stop(self) -> None:
        """The end of the run (or of the role): the timer stops, and every checkpoint taken is written."""
        self.clock.stop()
        self.writer.close()

    def due(self) -> bool:
        """Has the interval passed since the last checkpoint?"""
        return self.clock.due()

    # -- writing -------------------------------------------------------------------------------------
    def save(self, reason: str, conductor: ConductorPart, wait: bool = False) -> CheckpointTaken | None:
        """Take one checkpoint (None when battle checkpoints are off, or a wild battle's end comes soon after
        the last checkpoint) and hand it to the writer; with `wait`,
        return once it and every one before it is on disk. The result tells the writes that finished
        since the last call, failures included: a failed write (a full disk) leaves the previous
        checkpoints as they were, and after a full disk nothing more is written until someone hears."""
        if self.store is None or (reason in BATTLE_REASONS and not self.config.at_battles):
            return None
        if reason == ROUTINE_BATTLE_END and self.clock.age() < self.config.wild_battle_seconds:
            return None
        started = time.perf_counter()
        self.clock.written()  # also after a failure: a full disk is not retried every cycle
        if not self.writer.disk_full():
            try:
                job = self._take(reason, conductor, started)
            except Exception:
                self._count_failure(reason)
                raise
            self.writer.submit(job)
        if wait:
            self.writer.drain()
        return CheckpointTaken(reason=reason, seconds=round(time.perf_counter() - started, 4),
                               written=self._written())  # fmt: skip

    def flush(self) -> Written:
        """Wait until every checkpoint taken is on disk; what the writes came to since the last call."""
        self.writer.drain()
        return self._written()

    def _take(self, reason: str, conductor: ConductorPart, started: float) -> Job[CheckpointSaved]:
        """The snapshots of this moment, pulled from every role now; the job that writes them later. The
        JSON parts are plain data by now (model_dump copies), so the roles may change meanwhile."""
        emulator = self.sources.emulator.snapshot()
        parts: dict[str, Any] = {
            name: snapshot.model_dump(mode="json") for name, snapshot in self.sources.snapshots().items()
        }
        parts["emulator"] = emulator.to_json()
        parts["conductor"] = conductor.state
        game, rom_sha256 = self._identify()
        header = CheckpointHeader(
            run_id=self.run_id, reason=reason, game=game, rom_sha256=rom_sha256,
            config_hash=self.config_hash, frames=emulator.frames, decisions=conductor.decisions,
            decisions_offset=conductor.decisions_offset, battles=conductor.battles,
            play_frames=self._play_frames(),
        )  # fmt: skip
        store, state, taken = self._store(), emulator.state, time.perf_counter() - started

        def write() -> CheckpointSaved:
            began = time.perf_counter()
            try:
                stored = store.write(header, parts, {EMULATOR_STATE: pack(state)})
            except CheckpointError:
                self._count_failure(reason)
                raise
            return self._count_written(stored, time.perf_counter() - began, taken)

        return Job(reason, write)

    def _count_written(self, stored: StoredCheckpoint, seconds: float, taken: float) -> CheckpointSaved:
        saved = CheckpointSaved(name=stored.name, path=str(stored.path), reason=stored.manifest.reason,
                                bytes=stored.bytes, write_seconds=round(seconds, 4),
                                take_seconds=round(taken, 4))  # fmt: skip
        with self._counting:
            self.counts["written"] += 1
            self.last = saved
        if self.metrics is not None:
            self.metrics.checkpoint(saved.reason, taken + seconds)
        return saved

    def _count_failure(self, reason: str) -> None:
        with self._counting:
            self.counts["failed"] += 1
        if self.metrics is not None:
            self.metrics.checkpoint(reason, None)

    def _written(self) -> Written:
        results = self.writer.take()
        return Written(saved=results.done, failed=results.failed)

    def _identify(self) -> tuple[str, str]:
        if self._cartridge is None:
            emulator = self.sources.emulator
            self._cartridge = (emulator.game_name(), emulator.cartridge_sha256())
        return self._cartridge

    def _play_frames(self) -> int:
        """The play clock, for the record (it is memory's, and memory is never rolled back)."""
        try:
            return round(self.sources.memory.play_hours() * FRAMES_PER_HOUR)
        except Exception as exc:  # a checkpoint without the clock beats no checkpoint
            log.warning("play clock unavailable for the checkpoint: %s", exc)
            return 0

    def newest_intact(self) -> str | None:
        """The run's newest checkpoint that verifies (what `--resume latest` would take), or None; once the
        checkpoints taken are written."""
        if self.store is None:
            return None
        self.writer.drain()
        return self.store.newest_intact(self.run_id)

    # -- restoring -----------------------------------------------------------------------------------
    def restore(self, path: str | None = None) -> CheckpointRestored:
        """Load the checkpoint at `path` (None: this run's newest that verifies, skipping broken ones with
        a warning), check it belongs to this cartridge, and push every role's snapshot back."""
        self.writer.drain()  # the newest checkpoint may still be on its way to the disk
        loaded = self._load(path)
        # The store warned here about newer broken ones it skipped; the conductor repeats it in run.log.
        skipped = self._store().broken_newer(loaded.path, self.run_id) if path is None else ()
        emulator = EmulatorSnapshot.from_parts(loaded.json_parts["emulator"], _machine(loaded))
        self.sources.emulator.restore(emulator)
        self.sources.restore(loaded.json_parts)
        with self._counting:
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
        with self._counting:
            counters = {key: float(value) for key, value in self.counts.items()}
            last = self.last
        counters["seconds_since_checkpoint"] = since if since is not None else -1.0
        detail = f"last: {last.name} ({last.reason})" if last is not None else "none yet"
        return RoleReport(role="checkpoint", healthy=True, counters=counters, detail=detail)
