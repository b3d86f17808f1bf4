"""The engine's play clock: hours of emulated game time, summed over every run on one data directory.

Lessons decay with play time, not wall time: a stopped engine forgets nothing, and a fast-forwarded one
ages its lessons as fast as it plays. The clock is a small JSON file beside the lessons, advanced by the
frames each run emulates and written atomically, so it survives restarts and crashes (a crash loses at
most the frames since the last battle ended).
"""

from __future__ import annotations

import json
from pathlib import Path

from engine.files import write_json_atomic
from engine.memory.errors import MemoryStoreError

# The Game Boy's LCD refreshes 4194304 / 70224 ≈ 59.7275 times a second; one frame is one tick of play.
FRAMES_PER_SECOND = 4194304 / 70224
FRAMES_PER_HOUR = FRAMES_PER_SECOND * 3600


class PlayClock:
    def __init__(self, path: Path | None = None) -> None:
        """`path` None keeps the clock in memory only (tests, a run without lesson memory)."""
        self.path = path
        self._hours = self._load() if path is not None else 0.0

    def _load(self) -> float:
        assert self.path is not None
        if not self.path.exists():
            return 0.0
        try:
            hours = float(json.loads(self.path.read_text(encoding="utf-8"))["play_hours"])
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise MemoryStoreError(f"the play clock {self.path} is unreadable: {error}") from error
        if hours < 0:
            raise MemoryStoreError(f"the play clock {self.path} is negative ({hours})")
        return hours

    def hours(self) -> float:
        return self._hours

    def add_frames(self, frames: int) -> float:
        """Advance by `frames` emulated frames (negative counts are ignored) and persist; the new time."""
        if frames > 0:
            self._hours += frames / FRAMES_PER_HOUR
            if self.path is not None:
                write_json_atomic(self.path, {"play_hours": self._hours})
        return self._hours
