"""Run metrics: exported through `ray.util.metrics` when this process is part of a Ray job, and always
kept in memory so `--local` runs, unit tests, the summary and `engine status` can read them back.

What Ray's metrics endpoint shows (ray 2.60, checked on a local instance): every node serves Prometheus
text on its metrics export port (`ray.nodes()[i]["MetricsExportPort"]`, random unless
`ray start --metrics-export-port=N`; `curl http://NODE:PORT/metrics`). Ray adds the prefix `ray_` to
every name and the suffix `_total` to counters; histograms give `_bucket`/`_count`/`_sum`. Each series
carries Ray's own labels (`Component`, `NodeAddress`, `SessionName`, `Version`, `WorkerId`, ...) besides
ours, so a metric recorded by two processes is two series: sum them by our labels. Values show up one
report interval after they are recorded: ~10 s by default (`metrics_report_interval_ms` in Ray's system
config).

    recorded as                    on the endpoint                                      type
    engine_decisions               ray_engine_decisions_total{kind}                     counter
    engine_decision_seconds        ray_engine_decision_seconds_bucket{kind,le}          histogram
    engine_battles                 ray_engine_battles_total{outcome,battle_type}        counter
    engine_battle_seconds          ray_engine_battle_seconds_bucket{battle_type,le}     histogram
    engine_frames                  ray_engine_frames_total                              counter
    engine_perceptions             ray_engine_perceptions_total{result}                 counter
    engine_llm_calls               ray_engine_llm_calls_total{tier}                     counter
    engine_llm_tokens              ray_engine_llm_tokens_total{tier,direction}          counter
    engine_llm_cost_usd            ray_engine_llm_cost_usd_total{tier}                  counter
    engine_llm_seconds             ray_engine_llm_seconds_bucket{tier,le}               histogram
    engine_breaker_state           ray_engine_breaker_state{endpoint}                   gauge
    engine_checkpoint_age_seconds  ray_engine_checkpoint_age_seconds                    gauge
    engine_checkpoints             ray_engine_checkpoints_total{reason,result}          counter
    engine_checkpoint_seconds      ray_engine_checkpoint_seconds_bucket{le}             histogram
    engine_recoveries              ray_engine_recoveries_total{role}                    counter
    engine_milestones              ray_engine_milestones_total{milestone}               counter
    engine_badges                  ray_engine_badges                                    gauge
    engine_party_size              ray_engine_party_size                                gauge
    engine_party_level             ray_engine_party_level{which}                        gauge
    engine_lessons                 ray_engine_lessons_total{event}                      counter
    engine_llm_fallbacks           ray_engine_llm_fallbacks_total{role}                 counter
    engine_llm_step_downs          ray_engine_llm_step_downs_total{role}                counter

`result` is `decoded` or `reused` (the Vision gate skipped the decode) for perceptions, `written` or
`failed` for checkpoints; `direction` is `in` or `out`; the breaker gauge is 0 closed, 1 half-open,
2 open; `which` is `highest` or `average`; a lesson `event` is `stored` (reflection added or merged one)
or `recalled` (memory returned one for a battle); a fallback is an ask a model was wanted for that the
rule-based tier answered, a step-down an ask that skipped a tier on the way. Every series also has the
label `run_id`, so runs sharing a cluster stay apart. Names use only letters, digits and `_`: Ray drops
any other name with nothing but a warning.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

BreakerState = Literal["closed", "half-open", "open"]  # pybreaker's state names
BREAKER_LEVELS: dict[str, int] = {"closed": 0, "half-open": 1, "open": 2}
InstrumentKind = Literal["counter", "gauge", "histogram"]
Tags = tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class MetricSpec:
    kind: InstrumentKind
    name: str
    description: str
    tag_keys: tuple[str, ...] = ()
    bounds: tuple[float, ...] = ()  # a histogram's bucket upper bounds


DECISION_BOUNDS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
BATTLE_BOUNDS = (5.0, 15.0, 30.0, 60.0, 120.0, 300.0, 600.0, 1800.0)
LLM_BOUNDS = (0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)
CHECKPOINT_BOUNDS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)

METRICS = (
    MetricSpec("counter", "engine_decisions", "Decisions made, by kind", ("kind",)),
    MetricSpec(
        "histogram", "engine_decision_seconds", "Wall time of one decision cycle", ("kind",), DECISION_BOUNDS
    ),
    MetricSpec(
        "counter", "engine_battles", "Battles finished, by outcome and type", ("outcome", "battle_type")
    ),
    MetricSpec(
        "histogram", "engine_battle_seconds", "Wall time of one battle", ("battle_type",), BATTLE_BOUNDS
    ),
    MetricSpec("counter", "engine_frames", "Frames emulated"),
    MetricSpec(
        "counter",
        "engine_perceptions",
        "Looks through Vision: decoded, or reused by the frame gate",
        ("result",),
    ),
    MetricSpec("counter", "engine_llm_calls", "Model calls, by tier", ("tier",)),
    MetricSpec("counter", "engine_llm_tokens", "Model tokens, by tier and direction", ("tier", "direction")),
    MetricSpec("counter", "engine_llm_cost_usd", "Model cost in US dollars, by tier", ("tier",)),
    MetricSpec(
        "histogram", "engine_llm_seconds", "Latency of one model call, by tier", ("tier",), LLM_BOUNDS
    ),
    MetricSpec(
        "gauge", "engine_breaker_state", "Circuit breaker: 0 closed, 1 half-open, 2 open", ("endpoint",)
    ),
    MetricSpec("gauge", "engine_checkpoint_age_seconds", "Seconds since the last checkpoint"),
    MetricSpec(
        "counter", "engine_checkpoints", "Checkpoints attempted, by reason and result", ("reason", "result")
    ),
    MetricSpec(
        "histogram", "engine_checkpoint_seconds", "Wall time to write one checkpoint", (), CHECKPOINT_BOUNDS
    ),
    MetricSpec("counter", "engine_recoveries", "Rollbacks to a checkpoint after a role died", ("role",)),
    MetricSpec("counter", "engine_milestones", "Story milestones reached", ("milestone",)),
    MetricSpec("gauge", "engine_badges", "Gym badges held"),
    MetricSpec("gauge", "engine_party_size", "Pokemon in the party"),
    MetricSpec("gauge", "engine_party_level", "The party's highest and average level", ("which",)),
    MetricSpec("counter", "engine_lessons", "Lessons stored and recalled", ("event",)),
    MetricSpec(
        "counter", "engine_llm_fallbacks", "Asks that fell back to the rule-based tier, by role", ("role",)
    ),
    MetricSpec("counter", "engine_llm_step_downs", "Asks that stepped down a tier, by role", ("role",)),
)
RUN_TAG = "run_id"


def ray_metric(spec: MetricSpec) -> Any:
    """The `ray.util.metrics` object for `spec`, with the run tag first among its tag keys."""
    from ray.util import metrics  # only called once Ray is initialised, so the import is already paid

    tag_keys = (RUN_TAG, *spec.tag_keys)
    if spec.kind == "counter":
        return metrics.Counter(spec.name, spec.description, tag_keys)
    if spec.kind == "gauge":
        return metrics.Gauge(spec.name, spec.description, tag_keys)
    return metrics.Histogram(spec.name, spec.description, list(spec.bounds), tag_keys)


class MetricStore:
    """Every value recorded in this process: counter sums, gauges' last values, histogram count and sum."""

    def __init__(self) -> None:
        self._lock = threading.Lock()  # `engine status` may read while the cycle records
        self._values: dict[str, dict[Tags, float]] = {}
        self._counts: dict[str, dict[Tags, int]] = {}

    def record(self, kind: InstrumentKind, name: str, value: float, tags: Tags) -> None:
        with self._lock:
            series = self._values.setdefault(name, {})
            series[tags] = value if kind == "gauge" else series.get(tags, 0.0) + value
            if kind == "histogram":
                counts = self._counts.setdefault(name, {})
                counts[tags] = counts.get(tags, 0) + 1

    def value(self, name: str, **tags: str) -> float:
        """The sum over the series whose labels include `tags` (for a gauge, name all its labels), 0.0 if
        none does; for a histogram, the sum of its observations."""
        with self._lock:
            return sum(value for key, value in self._values.get(name, {}).items() if _matches(key, tags))

    def count(self, name: str, **tags: str) -> int:
        """How many observations a histogram received in the matching series."""
        with self._lock:
            return sum(count for key, count in self._counts.get(name, {}).items() if _matches(key, tags))

    def series(self, name: str) -> dict[Tags, float]:
        with self._lock:
            return dict(self._values.get(name, {}))


