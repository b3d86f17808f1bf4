"""Places as a person types them: a map as pret names it (`VIRIDIAN_MART`), or a square on one
(`PEWTER_CITY:16,17`)."""

from __future__ import annotations

import difflib

from engine.world.errors import UnknownPlaceError
from engine.world.goals import Goal, MapGoal, SquareGoal
from engine.world.models import MapData
from engine.world.world import World


def parse_place(world: World, text: str) -> Goal:
    """The goal a place names; UnknownPlaceError (one line, with the nearest names) if there is none."""
    name, _, square = text.strip().partition(":")
    data = find_map(world, name)
    if not square:
        return MapGoal(map_id=data.id)
    x, y = _square(text, square)
    if not data.inside(x, y):
        raise UnknownPlaceError(
            f"{data.name} has no square ({x}, {y}): it is {data.squares_wide} x {data.squares_high}"
        )
    return SquareGoal(map_id=data.id, x=x, y=y)


def find_map(world: World, name: str) -> MapData:
    key = name.strip().upper().replace(" ", "_").replace("-", "_")
    found = world.by_name.get(key)
    if found is not None:
        return found
    near = difflib.get_close_matches(key, list(world.by_name), n=3, cutoff=0.6)
    hint = (
        f" (did you mean {', '.join(near)}?)"
        if near
        else " (map names as pret spells them, e.g. VIRIDIAN_MART)"
    )
    raise UnknownPlaceError(f"no map called {name!r}{hint}")


def _square(text: str, square: str) -> tuple[int, int]:
    parts = square.split(",")
    try:
        x, y = (int(part) for part in parts)
    except ValueError:
        raise UnknownPlaceError(
            f"{text!r}: a square is MAP:X,Y with whole numbers, e.g. PEWTER_CITY:16,17"
        ) from None
    return x, y
