"""Which cartridge an environment plays: the `rom` keyword, else the POKEMON_ROM variable; it must be the
game the environment's id names (PokemonRed-v0 plays Pokémon Red only)."""

from __future__ import annotations

import os
from pathlib import Path

from engine.emulator.rom import check_rom_file
from engine.game.cartridge import Game
from engine.game.errors import RomError
from engine.gym.errors import GymError

ROM_VARIABLE = "POKEMON_ROM"
ENV_IDS = {Game.RED: "PokemonRed-v0", Game.BLUE: "PokemonBlue-v0"}


def game_named(name: str | Game) -> Game:
    try:
        return Game(name)
    except ValueError:
        raise GymError(f"game must be red or blue, not {name!r}") from None


def cartridge_for(game: Game, rom: str | os.PathLike[str] | None) -> Path:
    """The cartridge image's path, checked to be `game`'s; GymError in one line otherwise."""
    if rom is None:
        rom = os.environ.get(ROM_VARIABLE) or None
    if rom is None:
        raise GymError(
            f"{ENV_IDS[game]} needs a cartridge image: gymnasium.make({ENV_IDS[game]!r}, rom=PATH), "
            f"or set {ROM_VARIABLE}"
        )
    path = Path(rom)
    try:
        found = check_rom_file(path).game
    except RomError as exc:
        raise GymError(str(exc)) from exc
    if found is not game:
        raise GymError(
            f"{ENV_IDS[game]} plays Pokémon {game.value.title()}, but {path} is Pokémon "
            f"{found.value.title()} (use {ENV_IDS[found]})"
        )
    return path
