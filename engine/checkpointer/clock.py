"""When the next checkpoint is due by time: the interval counts from the last checkpoint written (for any
reason), so a run is never longer than that without one. A background thread keeps the age gauge fresh
between checkpoints, so a dashboard sees a stalled run's checkpoint age grow."""

from __future__ import annotations

import threading
import time

from engine.telemetry.metrics import RunMetrics

AGE_REPORT_SECONDS = 5.0  # how often the age gauge is refreshed


class CheckpointClock:
    def __init__(self, interval_seconds: float, metrics: RunMetrics | None = None) -> None:
        self.interval = interval_seconds
        self.metrics = metrics
        self.started = time.monotonic()
        self.last_written: float | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="checkpoint-age", daemon=True)

    def start(self) -> None:
        if not self._thread.is_alive() and not self._stop.is_set():
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def running(self) -> bool:
        return self._thread.is_alive()

    def written(self) -> None:
        self.last_written = time.monotonic()
        self._report_age()

    def due(self) -> bool:
        return self.age() >= self.interval

    def age(self) -> float:
        """Seconds since the last checkpoint (or since the clock was made, before the first)."""
        return time.monotonic() - (self.last_written if self.last_written is not None else self.started)

    def seconds_since_written(self) -> float | None:
        return None if self.last_written is None else round(time.monotonic() - self.last_written, 3)

    def _loop(self) -> None:
        while not self._stop.wait(min(AGE_REPORT_SECONDS, self.interval)):
            self._report_age()

    def _report_age(self) -> None:
        if self.metrics is not None:
            self.metrics.checkpoint_age(self.age())
