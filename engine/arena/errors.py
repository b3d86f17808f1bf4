"""The arena's root error."""

from __future__ import annotations

from engine.errors import EngineError


class ArenaError(EngineError):
    """An arena that cannot be run as asked, or a cell that could not be played anywhere."""
