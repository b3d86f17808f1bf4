"""Gymnasium environments: PokemonRed-v0 and PokemonBlue-v0 (docs/gym.md).

Importing this package registers both ids, so `gymnasium.make("PokemonRed-v0", rom=PATH)` works after
`import engine.gym`; `gymnasium.make("engine.gym:PokemonRed-v0", rom=PATH)` imports it by itself. The
environment's module (PyBoy and the engine's closed loops) is imported only when one is made."""

from __future__ import annotations

import gymnasium

from engine.gym.cartridge import ENV_IDS
from engine.gym.errors import GymError

ENTRY_POINT = "engine.gym.env:PokemonEnv"

for _game, _env_id in ENV_IDS.items():
    if _env_id not in gymnasium.registry:
        gymnasium.register(id=_env_id, entry_point=ENTRY_POINT, kwargs={"game": _game.value})

__all__ = ["ENTRY_POINT", "ENV_IDS", "GymError"]
