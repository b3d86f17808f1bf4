"""Errors of the Gen 1 knowledge layer."""

from __future__ import annotations

from engine.errors import EngineError, UserInputError


class GameError(EngineError):
    """Root of every error raised by `engine.game`."""


class RomError(GameError, UserInputError):
    """The cartridge image is missing, unreadable or not a supported game."""


class InvalidNameError(GameError, UserInputError):
    """A name the naming keyboard cannot type: 1 to 7 letters A-Z only."""
