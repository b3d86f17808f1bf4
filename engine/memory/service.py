"""`LessonMemory`: the memory role. One per engine, the only writer of the embedded lesson directory.

It puts the play clock and the Chroma store behind a few verbs: `learn` (reflection and replays add
lessons), `recall` (lessons for a prompt), `measured_for` (the numbers the rule-based policy uses),
`played` (the conductor advances the clock). On Ray it is the memory actor; with `--local` and in the
standalone commands it is a plain object. A lock file keeps a second process from opening the same
embedded directory, which Chroma would let happen and then corrupt silently.
"""

from __future__ import annotations

import fcntl
import logging
import os
import threading
import time
import uuid
from pathlib import Path
from typing import IO

from engine.config import MemoryConfig
from engine.errors import UserInputError
from engine.files import StorageError
from engine.memory.clock import PlayClock
from engine.memory.errors import MemoryStoreError
from engine.memory.lessons import Lesson, LessonContext, LessonKind, decayed_confidence, equivalence_key
from engine.memory.store import LessonStore
from engine.messages import RoleReport
from engine.procedural.scope import Scope
from engine.telemetry.metrics import RunMetrics

log = logging.getLogger("engine.memory")
LOCK_FILE = "writer.lock"
CHROMA_DIR = "chroma"
CLOCK_FILE = "clock.json"
MARKS_SECONDS = 30.0  # the longest the last-used marks of recalled lessons wait to be written
# A replay's regret is followed while its confidence now is at least this (it starts at 0.4-0.9), and each
# battle lost while following it multiplies its confidence by CONTRADICTED: twice is enough to retire one.
FOLLOWED_FROM = 0.3
CONTRADICTED = 0.5


class MemoryBusyError(MemoryStoreError, UserInputError):
    """Another process has the embedded lesson directory open (the user can fix it: see the message)."""


def new_lesson_id() -> str:
    return uuid.uuid4().hex


def collection_name(config: MemoryConfig, scope: Scope | None) -> str:
    """The Chroma collection of a scope's lessons: `<collection>-<embedding>-<scope slug>`, so each
    (harness level, model) learns apart (3-512 characters of [a-zA-Z0-9._-], as Chroma wants: the slug is
    at most ~90 characters, starts with the level and ends with a letter or digit). Without a scope, the
    unscoped collection the engine used before harness levels (`<collection>-<embedding>`)."""
    base = f"{config.collection}-{config.embedding}"
    return base if scope is None else f"{base}-{scope.slug}"


def _lock(directory: Path) -> IO[str]:
    directory.mkdir(parents=True, exist_ok=True)
    handle = (directory / LOCK_FILE).open("a+", encoding="utf-8")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.seek(0)
        holder = handle.read().strip() or "another process"
        handle.close()
        raise MemoryBusyError(
            f"the lesson memory in {directory} is open in {holder}: stop that engine, send the command "
            "to it with --address, or give this one its own --data-dir"
        ) from None
    handle.seek(0)
    handle.truncate()
    handle.write(f"process {os.getpid()}\n")
    handle.flush()
    return handle


