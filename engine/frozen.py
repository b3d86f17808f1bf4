"""The one base of every model the engine passes around: immutable, and strict about its fields."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Frozen(BaseModel):
    """Frozen (a message or a record never changes after it is made) and closed (an unknown field is an
    error, not silently dropped: a typo in a checkpoint, a config or a model's answer is caught)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
