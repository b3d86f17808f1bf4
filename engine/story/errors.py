"""The story package's errors: one root."""

from __future__ import annotations

from engine.errors import EngineError


class StoryError(EngineError):
    """The objective graph is malformed: an unknown condition, a step that names nothing, a cycle."""