class LessonMemory:
    def __init__(
        self,
        config: MemoryConfig,
        directory: Path | None,
        metrics: RunMetrics | None = None,
        scope: Scope | None = None,
    ) -> None:
        """`directory` is DATA_DIR/memory; None (or memory disabled) keeps nothing: every verb still
        answers, with no lessons. `scope` (harness level, model) picks the collection: one scope never
        sees another's lessons (engine.procedural.scope says which scope a config plays in)."""
        self.config = config
        self.scope = scope
        self.metrics = metrics
        self._mutex = threading.Lock()  # --local: reflection's thread and the tactician share this object
        self._lock_handle: IO[str] | None = None
        self.store: LessonStore | None = None
        self.counts = {"learned": 0, "merged": 0, "recalled": 0, "pruned": 0, "contradicted": 0}
        enabled = config.enabled and directory is not None
        self.clock = PlayClock(directory / CLOCK_FILE if enabled and directory else None)
        self._clock_unsaved = False  # said once: a full disk is not news at every battle
        self._marks_written = time.monotonic()
        if enabled:
            assert directory is not None
            self.store = self._open(config, directory)
            self.counts["pruned"] = self.store.prune(self.clock.hours())

    def _open(self, config: MemoryConfig, directory: Path) -> LessonStore:
        common = {
            "collection": collection_name(config, self.scope),
            "embedding": config.embedding,
            "rate_per_hour": config.decay_per_hour,
            "floor": config.prune_below,
        }
        if config.backend == "http":
            return LessonStore(http=(config.host, config.port), **common)  # type: ignore[arg-type]
        self._lock_handle = _lock(directory)
        try:
            return LessonStore(directory / CHROMA_DIR, **common)  # type: ignore[arg-type]
        except MemoryStoreError:
            self._release()
            raise

    @property
    def enabled(self) -> bool:
        return self.store is not None

    # -- the clock ---------------------------------------------------------------------------------
    def play_hours(self) -> float:
        return self.clock.hours()

    def played(self, frames: int) -> float:
        """Advance the play clock (the conductor calls this as battles end); write the last-used marks
        retrieval keeps in memory if the last write is MARKS_SECONDS old (a crash loses at most that much
        recency, never a lesson; a write costs ~9 ms and wild battles come every few seconds), and read
        Chroma afresh from here on (what another writer of a shared server added is seen a battle later)."""
        with self._mutex:
            if self.store is not None:
                now = time.monotonic()
                if now - self._marks_written >= MARKS_SECONDS:
                    self.store.flush()
                    self._marks_written = now
                self.store.forget_answers()
            try:
                return self.clock.add_frames(frames)
            except StorageError as exc:
                # The time stays counted here and is written with the next advance; a resumed run adds
                # what its checkpoint had not yet put on the clock.
                if not self._clock_unsaved:
                    log.warning("play clock not saved: %s", exc)
                self._clock_unsaved = True
                return self.clock.hours()

    # -- lessons -----------------------------------------------------------------------------------
    def learn(self, lessons: list[Lesson]) -> list[Lesson]:
        """Store lessons at the current play time, each merged into an equivalent stored one if any."""
        if self.store is None:
            return []
        with self._mutex:
            now = self.clock.hours()
            stamped = [
                lesson.model_copy(update={"created_play_hours": now, "updated_play_hours": now})
                for lesson in lessons
            ]
            # One lookup and one write for the whole list (each Chroma call is tens of milliseconds,
            # under the mutex the decisions' recalls wait for); each lesson answers with the record
            # its equivalence key ended as.
            written = {equivalence_key(kept): kept for kept in self.store.add_many(stamped, now)}
            stored = [written[equivalence_key(lesson)] for lesson in stamped]
            for lesson, kept in zip(lessons, stored, strict=True):
                self.counts["merged" if kept.lesson_id != lesson.lesson_id else "learned"] += 1
        if self.metrics is not None:
            self.metrics.lessons("stored", len(stored))
        return stored

    def recall(self, query: str, context: LessonContext, k: int | None = None) -> list[Lesson]:
        """The most relevant lessons for a situation, best first (marked used)."""
        if self.store is None:
            return []
        with self._mutex:
            found = self.store.retrieve(
                query,
                context,
                self.clock.hours(),
                k=self.config.retrieve_k if k is None else k,
                threshold=self.config.retrieve_threshold,
            )
        self.counts["recalled"] += len(found)
        if self.metrics is not None:
            self.metrics.lessons("recalled", len(found))
        return [lesson for lesson, _ in found]

    def measured_for(self, enemy_species: str) -> list[Lesson]:
        """Move lessons with observed numbers against one species (the rule-based policy's evidence)."""
        if self.store is None:
            return []
        with self._mutex:
            return self.store.where(
                {"$and": [{"species": enemy_species.upper()}, {"measured_uses": {"$gte": 1}}]}
            )

    def preferences_for(self, enemy_species: str, opponent: str | None) -> list[Lesson]:
        """Replays' regrets against one species in a battle with `opponent` (a trainer's: replays follow
        losses to trainers, and a wild battle asks nothing), while their confidence now is FOLLOWED_FROM or
        more: what the rule-based policy does instead of the action a lost battle took."""
        if self.store is None or opponent is None:
            return []
        with self._mutex:
            regrets = {"$and": [{"opponent": opponent}, {"kind": {"$in": ["move", "sequence"]}}]}
            found = self.store.where(regrets)
            now = self.clock.hours()
        species = enemy_species.upper()
        rate = self.config.decay_per_hour
        return [lesson for lesson in found
                if lesson.prefer and lesson.instead_of and lesson.species[-1:] == (species,)
                and decayed_confidence(lesson, now, rate) >= FOLLOWED_FROM]  # fmt: skip

    def contradict(self, texts: list[str]) -> list[Lesson]:
        """Replays' regrets that were followed in a battle lost all the same: each one's confidence is
        multiplied by CONTRADICTED, so that one that stopped being true (or never was) is soon no longer
        followed (FOLLOWED_FROM). Returns them as stored now."""
        if self.store is None or not texts:
            return []
        with self._mutex:
            found = [lesson for lesson in self.store.where({"kind": {"$in": ["move", "sequence"]}})
                     if lesson.prefer and lesson.text in texts]  # fmt: skip
            weakened = [lesson.model_copy(update={"confidence": lesson.confidence * CONTRADICTED})
                        for lesson in found]  # fmt: skip
            self.store.put(weakened)
        self.counts["contradicted"] += len(weakened)
        return weakened

    def lessons(self, kind: LessonKind | None = None) -> list[Lesson]:
        if self.store is None:
            return []
        with self._mutex:
            found = self.store.where({"kind": kind}) if kind else self.store.all()
        return sorted(found, key=lambda lesson: lesson.updated_play_hours, reverse=True)

    def search(self, query: str, k: int = 10) -> list[tuple[Lesson, float]]:
        """Lessons by relevance to free text, without marking them used (a person is looking)."""
        if self.store is None:
            return []
        with self._mutex:
            return self.store.retrieve(query, LessonContext(), self.clock.hours(), k=k, threshold=0.0,
                                       mark_used=False)  # fmt: skip

    def fights(self) -> list[tuple[Lesson, float]]:
        """The boss fights' records ("outcome" lessons), oldest first, each with its confidence now (a
        calibration weighs them by it: engine/experience/calibration.py)."""
        if self.store is None:
            return []
        with self._mutex:
            found = self.store.where({"kind": "outcome"})
            now = self.clock.hours()
        found.sort(key=lambda lesson: lesson.created_play_hours)
        rate = self.config.decay_per_hour
        return [(lesson, decayed_confidence(lesson, now, rate)) for lesson in found]

    def confidence_now(self, lesson: Lesson) -> float:
        return decayed_confidence(lesson, self.clock.hours(), self.config.decay_per_hour)

    def report(self) -> RoleReport:
        counters = {key: float(value) for key, value in self.counts.items()}
        counters["play_hours"] = round(self.clock.hours(), 3)
        if self.store is not None:
            counters["lessons"] = float(self.store.count())
        return RoleReport(role="memory", healthy=True, counters=counters,
                          detail="" if self.enabled else "disabled")  # fmt: skip

    def _release(self) -> None:
        handle, self._lock_handle = self._lock_handle, None
        if handle is not None:
            fcntl.flock(handle, fcntl.LOCK_UN)
            handle.close()

    def close(self) -> None:
        store, self.store = self.store, None
        try:
            if store is not None:
                store.close()
        finally:
            self._release()
