"""The puzzles package's errors."""

from __future__ import annotations

from engine.errors import EngineError


class PuzzleError(EngineError):
    """Root of every error raised by `engine.puzzles`."""
