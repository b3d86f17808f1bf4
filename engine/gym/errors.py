"""The gym package's root exception: a setting, cartridge or save state the environment cannot use."""

from __future__ import annotations

from engine.errors import UserInputError


class GymError(UserInputError):
    """One line saying what was wrong with what the environment was given (`gymnasium.make`'s keywords,
    the cartridge, `reset`'s options) and what it takes instead."""
