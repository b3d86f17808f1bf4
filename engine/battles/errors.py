"""Errors of battle records."""

from __future__ import annotations

from engine.errors import EngineError, UserInputError


class BattleError(EngineError):
    """A battle could not be followed or played: no legal action where one was needed, or no battle."""


class BattleLogError(BattleError, UserInputError):
    """A battle log that is missing or cannot be read as one (a wrong battle id is the usual cause)."""
