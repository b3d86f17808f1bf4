"""PyBoy's Pokémon game wrapper, kept from working after every tick.

PyBoy turns on its `GameWrapperPokemonGen1` for a cartridge titled POKEMON RED or POKEMON BLUE, and the
wrapper's `post_tick` runs after every `pyboy.tick`: it reads the screen's 144 scanline parameters into
new lists, for a game-area view the engine never asks for (it reads RAM and the tile maps itself). The
engine ticks two frames at a time while it waits, ~110,000 ticks from power-on to Misty, and that one
call was ~6 % of all emulation. The manager's reference to the wrapper is public, so a subclass whose
per-tick work is nothing takes its place; `pyboy.game_wrapper` keeps the original, untouched.
Emulation does not change: the wrapper only caches views of the screen.
"""

from __future__ import annotations

import logging
from typing import Any

log = logging.getLogger(__name__)

try:
    from pyboy.plugins.game_wrapper_pokemon_gen1 import GameWrapperPokemonGen1
except ImportError:  # a PyBoy without it has nothing to quiet
    GameWrapperPokemonGen1 = None


def quiet_game_wrapper(pyboy: Any) -> bool:
    """Replace the manager's Pokémon wrapper by one that does nothing per tick; whether it was done
    (a PyBoy laid out differently is left as it is: slower, never wrong)."""
    if GameWrapperPokemonGen1 is None:
        return False
    try:
        manager = pyboy._plugin_manager
        if not isinstance(manager.game_wrapper_pokemon_gen1, GameWrapperPokemonGen1):
            return False
        manager.game_wrapper_pokemon_gen1 = _QuietWrapper.__new__(_QuietWrapper)
    except (AttributeError, TypeError) as exc:
        log.debug("PyBoy's game wrapper stays as it is: %s", exc)
        return False
    return True


if GameWrapperPokemonGen1 is not None:

    class _QuietWrapper(GameWrapperPokemonGen1):  # type: ignore[misc]
        """What the plugin manager calls on its Pokémon wrapper, doing nothing. Made with `__new__`
        alone: its fields are never read."""

        def handle_events(self, events: list[Any]) -> list[Any]:
            return events

        def post_tick(self) -> None:
            return None

        def window_title(self) -> str:
            return ""

        def stop(self) -> None:
            return None
