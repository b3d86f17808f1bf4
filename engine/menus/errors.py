"""The menus package's errors: each says which screen was not where the press expected it."""

from __future__ import annotations

from engine.errors import EngineError


class MenusError(EngineError):
    """Root of every error raised by `engine.menus`."""


class FieldMoveError(MenusError):
    """A field move's menus were not where expected, or the move did nothing."""


class TeachError(MenusError):
    """A TM or HM was not taught: a screen was not where expected, or RAM does not show the move."""


class LiftError(MenusError):
    """An elevator's floor menu did not come, or the floor was not chosen."""


class ItemUseError(MenusError):
    """An item could not be used from the bag: a screen was not where expected."""


class PartyOrderError(MenusError):
    """Two members were not swapped: a screen was not where expected, or RAM shows the old order."""


class VendingError(MenusError):
    """No drink came out of a vending machine: its menu did not come, or the bag did not change."""


class PcError(MenusError):
    """Bill's PC did not deposit or withdraw as asked."""


class FlyError(MenusError):
    """FLY did not take the player to the town asked for."""
