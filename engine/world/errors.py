"""The world package's errors: one root, so callers can catch anything the world model raises."""

from __future__ import annotations

from engine.errors import EngineError, UserInputError


class WorldError(EngineError):
    """The world model cannot answer: bad map data, or a goal that names nothing on the map."""


class CartridgeDataError(WorldError, UserInputError):
    """The cartridge's map data is not where or what a Red/Blue cartridge keeps (a ROM hack, or not
    Red or Blue at all)."""


class UnknownPlaceError(WorldError, UserInputError):
    """A place, map, object or sign that the world does not have."""
