"""The llm package's errors. The class decides what happens next:

- `TransientModelError` (429, 5xx, timeouts, connection errors): retried with backoff, counts toward the
  endpoint's circuit breaker.
- `ProviderError` (a refused key, a bad request, an unknown model): not retried, counts toward the breaker
  (a wrong key fails every call: failing fast is right).
- `AnswerInvalid`: the model answered, but not with what was asked. One repair prompt, then fallback; it
  says nothing about the provider's health, so it never counts toward the breaker.
- `ModelUnavailable`: no call was made (breaker open, no key, over budget); the router falls back.
"""

from __future__ import annotations

from engine.errors import EngineError


class LLMError(EngineError):
    """Root of the llm package."""


class TransientModelError(LLMError):
    """Worth retrying: rate limits, server errors, timeouts, dropped connections."""


class ProviderError(LLMError):
    """The provider refused the request for a reason retrying will not fix."""


class AnswerInvalid(LLMError):
    """The answer is not the JSON asked for, or it names something not on offer."""


class ModelUnavailable(LLMError):
    """The tier cannot be called right now; the message says why."""
