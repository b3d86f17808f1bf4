"""Errors of battle records."""

from __future__ import annotations

from engine.errors import EngineError


class BattleError(EngineError):
    """A battle could not be followed or played: no legal action where one was needed, or no battle."""
