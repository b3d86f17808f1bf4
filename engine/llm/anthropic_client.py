"""The Anthropic Messages API behind the `ModelClient` interface."""

from __future__ import annotations

import time
from typing import Any, NoReturn

import anthropic
import pydantic
from anthropic.types import Message
from opentelemetry import trace

from engine.config import ModelTierConfig
from engine.llm.clients import (
    UNREADABLE_BODY,
    describe,
    endpoint_key,
    raise_mapped,
    require_key,
)
from engine.llm.errors import ProviderError
from engine.llm.wire import ModelMessage, ModelRequest, ModelResponse, Provider, Usage


class AnthropicClient:
    provider: Provider = "anthropic"

    def __init__(
        self,
        tier: ModelTierConfig,
        api_key: str | None,
        *,
        strict: bool = False,
        tracer_provider: trace.TracerProvider | None = None,
    ) -> None:
        self.model = tier.model
        self._structured_output = tier.structured_output
        self._api_key = require_key(self.provider, api_key)
        self._timeout_s = tier.timeout_s
        # The SDK emits the GenAI client span of each call itself: through the run's provider when tracing
        # is on, else through OpenTelemetry's global one (a no-op unless the application set one). Callers
        # must not add a second GenAI span per call.
        telemetry: dict[str, Any] | None = {"tracer_provider": tracer_provider} if tracer_provider else None
        self._sdk = anthropic.Anthropic(
            open_telemetry=telemetry,  # type: ignore[arg-type]
            api_key=self._api_key,
            base_url=tier.base_url,
            timeout=tier.timeout_s,
            max_retries=0,
            _strict_response_validation=strict,
        )
        # From the SDK, not the tier: without a base_url it uses ANTHROPIC_BASE_URL or the public API.
        self.endpoint = endpoint_key(self.provider, str(self._sdk.base_url))

    def complete(self, request: ModelRequest) -> ModelResponse:
        arguments = self._arguments(request)
        started = time.perf_counter()
        try:
            message = self._sdk.messages.create(**arguments)
        except (anthropic.AnthropicError, *UNREADABLE_BODY) as exc:
            self._raise_mapped(exc)
        return _response(message, latency_s=time.perf_counter() - started)

    def close(self) -> None:
        """Closes the connection pool; only for clients dropped before the process ends."""
        self._sdk.close()

    def _arguments(self, request: ModelRequest) -> dict[str, Any]:
        arguments: dict[str, Any] = {
            "model": self.model,
            "max_tokens": request.max_tokens,
            "system": request.system,
            "messages": [_message_param(message) for message in request.messages],
        }
        if request.cache_system:
            arguments["system"] = [
                {"type": "text", "text": request.system, "cache_control": {"type": "ephemeral"}}
            ]
        if request.json_schema is not None and self._structured_output:
            arguments["output_config"] = {"format": {"type": "json_schema", "schema": request.json_schema}}
        return arguments

    def _raise_mapped(self, exc: Exception) -> NoReturn:
        raise_mapped(anthropic, "the Messages API", exc, self._timeout_s, self._api_key)


def _response(message: Message, *, latency_s: float) -> ModelResponse:
    try:
        # Empty content is an answer (a refusal, max_tokens at once): the caller's validation deals with
        # it, the provider is not at fault.
        text = "".join(block.text for block in message.content if block.type == "text")
        usage = Usage(input_tokens=message.usage.input_tokens, output_tokens=message.usage.output_tokens)
        return ModelResponse(
            text=text, usage=usage, model=message.model, stop_reason=message.stop_reason, latency_s=latency_s
        )
    # Without strict validation the SDK hands over whatever came back: fields may be missing or the
    # whole answer a plain string.
    except (AttributeError, TypeError, pydantic.ValidationError) as exc:
        raise ProviderError(
            f"anthropic: the response does not match the Messages API ({describe(exc)})"
        ) from exc


def _message_param(message: ModelMessage) -> dict[str, Any]:
    # Images first: Anthropic advises placing images before the text that refers to them.
    content: list[dict[str, Any]] = [
        {
            "type": "image",
            "source": {"type": "base64", "media_type": image.media_type, "data": image.data_base64},
        }
        for image in message.images
    ]
    content.append({"type": "text", "text": message.text})
    return {"role": message.role, "content": content}
