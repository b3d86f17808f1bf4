"""Errors of replays: a battle log or start state that cannot be found or read is the user's to fix."""

from __future__ import annotations

from engine.errors import EngineError, UserInputError


class ReplayError(EngineError):
    """Root of every error raised by `engine.replay`."""


class BattleLogError(ReplayError, UserInputError):
    """The battle asked for has no log, or its log or start state is missing or unreadable."""
