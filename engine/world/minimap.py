"""A map as text, one glyph per walking square, for a model's prompt, a terminal and the live view.

Glyphs are single punctuation characters separated by spaces, so that a tokenizer never merges a run of
floor or wall into one token and each square stays one token a model can count. Unexplored squares (when
the caller passes the explored set) are blank.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.game.models import GameState
from engine.world.models import Square
from engine.world.planner import Surroundings
from engine.world.world import STEPS, World

GLYPHS = {
    "player": "@",
    "path": "+",
    "person": "&",
    "trainer": "!",
    "item": "$",
    "sign": "?",
    "warp": "*",
    "gate": "%",
    "ledge": "=",
    "grass": '"',
    "water": "~",
    "counter": "|",
    "floor": ".",
    "wall": "#",
    "unexplored": " ",
}
LEGEND = (
    "@ you, + planned path, & person, ! trainer not yet beaten, $ item, ? sign, * door or warp, "
    '% story gate (closed), = ledge (jump down only), " tall grass, ~ water, | counter (talk across), '
    ". floor, # wall"
)
WATER_TILE = 0x14  # the overworld's water (pret engine/overworld/player_state.asm IsNextTileShoreOrWater)


@dataclass(frozen=True)
class View:
    """What to draw over the terrain."""

    here: Square | None = None
    people: dict[Square, str] | None = None  # square -> glyph name (person, trainer, item)
    gated: frozenset[Square] = frozenset()
    path: frozenset[Square] = frozenset()
    explored: frozenset[Square] | None = None  # None: everything


def view_of(world: World, state: GameState, around: Surroundings, path: Iterable[Square] = ()) -> View:
    """The live view of the current map: the player, its people (trainers not yet beaten apart), gates."""
    where = state.overworld
    data = world.maps.get(where.map_id)
    people: dict[Square, str] = {}
    for sprite in where.sprites:
        found = (
            data.objects[sprite.index - 1] if data is not None and sprite.index <= len(data.objects) else None
        )
        kind = "person"
        if found is not None and found.item is not None:
            kind = "item"
        elif found is not None and found.is_trainer and not _beaten(found.beaten_event, state):
            kind = "trainer"
        people[(where.map_id, sprite.x, sprite.y)] = kind
    return View(here=around.here, people=people, gated=around.gated, path=frozenset(path))


def _beaten(event: int | None, state: GameState) -> bool:
    return event is not None and event in state.story.event_flags


def render(
    world: World, map_id: int, view: View = View(), window: tuple[int, int, int, int] | None = None
) -> str:
    """The map (or the `window` (x0, y0, x1, y1) of it, inclusive) as rows of glyphs."""
    data = world.maps[map_id]
    x0, y0, x1, y1 = window or (0, 0, data.squares_wide - 1, data.squares_high - 1)
    rows = []
    for y in range(max(0, y0), min(data.squares_high - 1, y1) + 1):
        glyphs = [
            _glyph(world, (map_id, x, y), view) for x in range(max(0, x0), min(data.squares_wide - 1, x1) + 1)
        ]
        rows.append(" ".join(glyphs).rstrip())
    return "\n".join(rows)


def around_player(world: World, view: View, half_width: int = 10, half_height: int = 8) -> str:
    """The part of the current map around the player, as much as a prompt needs."""
    assert view.here is not None
    map_id, x, y = view.here
    return render(world, map_id, view, (x - half_width, y - half_height, x + half_width, y + half_height))


def _glyph(world: World, square: Square, view: View) -> str:
    if view.explored is not None and square not in view.explored and square != view.here:
        return GLYPHS["unexplored"]
    if square == view.here:
        return GLYPHS["player"]
    if view.people and square in view.people:
        return GLYPHS[view.people[square]]
    if square in view.path:
        return GLYPHS["path"]
    return GLYPHS[_terrain(world, square, view)]


def _terrain(world: World, square: Square, view: View) -> str:
    map_id, x, y = square
    data = world.maps[map_id]
    if world.warp_at(*square) is not None:
        return "warp"
    if any(sign.x == x and sign.y == y for sign in data.signs):
        return "sign"
    if square in view.gated:
        return "gate"
    tile = world.tile(*square)
    tileset = world.tilesets[data.tileset]
    if tile in tileset.counters:
        return "counter"
    if world.is_grass(*square):
        return "grass"
    if _is_ledge(world, square):
        return "ledge"
    if world.walkable(*square):
        return "floor"
    return "water" if data.tileset == 0 and tile == WATER_TILE else "wall"


def _is_ledge(world: World, square: Square) -> bool:
    """A square hopped over from a neighbour (the ledge itself)."""
    map_id, x, y = square
    for direction, (dx, dy) in STEPS.items():
        move = world.move((map_id, x - dx, y - dy), direction)
        if move is not None and move.hop:
            return True
    return False
