"""Errors of the experience package."""

from __future__ import annotations

from engine.errors import EngineError


class ExperienceError(EngineError):
    """Root of the experience package: a fight's record cannot be made from what was given."""
