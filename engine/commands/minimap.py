"""`engine map`: a map of the cartridge as text, the player and the people on it from a save state."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

from engine.commands.arguments import Subparsers, add_config


@dataclass(frozen=True)
class MapOptions:
    rom: Path
    state: Path
    map_name: str | None
    config: Path | None

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> MapOptions:
        return cls(rom=args.rom, state=args.state, map_name=args.map, config=args.config)


def register(commands: Subparsers) -> None:
    minimap = commands.add_parser(
        "map",
        help="print a map as text (the player's, or any by name)",
        description="Print a map read from the cartridge, one glyph per walking square, with a legend: "
        "walls, floor, grass, water, ledges, doors and warps, signs, people, story gates as the save "
        "state has them, and the player.",
    )
    minimap.add_argument("--rom", type=Path, required=True, help="cartridge image of Pokémon Red or Blue")
    minimap.add_argument("--state", type=Path, required=True, help="PyBoy save state made with the same ROM")
    minimap.add_argument("--map", metavar="NAME", help="another map than the player's, as pret spells it")
    add_config(minimap)
    minimap.set_defaults(handler=execute)


def execute(args: argparse.Namespace) -> int:
    options = MapOptions.from_args(args)
    from engine.config import load_config
    from engine.emulator.session import open_session
    from engine.game.state import decode_state
    from engine.world.minimap import LEGEND, View, render, view_of
    from engine.world.places import find_map
    from engine.world.planner import surroundings
    from engine.world.world import load_world

    config = load_config(options.config)
    with open_session(options.rom, config.emulator) as session:
        world = load_world(session.rom_bytes)
        shown = find_map(world, options.map_name) if options.map_name else None
        session.load_state_file(options.state)
        state = decode_state(session.memory_image(), session.ram_map)
    around = surroundings(world, state)
    if shown is None or shown.id == state.overworld.map_id:
        map_id, view = around.here[0], view_of(world, state, around)
    else:
        map_id, view = shown.id, View(gated=around.gated, people=_still_people(around, shown.id))
    name = world.maps[map_id].name
    data = world.maps[map_id]
    print(f"{name} ({data.squares_wide} x {data.squares_high} squares)")
    print(render(world, map_id, view))
    print(LEGEND)
    return 0


def _still_people(around: object, map_id: int) -> dict[tuple[int, int, int], str]:
    from engine.world.planner import Surroundings

    assert isinstance(around, Surroundings)
    return {square: "person" for square in around.blocked if square[0] == map_id}
