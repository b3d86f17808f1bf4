"""The procedural memory package's root exception."""

from __future__ import annotations

from engine.errors import EngineError


class ProceduralError(EngineError):
    """A model's notes or skill library cannot be read or kept as asked."""
