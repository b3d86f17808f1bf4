"""Errors of replays: a battle log or start state that cannot be found or read is the user's to fix."""

from __future__ import annotations

from engine.errors import EngineError


class ReplayError(EngineError):
    """Root of every error raised by `engine.replay`."""
