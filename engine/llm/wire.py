"""What a provider client takes and returns, whatever the provider: one request, one response with usage.

These cross the gateway actor's boundary, so they are frozen pydantic models like every other message.
"""

from __future__ import annotations

import base64
from typing import Any, Literal

from pydantic import Field

from engine.frozen import Frozen

Provider = Literal["anthropic", "openai"]


class ImagePart(Frozen):
    media_type: Literal["image/png"] = "image/png"
    data_base64: str

    @classmethod
    def png(cls, data: bytes) -> ImagePart:
        return cls(data_base64=base64.b64encode(data).decode("ascii"))


class ModelMessage(Frozen):
    role: Literal["user", "assistant"]
    text: str
    images: tuple[ImagePart, ...] = ()


class ModelRequest(Frozen):
    kind: Literal["model_request"] = "model_request"
    system: str
    messages: tuple[ModelMessage, ...] = Field(min_length=1)
    max_tokens: int = Field(gt=0)
    # A JSON schema for the answer: clients pass it to the provider's structured-output feature when
    # the tier allows it; the answer is validated against the pydantic model either way.
    json_schema: dict[str, Any] | None = None
    schema_name: str = Field("answer", pattern=r"^[A-Za-z0-9_-]{1,64}$")
    # The system prompt is a stable prefix (the harness levels put the model's notes there): ask the
    # provider to cache it where caching is opt-in (Anthropic); OpenAI caches long prefixes by itself.
    cache_system: bool = False


class Usage(Frozen):
    input_tokens: int = Field(ge=0)
    output_tokens: int = Field(ge=0)


class ModelResponse(Frozen):
    kind: Literal["model_response"] = "model_response"
    text: str
    usage: Usage
    model: str  # as the provider reports it
    stop_reason: str | None = None
    latency_s: float = Field(ge=0.0)
