"""Model tiers through the gateway actor: the same scripted battle on Ray and in-process makes the same
model calls, a dead provider trips one breaker for every role that asks, and each model call is a span in
the trace of the decision that asked, though it is made in another actor."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.config import EngineConfig, config_from_mapping
from engine.runtime.local import run_local
from engine.runtime.options import RunOptions
from engine.runtime.ray_run import run_on_ray
from tests.integration.test_ray_runtime import NAMESPACE, decisions, fake, run_paths
from tests.support.otlp import attributes, collector_on_loopback
from tests.support.sensible_model import failing, sensible
from tests.support.stub_llm import StubLLMServer

pytestmark = pytest.mark.ray
SECRETS = {"STUB_KEY": "sk-stub-abcdefghijklmnop"}
OPTIONS = RunOptions(rom=Path("scripted.gb"), max_decisions=6)
FAILURES_TO_OPEN = 2


@pytest.fixture
def stub() -> Iterator[StubLLMServer]:
    with StubLLMServer(sensible) as server:
        yield server


def models_on(server: StubLLMServer) -> EngineConfig:
    tier = {"provider": "openai", "model": "stub", "base_url": server.openai_base_url,
            "api_key_env": "STUB_KEY", "timeout_s": 2.0, "price_input_per_mtok": 1.0,
            "price_output_per_mtok": 4.0}  # fmt: skip
    return config_from_mapping({
        "runtime": {"namespace": NAMESPACE},
        "models": {"acting": tier, "thinking": tier},
        # The scripted game is a wild battle: route it to the model so there is something to ask.
        "routing": {"tactics_wild": "acting", "strategy_wild": "acting"},
        "llm": {"retry_attempts": 1, "breaker_failures": FAILURES_TO_OPEN, "breaker_reset_seconds": 600},
        # Both runs share a data directory: lessons the first one learned would lengthen (and so change
        # the cost of) the second one's prompts.
        "memory": {"enabled": False},
    })  # fmt: skip


def model_fields(entries: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(e["action"], e["model"]["tier"]) for e in entries if e["kind"] == "battle"]


def test_the_gateway_actor_serves_the_same_calls_as_in_process(
    ray_instance: Any, stub: StubLLMServer, tmp_path: Path
) -> None:
    config = models_on(stub)
    local_paths, ray_paths = run_paths(tmp_path, "t-llm-local"), run_paths(tmp_path, "t-llm-ray")
    local = run_local(config, OPTIONS, local_paths, emulator_factory=fake(), secrets=SECRETS)
    calls_in_process = len(stub.requests)
    on_ray = run_on_ray(config, OPTIONS, ray_paths, fake(), secrets=SECRETS)
    assert local.llm_calls == on_ray.llm_calls == calls_in_process > 0
    assert on_ray.cost_usd == pytest.approx(local.cost_usd) and on_ray.cost_usd > 0
    assert model_fields(decisions(ray_paths)) == model_fields(decisions(local_paths))
    assert {tier for _, tier in model_fields(decisions(ray_paths))} == {"acting"}
    assert ray_paths.llm_log.is_file() and SECRETS["STUB_KEY"] not in ray_paths.llm_log.read_text()


def test_a_dead_provider_trips_one_breaker_for_every_role(
    ray_instance: Any, stub: StubLLMServer, tmp_path: Path
) -> None:
    stub.responder = failing
    paths = run_paths(tmp_path, "t-llm-dead")
    summary = run_on_ray(models_on(stub), OPTIONS, paths, fake(), secrets=SECRETS)
    assert summary.error is None and summary.stopped == "max_decisions"
    assert summary.llm_calls == 0 and summary.llm.fallbacks >= 3  # the strategist's and two tactical asks
    # Strategist and tactician share the gateway's one breaker: it opened after FAILURES_TO_OPEN calls.
    assert len(stub.requests) == FAILURES_TO_OPEN
    assert {tier for _, tier in model_fields(decisions(paths))} == {"rule_based"}


@pytest.mark.parametrize("provider", ["anthropic", "openai"])
def test_model_calls_are_spans_in_the_decisions_trace_across_actors(
    ray_instance: Any, stub: StubLLMServer, tmp_path: Path, provider: str
) -> None:
    base_url = stub.anthropic_base_url if provider == "anthropic" else stub.openai_base_url
    with collector_on_loopback() as collector:
        settings = models_on(stub).model_dump(mode="json")
        tier = settings["models"]["acting"] | {"provider": provider, "base_url": base_url}
        settings["models"] |= {"acting": tier, "thinking": tier}
        settings["telemetry"] = {"exporter": "otlp", "otlp_endpoint": collector.endpoint}
        config = config_from_mapping(settings)
        summary = run_on_ray(config, OPTIONS, run_paths(tmp_path, f"t-trace-{provider}"), fake(),
                             secrets=SECRETS)  # fmt: skip
    spans = collector.spans()
    calls = [span for span in spans if attributes(span).get("gen_ai.operation.name") == "chat"]
    assert summary.llm_calls > 0 and len(calls) == summary.llm_calls  # one GenAI span per call, no more
    assert {attributes(span)["gen_ai.provider.name"] for span in calls} == {provider}
    # Made in the gateway's actor, they belong to traces the conductor started: decision cycles.
    cycles = {span.trace_id for span in spans if span.name == "decision_cycle"}
    assert all(span.trace_id in cycles for span in calls)
    asked_by = {span.span_id: span.name for span in spans}
    ours = [span for span in spans if span.name.startswith("model_call ")]
    askers = {"tactician.choose_battle", "strategist.consider", "reflection.receive"}
    assert ours and {asked_by.get(span.parent_span_id) for span in ours} <= askers