def _matches(key: Tags, wanted: Mapping[str, str]) -> bool:
    labels = dict(key)
    return all(labels.get(tag) == value for tag, value in wanted.items())


def ray_is_initialized() -> bool:
    # No import of ray means no Ray job in this process, and `--local` never pays for importing it.
    ray = sys.modules.get("ray")
    return ray is not None and bool(ray.is_initialized())


class RunMetrics:
    """The engine's metrics for one run, recorded in the process where the counted thing happens.

    `export` decides whether values also go to Ray; `None` means "if Ray is initialised in this process"
    (inside an actor, or in a driver after `ray.init`). One per process: the conductor's counts decisions,
    battles, frames and perceptions; the model gateway's counts model calls and breaker states.
    """

    def __init__(self, run_id: str = "", *, export: bool | None = None) -> None:
        self.run_id = run_id
        self.exporting = ray_is_initialized() if export is None else export
        self.store = MetricStore()
        self.specs = {spec.name: spec for spec in METRICS}
        self.exported: dict[str, Any] = {}
        if self.exporting:
            self.exported = {spec.name: ray_metric(spec) for spec in METRICS}
        self._last_frame: int | None = None
        self._last_party: tuple[int, tuple[int, ...]] | None = None

    # -- what the engine records -------------------------------------------------------------------
    def decision(self, kind: str, seconds: float | None = None) -> None:
        """One decision (`battle` or `overworld`); `seconds`, if given, is the cycle's wall time."""
        self._record("engine_decisions", 1, kind=kind)
        if seconds is not None:
            self._record("engine_decision_seconds", seconds, kind=kind)

    def battle_ended(self, outcome: str, battle_type: str, seconds: float | None = None) -> None:
        self._record("engine_battles", 1, outcome=outcome, battle_type=battle_type)
        if seconds is not None:
            self._record("engine_battle_seconds", seconds, battle_type=battle_type)

    def frames(self, total: int) -> None:
        """The emulator's running frame count (`Perception.frame` will do); the counter grows by the frames
        emulated since the last call. A smaller total (a save state was loaded) only moves the baseline."""
        last, self._last_frame = self._last_frame, total
        if last is not None and total > last:
            self._record("engine_frames", total - last)

    def perception(self, reused: bool) -> None:
        """One look through Vision; `reused` is `Perception.reused` (the gate skipped the decode)."""
        self._record("engine_perceptions", 1, result="reused" if reused else "decoded")

    def llm_call(
        self, tier: str, tokens_in: int, tokens_out: int, cost_usd: float, seconds: float | None = None
    ) -> None:
        self._record("engine_llm_calls", 1, tier=tier)
        self._record("engine_llm_tokens", tokens_in, tier=tier, direction="in")
        self._record("engine_llm_tokens", tokens_out, tier=tier, direction="out")
        self._record("engine_llm_cost_usd", cost_usd, tier=tier)
        if seconds is not None:
            self._record("engine_llm_seconds", seconds, tier=tier)

    def breaker(self, endpoint: str, state: BreakerState) -> None:
        self._record("engine_breaker_state", BREAKER_LEVELS[state], endpoint=endpoint)

    def checkpoint_age(self, seconds: float) -> None:
        self._record("engine_checkpoint_age_seconds", seconds)

    def checkpoint(self, reason: str, seconds: float | None) -> None:
        """One checkpoint attempt: `seconds` is its write time, None when it failed."""
        self._record(
            "engine_checkpoints", 1, reason=reason, result="failed" if seconds is None else "written"
        )
        if seconds is not None:
            self._record("engine_checkpoint_seconds", seconds)

    def recovery(self, role: str) -> None:
        self._record("engine_recoveries", 1, role=role)

    def milestone(self, name: str) -> None:
        self._record("engine_milestones", 1, milestone=name)

    def party(self, badges: int, levels: list[int]) -> None:
        """The player's progress as gauges; set again only when it changed (Ray's gauges keep a value)."""
        now = (badges, tuple(levels))
        if now == self._last_party:
            return
        self._last_party = now
        self._record("engine_badges", badges)
        self._record("engine_party_size", len(levels))
        if levels:
            self._record("engine_party_level", max(levels), which="highest")
            self._record("engine_party_level", round(sum(levels) / len(levels), 2), which="average")

    def lessons(self, event: str, count: int) -> None:
        self._record("engine_lessons", count, event=event)

    def stepped_down(self, role: str, fell_back: bool) -> None:
        self._record("engine_llm_step_downs", 1, role=role)
        if fell_back:
            self._record("engine_llm_fallbacks", 1, role=role)

    # -- reading back what this process recorded ----------------------------------------------------
    def value(self, name: str, **tags: str) -> float:
        return self.store.value(name, **tags)

    def count(self, name: str, **tags: str) -> int:
        return self.store.count(name, **tags)

    def _record(self, name: str, value: float, **tags: str) -> None:
        kind = self.specs[name].kind
        if kind == "counter" and value <= 0:
            return  # nothing happened, and Ray's Counter.inc refuses values <= 0
        labels = {RUN_TAG: self.run_id, **tags}
        self.store.record(kind, name, float(value), tuple(sorted(labels.items())))
        metric = self.exported.get(name)
        if metric is None:
            return
        if kind == "counter":
            metric.inc(value, tags=labels)
        elif kind == "gauge":
            metric.set(value, tags=labels)
        else:
            metric.observe(value, tags=labels)
