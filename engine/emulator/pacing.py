"""Playing at a chosen multiple of the Game Boy's speed (`--speed`): after each run of frames, sleep until
the wall clock has caught up with the frames played.

The Game Boy draws 59.7275 frames a second (4194304 Hz / 70224 cycles a frame, Pan Docs). The clock is
read only as differences from the first frame paced, so how long the machine has been up is irrelevant.
"""

from __future__ import annotations

import time
from collections.abc import Callable

GAME_BOY_FPS = 4_194_304 / 70_224
CATCH_UP_SECONDS = 0.5  # behind by more than this (a slow step, a long decision): start counting afresh


class Pacer:
    def __init__(self, speed: float, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep) -> None:  # fmt: skip
        self.frame_seconds = 1.0 / (GAME_BOY_FPS * speed)
        self.clock, self.sleep = clock, sleep
        self.started: float | None = None
        self.frames = 0

    def wait(self, frames: int) -> None:
        """Account for `frames` just played: sleep until they are due at the target speed."""
        now = self.clock()
        if self.started is None:
            self.started, self.frames = now, 0
        self.frames += frames
        ahead = self.started + self.frames * self.frame_seconds - now
        if ahead > 0:
            self.sleep(ahead)
        elif -ahead > CATCH_UP_SECONDS:
            # Time spent deciding is not made up by racing afterwards: the pace starts again from here.
            self.started, self.frames = now, 0
