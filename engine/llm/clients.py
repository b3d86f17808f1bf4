"""One synchronous interface over the providers' SDKs, and the factory that picks the implementation.

A client is built once per tier and reused: it holds one SDK client, and with it a connection pool. The
SDKs never retry (`max_retries=0`): retries and the circuit breaker live in one place above the clients,
which only translate each SDK's failures into `TransientModelError` or `ProviderError`.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, NoReturn, Protocol

from engine.config import ModelTierConfig
from engine.llm.errors import ProviderError, TransientModelError
from engine.llm.redact import REDACTED
from engine.llm.wire import ModelRequest, ModelResponse, Provider

if TYPE_CHECKING:
    from opentelemetry.trace import TracerProvider

# Servers' error messages can be long (a whole HTML page from a proxy): the start says what went wrong.
SERVER_MESSAGE_CHARS = 200
# Local OpenAI-compatible servers (Ollama, vLLM without --api-key) ignore the key, but the SDK insists on one.
NO_KEY_PLACEHOLDER = "unused"


class ModelClient(Protocol):
    provider: Provider
    model: str
    # The circuit breaker's key: provider and base URL, never the key.
    endpoint: str

    def complete(self, request: ModelRequest) -> ModelResponse: ...


def build_client(
    tier: ModelTierConfig,
    api_key: str | None,
    *,
    strict: bool = False,
    tracer_provider: TracerProvider | None = None,
) -> ModelClient:
    """The client for `tier`. `strict` makes the SDK reject any response that does not match its types (for
    tests against stub servers); `tracer_provider` receives each call's GenAI span (None: none of ours)."""
    # Imported here so a run that only uses one provider never imports the other SDK.
    if tier.provider == "anthropic":
        from engine.llm.anthropic_client import AnthropicClient

        return AnthropicClient(tier, api_key, strict=strict, tracer_provider=tracer_provider)
    from engine.llm.openai_client import OpenAIClient

    return OpenAIClient(tier, api_key, strict=strict, tracer_provider=tracer_provider)


def endpoint_key(provider: Provider, base_url: str) -> str:
    return f"{provider} {base_url.rstrip('/')}"


def server_message(body: object, api_key: str | None) -> str:
    """The human-readable part of an error body, whichever provider's shape it has, without the key, cut
    short (after redacting, so no piece of the key survives the cut)."""
    message: object = body
    if isinstance(message, dict) and isinstance(message.get("error"), dict):
        message = message["error"]
    if isinstance(message, dict):
        message = message.get("message", "")
    if message is None:
        return ""
    return redact(str(message).strip(), api_key)[:SERVER_MESSAGE_CHARS]


def status_detail(status: int, kind: str | None, body: object, api_key: str | None) -> str:
    """ "HTTP 429 rate_limit_error: <the server's message>", for a status error's message."""
    head = f"HTTP {status} {kind}" if kind else f"HTTP {status}"
    message = server_message(body, api_key)
    return f"{head}: {message}" if message else head


def is_transient_status(status: int) -> bool:
    """Worth retrying: 408 and 429 say "not now", 5xx (and Anthropic's 529 "overloaded") a server in
    trouble. Every other status is the request's fault and fails the same way again."""
    return status in (408, 429) or status >= 500


def describe(exc: BaseException) -> str:
    """An exception in one short line, for messages about responses that could not be read."""
    lines = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {lines[0]}"[:SERVER_MESSAGE_CHARS] if lines else type(exc).__name__


# What a 200 whose body is not JSON at all raises: the decoder's errors, not the SDK's.
UNREADABLE_BODY = (json.JSONDecodeError, UnicodeDecodeError)


def raise_mapped(sdk: Any, api: str, exc: Exception, timeout_s: float, api_key: str | None) -> NoReturn:
    """Every SDK failure as one of the llm package's errors, the SDK's exception kept as the cause. Both
    SDKs name their exceptions alike, so `sdk` is the module (`anthropic` or `openai`); `api` names the
    wire format for messages about responses that do not match it."""
    provider = sdk.__name__
    if isinstance(exc, sdk.APITimeoutError):
        raise TransientModelError(f"{provider}: no answer within {timeout_s:g} s") from exc
    if isinstance(exc, sdk.APIConnectionError):
        raise TransientModelError(f"{provider}: connection failed: {exc.message}") from exc
    if isinstance(exc, sdk.APIStatusError):
        detail = status_detail(exc.status_code, exc.type, exc.body, api_key)
        if is_transient_status(exc.status_code):
            raise TransientModelError(f"{provider}: {detail}") from exc
        raise ProviderError(f"{provider}: {detail}") from exc
    if isinstance(exc, sdk.APIResponseValidationError):
        raise ProviderError(f"{provider}: the HTTP {exc.status_code} response does not match {api}") from exc
    if isinstance(exc, UNREADABLE_BODY):
        raise ProviderError(f"{provider}: unreadable response ({describe(exc)})") from exc
    raise ProviderError(f"{provider}: {redact(describe(exc), api_key)}") from exc


def redact(text: str, api_key: str | None) -> str:
    """`text` without the key: some servers echo the key they refused, and messages end up in logs."""
    if not api_key or api_key == NO_KEY_PLACEHOLDER:
        return text
    return text.replace(api_key, REDACTED)


def require_key(provider: Provider, api_key: str | None) -> str:
    if not api_key:
        raise ProviderError(f"{provider}: no API key was given for this tier")
    return api_key
