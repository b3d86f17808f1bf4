"""The vision package's root exception."""

from __future__ import annotations

from engine.errors import EngineError


class VisionError(EngineError):
    """A screen cannot be read: an image that is not a Game Boy screen, or a cartridge without the font."""
