"""The Checkpoint role's clock: it ticks on its own timer, independent of the game loop, and reports how
long ago it last ticked. (Writing the checkpoint itself at each tick is the checkpoint store's job.)"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from engine.messages import RoleReport
from engine.telemetry.metrics import RunMetrics

AGE_REPORT_SECONDS = 5.0  # how often the age gauge is refreshed between ticks


class Checkpointer:
    def __init__(
        self,
        interval_seconds: float,
        on_tick: Callable[[], None] | None = None,
        metrics: RunMetrics | None = None,
    ) -> None:
        self.interval = interval_seconds
        self.on_tick = on_tick
        self.metrics = metrics
        self.started = time.monotonic()
        self.ticks = 0
        self.last_tick: float | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="checkpoint-timer", daemon=True)

    def start(self) -> None:
        if not self._thread.is_alive():
            self._thread.start()

    def _loop(self) -> None:
        next_tick = time.monotonic() + self.interval
        while not self._stop.wait(min(AGE_REPORT_SECONDS, self.interval)):
            if time.monotonic() >= next_tick:
                self.tick()
                next_tick += self.interval
            self._report_age()

    def _report_age(self) -> None:
        if self.metrics is not None:
            since = self.seconds_since_tick()
            self.metrics.checkpoint_age(since if since is not None else time.monotonic() - self.started)

    def tick(self) -> int:
        self.ticks += 1
        self.last_tick = time.monotonic()
        if self.on_tick is not None:
            self.on_tick()
        return self.ticks

    def seconds_since_tick(self) -> float | None:
        return None if self.last_tick is None else round(time.monotonic() - self.last_tick, 3)

    def stop(self) -> None:
        self._stop.set()

    def report(self) -> RoleReport:
        since = self.seconds_since_tick()
        counters = {"ticks": float(self.ticks), "seconds_since_tick": since if since is not None else -1.0}
        return RoleReport(
            role="checkpoint", healthy=self._thread.is_alive() or self.ticks == 0, counters=counters
        )
