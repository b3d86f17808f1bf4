"""The play package's root exception: every verb of a game session fails with it, in one line."""

from __future__ import annotations

from engine.errors import EngineError


class PlayError(EngineError):
    """A verb could not be done: bad input (an unknown button, place or action id), a verb that does not
    fit the moment (battle actions outside a battle), or the game failing to do it within its bounds."""
