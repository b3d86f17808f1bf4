"""Run metrics without Ray: the in-memory values every process keeps, and when Ray export switches on."""

from __future__ import annotations

import subprocess
import sys
import types

import pytest

from engine.telemetry import Telemetry
from engine.telemetry.metrics import METRICS, RunMetrics, ray_is_initialized


@pytest.fixture
def metrics() -> RunMetrics:
    return RunMetrics("run-1", export=False)


def test_decisions_by_kind_with_their_durations(metrics: RunMetrics) -> None:
    metrics.decision("battle", seconds=0.02)
    metrics.decision("battle", seconds=0.04)
    metrics.decision("overworld")
    assert metrics.value("engine_decisions", kind="battle") == 2
    assert metrics.value("engine_decisions", kind="overworld") == 1
    assert metrics.value("engine_decisions") == 3
    assert metrics.count("engine_decision_seconds", kind="battle") == 2
    assert metrics.value("engine_decision_seconds", kind="battle") == pytest.approx(0.06)
    assert metrics.count("engine_decision_seconds", kind="overworld") == 0


def test_battles_by_outcome_and_type(metrics: RunMetrics) -> None:
    metrics.battle_ended("won", "wild", seconds=12.5)
    metrics.battle_ended("won", "trainer")
    metrics.battle_ended("lost", "trainer")
    assert metrics.value("engine_battles", outcome="won") == 2
    assert metrics.value("engine_battles", battle_type="trainer") == 2
    assert metrics.value("engine_battles", outcome="lost", battle_type="trainer") == 1
    assert metrics.count("engine_battle_seconds") == 1


def test_frames_count_what_was_emulated_since_the_last_look(metrics: RunMetrics) -> None:
    metrics.frames(1000)  # the first total is only a baseline: frames before the run are not the run's
    assert metrics.value("engine_frames") == 0
    metrics.frames(1600)
    metrics.frames(1600)
    metrics.frames(2000)
    assert metrics.value("engine_frames") == 1000
    metrics.frames(500)  # a save state was loaded: the count starts again from there
    metrics.frames(800)
    assert metrics.value("engine_frames") == 1300


def test_perceptions_count_the_gate_skips(metrics: RunMetrics) -> None:
    for reused in (False, True, True, False, True):
        metrics.perception(reused)
    assert metrics.value("engine_perceptions", result="reused") == 3
    assert metrics.value("engine_perceptions", result="decoded") == 2


def test_llm_calls_tokens_and_cost_by_tier(metrics: RunMetrics) -> None:
    metrics.llm_call("acting", tokens_in=1200, tokens_out=80, cost_usd=0.0016, seconds=0.8)
    metrics.llm_call("acting", tokens_in=900, tokens_out=60, cost_usd=0.0012)
    metrics.llm_call("thinking", tokens_in=3000, tokens_out=500, cost_usd=0.0165, seconds=4.0)
    metrics.llm_call("rule_based", tokens_in=0, tokens_out=0, cost_usd=0.0)  # free: counted, nothing else
    assert metrics.value("engine_llm_calls", tier="acting") == 2
    assert metrics.value("engine_llm_calls") == 4
    assert metrics.value("engine_llm_tokens", tier="acting", direction="in") == 2100
    assert metrics.value("engine_llm_tokens", tier="acting", direction="out") == 140
    assert metrics.value("engine_llm_tokens", tier="rule_based") == 0
    assert metrics.value("engine_llm_cost_usd") == pytest.approx(0.0193)
    assert metrics.count("engine_llm_seconds") == 2


def test_breaker_state_per_endpoint_as_a_level(metrics: RunMetrics) -> None:
    metrics.breaker("anthropic:claude", "open")
    metrics.breaker("openai:local", "closed")
    metrics.breaker("anthropic:claude", "half-open")
    assert metrics.value("engine_breaker_state", endpoint="anthropic:claude") == 1
    assert metrics.value("engine_breaker_state", endpoint="openai:local") == 0
    metrics.breaker("openai:local", "open")
    assert metrics.value("engine_breaker_state", endpoint="openai:local") == 2


def test_checkpoint_age_keeps_the_last_value(metrics: RunMetrics) -> None:
    metrics.checkpoint_age(290.0)
    metrics.checkpoint_age(3.5)
    assert metrics.value("engine_checkpoint_age_seconds") == 3.5


def test_badges_and_party_levels_as_gauges(metrics: RunMetrics) -> None:
    metrics.party(0, [5])
    metrics.party(1, [12, 9, 6])
    assert metrics.value("engine_badges") == 1.0 and metrics.value("engine_party_size") == 3.0
    assert metrics.value("engine_party_level", which="highest") == 12.0
    assert metrics.value("engine_party_level", which="average") == 9.0


def test_every_series_carries_the_run_id(metrics: RunMetrics) -> None:
    metrics.decision("battle")
    (labels,) = metrics.store.series("engine_decisions")
    assert dict(labels) == {"run_id": "run-1", "kind": "battle"}
    assert metrics.value("engine_decisions", run_id="run-2") == 0


def test_metric_names_are_ones_ray_exports() -> None:
    names = [spec.name for spec in METRICS]
    assert len(set(names)) == len(names)
    for spec in METRICS:
        assert spec.name.startswith("engine_")
        assert spec.name.replace("_", "").isalnum()  # Ray silently drops names with anything else
        assert not spec.name.endswith("_total")  # Ray adds it to counters
        assert (spec.kind == "histogram") == bool(spec.bounds)
        assert list(spec.bounds) == sorted(spec.bounds)


def test_nothing_is_exported_without_ray(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(sys.modules, "ray", raising=False)
    assert not ray_is_initialized()
    assert not RunMetrics("run-1").exporting


def test_export_follows_ray_being_initialised(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = types.ModuleType("ray")
    fake.is_initialized = lambda: False  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "ray", fake)
    assert not RunMetrics().exporting
    fake.is_initialized = lambda: True  # type: ignore[attr-defined]
    assert ray_is_initialized()


def test_a_disabled_telemetry_records_in_memory_only() -> None:
    telemetry = Telemetry.disabled()
    assert not telemetry.metrics.exporting and not telemetry.tracing.enabled
    telemetry.metrics.decision("overworld")
    assert telemetry.metrics.value("engine_decisions") == 1
    telemetry.shutdown()


def test_importing_telemetry_does_not_import_ray() -> None:
    code = "import sys, engine.telemetry; assert 'ray' not in sys.modules, 'ray was imported'"
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)
