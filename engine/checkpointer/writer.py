"""The Checkpoint role's writer: one thread that puts checkpoints on disk in the order they were taken.

Taking a checkpoint has to happen between two cycles (the snapshots describe that moment), but writing it
does not: packing the emulator's state, encoding the JSON parts, writing and fsyncing each file, the rename
and the pruning run here while the conductor plays on. The store's guarantees do not change, since it is
the same store doing the same atomic write, only on another thread: a write cut short leaves a hidden
temp folder and the previous checkpoints as they were.

What the conductor gives up is hearing about a failed write at once: results are kept until someone asks
(`take`), which the role does at its next checkpoint, and the run's last checkpoints are waited for
(`drain`). At most one write waits behind the one in progress; a third `submit` waits for room, so a disk
slower than the checkpoints come slows the run down instead of piling snapshots up in memory.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeGuard, TypeVar

from engine.checkpoints.errors import CheckpointError, CheckpointWriteError
from engine.files import DISK_FULL

log = logging.getLogger("engine.checkpoints")
WAITING = 1  # writes that may wait behind the one in progress
Done = TypeVar("Done")


@dataclass(frozen=True)
class Job(Generic[Done]):
    reason: str
    write: Callable[[], Done | None]  # raises CheckpointError when the checkpoint could not be written


@dataclass(frozen=True)
class Results(Generic[Done]):
    """What finished since the last `take`: each job's result, or its error (with `reason` set)."""

    done: tuple[Done, ...] = ()
    failed: tuple[CheckpointError, ...] = ()


def is_disk_full(error: CheckpointError) -> TypeGuard[CheckpointWriteError]:
    return isinstance(error, CheckpointWriteError) and error.code in DISK_FULL


class Writer(Generic[Done]):
    def __init__(self) -> None:
        self._lock = threading.Condition()
        self._jobs: deque[Job[Done]] = deque()
        self._busy = False
        self._done: list[Done] = []
        self._failed: list[CheckpointError] = []
        self._full = False  # a write met a full disk: nothing more is tried, the run stops once it hears
        self._thread: threading.Thread | None = None

    def submit(self, job: Job[Done]) -> None:
        with self._lock:
            while len(self._jobs) >= WAITING:
                self._lock.wait()
            self._jobs.append(job)
            if self._thread is None:
                self._thread = threading.Thread(target=self._loop, name="checkpoint-writer", daemon=True)
                self._thread.start()
            self._lock.notify_all()

    def drain(self) -> None:
        """Until every job submitted so far has finished."""
        with self._lock:
            while self._jobs or self._busy:
                self._lock.wait()

    def take(self) -> Results[Done]:
        with self._lock:
            results = Results(tuple(self._done), tuple(self._failed))
            self._done.clear()
            self._failed.clear()
            return results

    def disk_full(self) -> bool:
        """A write met a full disk: the jobs after it were dropped, and new ones should not be taken."""
        with self._lock:
            return self._full

    def close(self) -> None:
        """Finish what was submitted; the thread ends (a later `submit` starts another)."""
        with self._lock:
            while self._jobs or self._busy:
                self._lock.wait()
            thread, self._thread = self._thread, None
            if thread is not None:
                self._jobs.append(Job("", _stop))
                self._lock.notify_all()
        if thread is not None:
            thread.join()

    def _loop(self) -> None:
        while True:
            with self._lock:
                while not self._jobs:
                    self._lock.wait()
                job = self._jobs.popleft()
                if job.write is _stop:
                    self._lock.notify_all()
                    return
                self._busy = True
                skip = self._full
                self._lock.notify_all()
            if skip:  # behind a full disk: it would fail too, and the run is about to stop
                self._finish(None, None)
            else:
                self._finish(*_run(job))

    def _finish(self, done: Done | None, failure: CheckpointError | None) -> None:
        with self._lock:
            if done is not None:
                self._done.append(done)
            if failure is not None:
                self._failed.append(failure)
                self._full = self._full or is_disk_full(failure)
            self._busy = False
            self._lock.notify_all()


def _stop() -> None:
    """The job that ends the thread."""


def _run(job: Job[Done]) -> tuple[Done | None, CheckpointError | None]:
    try:
        return job.write(), None
    except CheckpointError as exc:
        exc.reason = job.reason
        return None, exc
    except Exception as exc:  # a bug of ours: reported like a failed write, the thread lives on
        log.exception("checkpoint (%s) writer failed", job.reason)
        error = CheckpointError(f"internal error: {type(exc).__name__}: {exc}")
        error.reason = job.reason
        return None, error
