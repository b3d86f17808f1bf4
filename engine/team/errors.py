"""The team package's errors."""

from __future__ import annotations

from engine.errors import EngineError


class TeamError(EngineError):
    """Root of every error raised by `engine.team`."""
