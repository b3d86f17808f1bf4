"""The checkpoint clock: due by time since the last checkpoint written, and the age gauge kept fresh."""

from __future__ import annotations

import time

from engine.checkpointer.clock import CheckpointClock
from engine.telemetry.metrics import RunMetrics


def test_due_once_the_interval_has_passed_since_the_last_checkpoint() -> None:
    clock = CheckpointClock(0.05)
    assert not clock.due()
    time.sleep(0.06)
    assert clock.due()
    clock.written()
    assert not clock.due() and clock.seconds_since_written() is not None


def test_no_checkpoint_yet_means_no_age_but_time_since_start_counts() -> None:
    clock = CheckpointClock(300)
    assert clock.seconds_since_written() is None
    assert 0 <= clock.age() < 5


def test_the_age_gauge_is_refreshed_by_its_thread_and_the_thread_stops() -> None:
    metrics = RunMetrics("test", export=False)
    clock = CheckpointClock(0.05, metrics=metrics)
    clock.start()
    deadline = time.monotonic() + 5
    while metrics.value("engine_checkpoint_age_seconds") == 0 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert metrics.value("engine_checkpoint_age_seconds") > 0
    clock.stop()
    deadline = time.monotonic() + 5
    while clock.running() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not clock.running()
