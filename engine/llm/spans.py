"""Model calls as OpenTelemetry spans, in the trace of the decision that asked.

Each attempt of a call is one `model_call <tier>` span (INTERNAL) with our attributes: tier, role, answer
kind, attempt and cost. Inside it is exactly one GenAI CLIENT span with the semantic conventions'
attributes (provider, operation, model, input and output tokens): the Anthropic SDK emits its own when given
our tracer provider, so for it we add none; for OpenAI-compatible servers, whose SDK traces nothing, we
emit it here. Token counts live only on the GenAI span, so a backend summing `gen_ai.usage.*` counts each
call once.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import urlsplit

from opentelemetry import trace
from opentelemetry.trace import SpanKind

from engine.llm.wire import ModelRequest, ModelResponse

CALL_SPAN = "model_call"
ATTR_TIER = "engine.llm.tier"
ATTR_ROLE = "engine.llm.role"
ATTR_ANSWER = "engine.llm.answer"
ATTR_ATTEMPT = "engine.llm.attempt"
ATTR_COST = "engine.llm.cost_usd"
ATTR_BATTLE_ID = "engine.battle_id"

# OpenTelemetry GenAI semantic conventions (opentelemetry.semconv._incubating.attributes.gen_ai_attributes).
GEN_AI_PROVIDER = "gen_ai.provider.name"
GEN_AI_OPERATION = "gen_ai.operation.name"
GEN_AI_REQUEST_MODEL = "gen_ai.request.model"
GEN_AI_MAX_TOKENS = "gen_ai.request.max_tokens"
GEN_AI_RESPONSE_MODEL = "gen_ai.response.model"
GEN_AI_INPUT_TOKENS = "gen_ai.usage.input_tokens"
GEN_AI_OUTPUT_TOKENS = "gen_ai.usage.output_tokens"
GEN_AI_FINISH_REASONS = "gen_ai.response.finish_reasons"


@contextmanager
def genai_span(
    tracer: trace.Tracer, provider: str, model: str, base_url: str, request: ModelRequest
) -> Iterator[trace.Span]:
    """The GenAI CLIENT span of one chat call; `record_response` fills in what came back."""
    address = urlsplit(base_url)
    attributes: dict[str, str | int] = {
        GEN_AI_PROVIDER: provider, GEN_AI_OPERATION: "chat", GEN_AI_REQUEST_MODEL: model,
        GEN_AI_MAX_TOKENS: request.max_tokens, "server.address": address.hostname or "",
    }  # fmt: skip
    if address.port is not None:
        attributes["server.port"] = address.port
    with tracer.start_as_current_span(f"chat {model}", kind=SpanKind.CLIENT, attributes=attributes) as span:
        yield span


def record_response(span: trace.Span, response: ModelResponse) -> None:
    span.set_attribute(GEN_AI_RESPONSE_MODEL, response.model)
    span.set_attribute(GEN_AI_INPUT_TOKENS, response.usage.input_tokens)
    span.set_attribute(GEN_AI_OUTPUT_TOKENS, response.usage.output_tokens)
    if response.stop_reason:
        span.set_attribute(GEN_AI_FINISH_REASONS, (response.stop_reason,))
