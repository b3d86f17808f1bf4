"""Reflection's exceptions. Reflection on a battle in play never raises into the game loop (failures are
logged and counted); these reach a caller that asked for one reflection on purpose (`reflect_now`)."""

from __future__ import annotations

from engine.errors import EngineError


class ReflectionError(EngineError):
    """Root of every error the reflection package raises."""
