"""The model gateway end to end: real SDK clients (strict response validation) against local stub servers
that speak the Anthropic and OpenAI wire formats, with retries, breakers, repair, fallback and budgets."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.config import LLMConfig, ModelsConfig, ModelTierConfig
from engine.llm.gateway import ModelGateway, describe_tiers, secrets_from
from engine.llm.tasks import ModelTask
from engine.messages import Tier
from engine.telemetry.metrics import RunMetrics
from engine.telemetry.tracing import Tracing
from tests.support.stub_llm import StubLLMServer, StubReply, always, script

KEY = "sk-stub-0123456789abcdef"
GOOD = json.dumps({"action_id": 1, "reasoning": "BUBBLE is super effective", "confidence": 0.8})
FAST_RETRIES = LLMConfig(
    retry_attempts=3, retry_initial_seconds=0.01, retry_max_seconds=0.05, breaker_failures=3,
    breaker_reset_seconds=0.5,
)  # fmt: skip
PROVIDERS = ("anthropic", "openai")


@pytest.fixture
def server() -> Iterator[StubLLMServer]:
    with StubLLMServer(always(StubReply(text=GOOD))) as stub:
        yield stub


def tier_on(server: StubLLMServer, provider: str, **changes: object) -> ModelTierConfig:
    base = server.anthropic_base_url if provider == "anthropic" else server.openai_base_url
    values: dict[str, object] = {
        "provider": provider, "model": f"stub-{provider}", "base_url": base, "api_key_env": "STUB_KEY",
        "max_tokens": 200, "timeout_s": 2.0, "price_input_per_mtok": 2.0, "price_output_per_mtok": 10.0,
    }  # fmt: skip
    return ModelTierConfig.model_validate(values | changes)


def gateway(
    acting: ModelTierConfig | None,
    thinking: ModelTierConfig | None = None,
    llm: LLMConfig = FAST_RETRIES,
    log_path: Path | None = None,
    metrics: RunMetrics | None = None,
    tracing: Tracing | None = None,
) -> ModelGateway:
    models = ModelsConfig(acting=acting, thinking=thinking)
    return ModelGateway(models, llm, {"STUB_KEY": KEY}, log_path=log_path, metrics=metrics, strict=True,
                        tracing=tracing)  # fmt: skip


def tactical(wanted: Tier = "acting", ids: tuple[int, ...] = (0, 1, 2), user: str = "pick") -> ModelTask:
    return ModelTask(
        role="tactician", answer="tactical", wanted=wanted, reason="trainer battle", system="You play.",
        user=user, action_ids=ids, battle_id="r-b001",
    )  # fmt: skip


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_correct_answer_comes_back_validated_and_costed(server: StubLLMServer, provider: str) -> None:
    server.responder = always(StubReply(text=GOOD, input_tokens=1200, output_tokens=80))
    outcome = gateway(tier_on(server, provider)).ask(tactical())
    assert outcome.answer is not None
    assert outcome.answer.action_id == 1
    selection = outcome.selection
    assert (selection.tier, selection.wanted, selection.calls) == ("acting", "acting", 1)
    assert (selection.tokens_in, selection.tokens_out) == (1200, 80)
    assert selection.cost_usd == pytest.approx((1200 * 2.0 + 80 * 10.0) / 1e6)
    assert selection.est_cost_usd > 0
    assert server.requests[0].wire == provider


@pytest.mark.parametrize("provider", PROVIDERS)
def test_usage_based_cost_adds_up_over_calls(server: StubLLMServer, provider: str) -> None:
    replies = [StubReply(text=GOOD, input_tokens=n * 100, output_tokens=n * 7) for n in (1, 2, 3)]
    server.responder = script(*replies)
    models = gateway(tier_on(server, provider))
    for _ in replies:
        models.ask(tactical())
    usage = models.usage()
    assert (usage.calls, usage.tokens_in, usage.tokens_out) == (3, 600, 42)
    assert usage.cost_usd == pytest.approx((600 * 2.0 + 42 * 10.0) / 1e6)
    assert usage.by_tier["acting"].calls == 3
    assert usage.spent_last_hour_usd == pytest.approx(usage.cost_usd)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_rate_limit_is_retried_then_succeeds(server: StubLLMServer, provider: str, tmp_path: Path) -> None:
    server.responder = script(StubReply(status=429), StubReply(text=GOOD))
    log = tmp_path / "llm.jsonl"
    outcome = gateway(tier_on(server, provider), log_path=log).ask(tactical())
    assert outcome.answer is not None and outcome.selection.tier == "acting"
    assert len(server.requests) == 2
    calls = [e for e in map(json.loads, log.read_text().splitlines()) if e["event"] == "call"]
    assert [bool(e["error"]) for e in calls] == [True, False]
    assert "TransientModelError" in calls[0]["error"]


@pytest.mark.parametrize("provider", PROVIDERS)
def test_server_errors_open_the_breaker_then_calls_fail_fast_and_recover(
    server: StubLLMServer, provider: str
) -> None:
    server.responder = always(StubReply(status=500))
    metrics = RunMetrics("t", export=False)
    models = gateway(tier_on(server, provider), llm=FAST_RETRIES.model_copy(update={"retry_attempts": 1}),
                     metrics=metrics)  # fmt: skip
    for _ in range(3):
        assert models.ask(tactical()).answer is None
    assert len(server.requests) == 3
    endpoint = next(iter(models.breaker_states()))
    assert models.breaker_states()[endpoint] == "open"
    assert metrics.value("engine_breaker_state", endpoint=endpoint) == 2

    fast = models.ask(tactical())
    assert fast.answer is None and fast.selection.tier == "rule_based"
    assert len(server.requests) == 3  # the open breaker never let the call out
    assert any("circuit breaker open" in step for step in fast.selection.steps)

    server.responder = always(StubReply(text=GOOD))
    time.sleep(FAST_RETRIES.breaker_reset_seconds + 0.1)
    recovered = models.ask(tactical())
    assert recovered.answer is not None and recovered.selection.tier == "acting"
    assert models.breaker_states()[endpoint] == "closed"
    assert metrics.value("engine_breaker_state", endpoint=endpoint) == 0
    assert models.usage().fallbacks == 4


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_timeout_falls_back_to_rule_based(server: StubLLMServer, provider: str) -> None:
    server.responder = always(StubReply(text=GOOD, delay_s=1.0))
    metrics = RunMetrics("r", export=False)
    models = gateway(tier_on(server, provider, timeout_s=0.3), metrics=metrics)
    outcome = models.ask(tactical())
    assert outcome.answer is None and outcome.selection.tier == "rule_based"
    assert metrics.value("engine_llm_fallbacks", role="tactician") == 1.0
    assert metrics.value("engine_llm_step_downs", role="tactician") == 1.0
    assert outcome.selection.wanted == "acting"
    assert "acting" in outcome.selection.steps[0]
    # Retries stop at the tier's timeout in total, so a slow provider costs at most about two timeouts.
    assert 1 <= len(server.requests) <= 2


@pytest.mark.parametrize("provider", PROVIDERS)
def test_prose_instead_of_json_gets_one_repair_prompt(server: StubLLMServer, provider: str) -> None:
    server.responder = script(StubReply(text="I would use BUBBLE here."), StubReply(text=GOOD))
    models = gateway(tier_on(server, provider))
    outcome = models.ask(tactical())
    assert outcome.answer is not None and outcome.answer.action_id == 1
    assert len(server.requests) == 2
    repair = server.requests[1]
    assert "JSON" in repair.last_user_text
    assert outcome.selection.calls == 2
    usage = models.usage()
    assert (usage.repairs, usage.invalid_answers) == (1, 1)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_an_illegal_action_twice_falls_back(server: StubLLMServer, provider: str, tmp_path: Path) -> None:
    illegal = json.dumps({"action_id": 7, "reasoning": "all in", "confidence": 0.9})
    server.responder = always(StubReply(text=illegal))
    log = tmp_path / "llm.jsonl"
    models = gateway(tier_on(server, provider), log_path=log)
    outcome = models.ask(tactical(ids=(0, 1, 2)))
    assert outcome.answer is None and outcome.selection.tier == "rule_based"
    assert len(server.requests) == 2
    assert "7" in server.requests[1].last_user_text and "0, 1, 2" in server.requests[1].last_user_text
    checks = [
        e["validation"] for e in map(json.loads, log.read_text().splitlines()) if e["event"] == "validation"
    ]
    assert len(checks) == 2 and all(check.startswith("invalid") for check in checks)


def test_a_malformed_response_body_falls_back(server: StubLLMServer) -> None:
    server.responder = always(StubReply(raw_body=b"{not json"))
    outcome = gateway(tier_on(server, "openai")).ask(tactical())
    assert outcome.answer is None and outcome.selection.tier == "rule_based"


def test_thinking_falls_back_to_acting_when_its_provider_is_down(server: StubLLMServer) -> None:
    with StubLLMServer(always(StubReply(status=503))) as dead:
        metrics = RunMetrics("r", export=False)
        once = FAST_RETRIES.model_copy(update={"retry_attempts": 1})
        models = gateway(tier_on(server, "openai"), thinking=tier_on(dead, "anthropic"), llm=once,
                         metrics=metrics)  # fmt: skip
        outcome = models.ask(tactical(wanted="thinking"))
    assert metrics.value("engine_llm_step_downs", role="tactician") == 1.0
    assert metrics.value("engine_llm_fallbacks") == 0.0  # acting answered: a step down, no fallback
    assert outcome.answer is not None
    assert (outcome.selection.tier, outcome.selection.wanted) == ("acting", "thinking")
    assert outcome.selection.steps[0].startswith("thinking:")
    assert models.usage().step_downs == 1 and models.usage().fallbacks == 0


def test_over_budget_the_router_steps_down(server: StubLLMServer, caplog: pytest.LogCaptureFixture) -> None:
    server.responder = always(StubReply(text=GOOD, input_tokens=1000, output_tokens=100))
    per_call = (1000 * 2.0 + 100 * 10.0) / 1e6
    budget = FAST_RETRIES.model_copy(update={"budget_hourly_usd": per_call * 1.2})
    models = gateway(tier_on(server, "anthropic"), llm=budget)
    assert models.ask(tactical()).selection.tier == "acting"
    second = models.ask(tactical())
    assert second.selection.tier == "rule_based"
    assert any("hourly budget" in step for step in second.selection.steps)
    assert len(server.requests) == 1
    assert "over budget" in caplog.text


def test_without_a_key_every_tier_is_off_and_says_why() -> None:
    models = ModelsConfig()
    secrets = secrets_from(models, {"UNRELATED": "x"})
    assert secrets == {}
    assert "every decision uses the free rule-based tier" in describe_tiers(models, secrets)
    assert "ANTHROPIC_API_KEY not set" in describe_tiers(models, secrets)
    offline = ModelGateway(models, LLMConfig(), secrets)
    assert offline.available() == ()
    outcome = offline.ask(tactical(wanted="thinking"))
    assert outcome.answer is None
    assert outcome.selection.steps == (
        "thinking: ANTHROPIC_API_KEY not set",
        "acting: ANTHROPIC_API_KEY not set",
    )


def test_with_a_key_the_startup_line_names_the_live_tiers() -> None:
    models = ModelsConfig()
    secrets = secrets_from(models, {"ANTHROPIC_API_KEY": KEY})
    assert secrets == {"ANTHROPIC_API_KEY": KEY}
    line = describe_tiers(models, secrets)
    assert "acting = anthropic claude-haiku-4-5" in line and KEY not in line


def test_the_call_log_redacts_keys_and_records_everything(server: StubLLMServer, tmp_path: Path) -> None:
    log = tmp_path / "llm.jsonl"
    models = gateway(tier_on(server, "anthropic"), log_path=log)
    models.ask(tactical(user=f"my key is {KEY}, and another sk-abcdefghijklmnopqrstuvwx"))
    text = log.read_text()
    assert KEY not in text and "sk-abcdefghijklmnop" not in text
    call = json.loads(text.splitlines()[0])
    for key in ("model", "tier", "tokens_in", "tokens_out", "cost_usd", "latency_s", "breaker", "role"):
        assert key in call
    assert call["breaker"] == "closed" and call["model"] == "stub-anthropic"
    assert "[redacted]" in call["messages"][0]["text"]
