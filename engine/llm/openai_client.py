"""OpenAI Chat Completions behind the `ModelClient` interface: OpenAI itself, or any server speaking the
same wire format (vLLM, Ollama, LM Studio) at the tier's base URL."""

from __future__ import annotations

import time
from typing import Any, NoReturn

import openai
import pydantic
from openai.types.chat import ChatCompletion
from opentelemetry import trace

from engine.config import ModelTierConfig
from engine.llm.clients import (
    NO_KEY_PLACEHOLDER,
    UNREADABLE_BODY,
    describe,
    endpoint_key,
    raise_mapped,
)
from engine.llm.errors import ProviderError
from engine.llm.spans import genai_span, record_response
from engine.llm.wire import ModelMessage, ModelRequest, ModelResponse, Provider, Usage

OPENAI_API_HOST = "api.openai.com"


class OpenAIClient:
    provider: Provider = "openai"

    def __init__(
        self,
        tier: ModelTierConfig,
        api_key: str | None,
        *,
        strict: bool = False,
        tracer_provider: trace.TracerProvider | None = None,
    ) -> None:
        self.model = tier.model
        # The SDK traces nothing: the GenAI span of each call is ours (a no-op tracer when tracing is off).
        self._tracer = (tracer_provider or trace.NoOpTracerProvider()).get_tracer("engine.llm")
        self._structured_output = tier.structured_output
        self._api_key = api_key or NO_KEY_PLACEHOLDER
        self._timeout_s = tier.timeout_s
        options: dict[str, Any] = {}
        # Left out when unset, so the SDK's own fallback (OPENAI_BASE_URL, then the public API) applies.
        if tier.base_url is not None:
            options["base_url"] = tier.base_url
        self._sdk = openai.OpenAI(
            api_key=self._api_key,
            timeout=tier.timeout_s,
            max_retries=0,
            _strict_response_validation=strict,
            **options,
        )
        self.endpoint = endpoint_key(self.provider, str(self._sdk.base_url))
        self._token_limit_name = token_limit_name(self._sdk.base_url.host)

    def complete(self, request: ModelRequest) -> ModelResponse:
        arguments = self._arguments(request)
        with genai_span(self._tracer, self.provider, self.model, str(self._sdk.base_url), request) as span:
            started = time.perf_counter()
            try:
                completion = self._sdk.chat.completions.create(**arguments)
            except (openai.OpenAIError, *UNREADABLE_BODY) as exc:
                self._raise_mapped(exc)
            response = _response(completion, latency_s=time.perf_counter() - started)
            record_response(span, response)
            return response

    def close(self) -> None:
        """Closes the connection pool; only for clients dropped before the process ends."""
        self._sdk.close()

    def _arguments(self, request: ModelRequest) -> dict[str, Any]:
        messages: list[dict[str, Any]] = [{"role": "system", "content": request.system}]
        messages.extend(_message_param(message) for message in request.messages)
        arguments: dict[str, Any] = {
            "model": self.model,
            self._token_limit_name: request.max_tokens,
            "messages": messages,
        }
        if request.json_schema is not None and self._structured_output:
            arguments["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": request.schema_name, "schema": request.json_schema, "strict": True},
            }
        return arguments

    def _raise_mapped(self, exc: Exception) -> NoReturn:
        raise_mapped(openai, "Chat Completions", exc, self._timeout_s, self._api_key)


def token_limit_name(host: str) -> str:
    """OpenAI's own API refuses `max_tokens` for its reasoning models and takes `max_completion_tokens`
    for all; compatible servers (vLLM, Ollama, LM Studio) all read `max_tokens`, not always the newer name."""
    return "max_completion_tokens" if host == OPENAI_API_HOST else "max_tokens"


def _response(completion: ChatCompletion, *, latency_s: float) -> ModelResponse:
    try:
        if not completion.choices:
            raise ProviderError("openai: the response has no choices")
        choice = completion.choices[0]
        # Servers that do not count tokens omit usage; the ledger then counts nothing rather than guessing.
        usage = completion.usage
        return ModelResponse(
            text=choice.message.content or "",
            usage=Usage(
                input_tokens=usage.prompt_tokens if usage else 0,
                output_tokens=usage.completion_tokens if usage else 0,
            ),
            model=completion.model,
            stop_reason=choice.finish_reason,
            latency_s=latency_s,
        )
    # Without strict validation the SDK hands over whatever came back: fields may be missing or the
    # whole answer a plain string.
    except (AttributeError, TypeError, pydantic.ValidationError) as exc:
        raise ProviderError(
            f"openai: the response does not match Chat Completions ({describe(exc)})"
        ) from exc


def _message_param(message: ModelMessage) -> dict[str, Any]:
    # Assistant turns as plain strings: some compatible servers reject content lists outside user turns.
    if message.role == "assistant":
        return {"role": "assistant", "content": message.text}
    content: list[dict[str, Any]] = [{"type": "text", "text": message.text}]
    content.extend(
        {"type": "image_url", "image_url": {"url": f"data:{image.media_type};base64,{image.data_base64}"}}
        for image in message.images
    )
    return {"role": "user", "content": content}
