"""Model calls as spans: real SDK clients against the stub server, spans kept in memory. One GenAI span per
HTTP call (the Anthropic SDK's own, or ours for OpenAI), under a `model_call <tier>` span with our tier
and cost, in the trace of whatever asked."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind, StatusCode

from engine.llm.gateway import ModelGateway
from engine.llm.spans import ATTR_COST, ATTR_ROLE, ATTR_TIER, GEN_AI_INPUT_TOKENS, GEN_AI_OUTPUT_TOKENS
from engine.telemetry.tracing import Tracing
from tests.integration.test_llm_gateway import GOOD, PROVIDERS, gateway, tactical, tier_on
from tests.support.stub_llm import StubLLMServer, StubReply, script

GEN_AI_SPANS = ("anthropic.messages.create", "chat stub-openai")


@pytest.fixture
def exporter() -> InMemorySpanExporter:
    return InMemorySpanExporter()


@pytest.fixture
def tracing(exporter: InMemorySpanExporter) -> Iterator[Tracing]:
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    yield Tracing(provider)
    provider.shutdown()


def traced_gateway(server: StubLLMServer, provider: str, tracing: Tracing) -> ModelGateway:
    return gateway(tier_on(server, provider), tracing=tracing)


def genai(spans: tuple[ReadableSpan, ...]) -> list[ReadableSpan]:
    return [span for span in spans if (span.attributes or {}).get("gen_ai.operation.name") == "chat"]


@pytest.mark.parametrize("provider", PROVIDERS)
def test_one_genai_span_per_call_under_ours_in_the_askers_trace(
    provider: str, tracing: Tracing, exporter: InMemorySpanExporter
) -> None:
    reply = StubReply(text=GOOD, input_tokens=321, output_tokens=17)
    with StubLLMServer(script(reply)) as server:
        models = traced_gateway(server, provider, tracing)
        with tracing.tracer.start_as_current_span("tactician.choose_battle") as asker:
            outcome = models.ask(tactical())
    assert outcome.answer is not None
    spans = exporter.get_finished_spans()
    (call,) = genai(spans)  # exactly one: the SDK's own for Anthropic, ours for OpenAI, never both
    assert call.name in GEN_AI_SPANS and call.kind == SpanKind.CLIENT
    attributes = call.attributes or {}
    assert attributes["gen_ai.provider.name"] == provider
    assert attributes["gen_ai.request.model"] == f"stub-{provider}"
    assert (attributes[GEN_AI_INPUT_TOKENS], attributes[GEN_AI_OUTPUT_TOKENS]) == (321, 17)
    ours = next(span for span in spans if span.name == "model_call acting")
    assert call.parent is not None and call.parent.span_id == ours.context.span_id
    assert ours.parent is not None and ours.parent.span_id == asker.get_span_context().span_id
    mine = ours.attributes or {}
    assert (mine[ATTR_TIER], mine[ATTR_ROLE]) == ("acting", "tactician")
    assert mine[ATTR_COST] == pytest.approx(outcome.selection.cost_usd) and mine[ATTR_COST] > 0
    assert not any(key.startswith("gen_ai.usage") for key in mine)  # tokens are counted once, below


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_retried_call_is_two_attempts_and_the_failed_one_is_an_error(
    provider: str, tracing: Tracing, exporter: InMemorySpanExporter
) -> None:
    with StubLLMServer(script(StubReply(status=500), StubReply(text=GOOD))) as server:
        outcome = traced_gateway(server, provider, tracing).ask(tactical())
    assert outcome.answer is not None
    spans = exporter.get_finished_spans()
    attempts = [span for span in spans if span.name == "model_call acting"]
    assert [span.status.status_code for span in attempts] == [StatusCode.ERROR, StatusCode.UNSET]
    assert len(genai(spans)) == 2 and genai(spans)[0].status.status_code == StatusCode.ERROR
