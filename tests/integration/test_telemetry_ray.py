"""Run metrics on a real local Ray instance: recorded inside an actor, read from the node's metrics port.

Ray reports metrics every `metrics_report_interval_ms` (10 s by default); the instance started here
reports every 0.5 s so a value shows up within a second or two. If Ray is already initialised in this
process, that instance and its interval are used; the poll below waits long enough for either.
"""

from __future__ import annotations

import re
import shutil
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
import ray

from engine.telemetry.metrics import METRICS, RUN_TAG, RunMetrics

POLL_SECONDS = 30.0


@pytest.fixture(scope="module")
def ray_instance() -> Iterator[None]:
    if ray.is_initialized():  # another module's instance: use it, and leave it running
        yield
        return
    # address="local" starts a private instance even when a `ray start --head` cluster runs on this
    # machine, and its own temp dir keeps that cluster's session files untouched (short: socket paths
    # must stay under ~107 characters).
    temp_dir = tempfile.mkdtemp(prefix="raytel")
    ray.init(address="local", num_cpus=1, include_dashboard=False, _temp_dir=temp_dir,
             _system_config={"metrics_report_interval_ms": 500})  # fmt: skip
    try:
        yield
    finally:
        ray.shutdown()
        shutil.rmtree(temp_dir, ignore_errors=True)


def metrics_text() -> str:
    port = ray.nodes()[0]["MetricsExportPort"]
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as response:
        return response.read().decode()


def sample(text: str, name: str, **labels: str) -> float | None:
    """The value of the first series of `name` whose labels include `labels`."""
    for match in re.finditer(rf"^{re.escape(name)}\{{(.*)\}} (\S+)$", text, re.MULTILINE):
        found = dict(re.findall(r'(\w+)="((?:[^"\\]|\\.)*)"', match.group(1)))
        if all(found.get(key) == value for key, value in labels.items()):
            return float(match.group(2))
    return None


def wait_for(name: str, expected: float, **labels: str) -> str:
    deadline = time.monotonic() + POLL_SECONDS
    while True:
        text = metrics_text()
        if sample(text, name, **labels) == expected or time.monotonic() > deadline:
            return text
        time.sleep(0.25)


def recorder() -> Any:
    # Defined inside a function so that Ray ships the class by value: workers need not import tests/.
    @ray.remote(num_cpus=0)
    class Recorder:
        def __init__(self, run_id: str) -> None:
            self.metrics = RunMetrics(run_id)  # Ray is initialised in a worker: exports on its own

        def play(self) -> bool:
            self.metrics.decision("battle", seconds=0.01)
            self.metrics.decision("battle", seconds=0.02)
            self.metrics.battle_ended("won", "wild", seconds=20.0)
            self.metrics.perception(reused=True)
            self.metrics.breaker("stub:acting", "open")
            self.metrics.llm_call("acting", tokens_in=100, tokens_out=20, cost_usd=0.5)
            return self.metrics.exporting

    return Recorder


def test_a_metric_recorded_in_an_actor_reaches_the_metrics_endpoint(ray_instance: None) -> None:
    actor = recorder().remote("it-actor")
    try:
        assert ray.get(actor.play.remote(), timeout=60)
        run = {RUN_TAG: "it-actor"}
        text = wait_for("ray_engine_decisions_total", 2.0, kind="battle", **run)
        assert sample(text, "ray_engine_decisions_total", kind="battle", **run) == 2.0
        text = wait_for("ray_engine_breaker_state", 2.0, endpoint="stub:acting", **run)
        assert sample(text, "ray_engine_battles_total", outcome="won", battle_type="wild", **run) == 1.0
        assert sample(text, "ray_engine_perceptions_total", result="reused", **run) == 1.0
        assert sample(text, "ray_engine_breaker_state", endpoint="stub:acting", **run) == 2.0
        assert sample(text, "ray_engine_llm_tokens_total", tier="acting", direction="out", **run) == 20.0
        assert sample(text, "ray_engine_llm_cost_usd_total", tier="acting", **run) == 0.5
        assert sample(text, "ray_engine_decision_seconds_count", kind="battle", **run) == 2.0
        assert sample(text, "ray_engine_battle_seconds_bucket", battle_type="wild", le="30.0", **run) == 1.0
        assert "# TYPE ray_engine_decisions_total counter" in text
    finally:
        ray.kill(actor)


def test_the_driver_exports_too_with_every_metric_named_and_tagged(ray_instance: None) -> None:
    metrics = RunMetrics("it-driver")
    assert metrics.exporting
    for spec in METRICS:
        info = metrics.exported[spec.name].info
        assert info["name"] == spec.name
        assert info["tag_keys"] == (RUN_TAG, *spec.tag_keys)
    metrics.checkpoint_age(42.0)
    text = wait_for("ray_engine_checkpoint_age_seconds", 42.0, run_id="it-driver")
    assert sample(text, "ray_engine_checkpoint_age_seconds", run_id="it-driver") == 42.0
