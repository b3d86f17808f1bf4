"""Reflection's exceptions. Reflection on a battle in play never raises into the game loop (failures are
logged and counted); these reach a caller that asked for one reflection on purpose (`reflect_now`)."""

from __future__ import annotations

from engine.errors import EngineError, UserInputError


class ReflectionError(EngineError):
    """Root of every error the reflection package raises."""


class BattleLogError(ReflectionError, UserInputError):
    """A battle log that is missing or cannot be read as one (a wrong battle id is the usual cause)."""
