"""The Checkpoint role's own timer: ticks on its interval, reports its age, stops cleanly."""

from __future__ import annotations

import time

from engine.resilience.checkpointer import Checkpointer
from engine.telemetry.metrics import RunMetrics


def test_ticks_on_its_own_timer_and_reports_the_age() -> None:
    ticked: list[int] = []
    metrics = RunMetrics("test", export=False)
    checkpointer = Checkpointer(0.05, on_tick=lambda: ticked.append(1), metrics=metrics)
    assert checkpointer.report().counters["ticks"] == 0
    checkpointer.start()
    deadline = time.monotonic() + 5
    while len(ticked) < 3 and time.monotonic() < deadline:
        time.sleep(0.01)
    checkpointer.stop()
    assert len(ticked) >= 3
    report = checkpointer.report()
    assert report.role == "checkpoint" and report.counters["ticks"] >= 3
    assert 0 <= report.counters["seconds_since_tick"] < 5
    assert metrics.value("engine_checkpoint_age_seconds") >= 0


def test_no_tick_yet_means_no_age() -> None:
    checkpointer = Checkpointer(300)
    assert checkpointer.seconds_since_tick() is None
    assert checkpointer.report().counters["seconds_since_tick"] == -1.0
    assert checkpointer.tick() == 1 and checkpointer.seconds_since_tick() is not None
