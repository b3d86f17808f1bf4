"""Tunnels whose entrance houses set wLastMap by script: both ends are entered from two routes, so only the
script says where each house's door leads (pret scripts/UndergroundPathRoute5.asm, Route6.asm)."""

from __future__ import annotations

from engine.game.models import Direction
from engine.world.goals import MapGoal, ThingGoal
from engine.world.planner import Planner, surroundings
from engine.world.targets import target_for
from engine.world.world import World
from tests.support.tiny_world import INDOOR, TinyMap, build_world, overworld_state, state_at

NORTH, SOUTH, NORTH_HOUSE, SOUTH_HOUSE, TUNNEL = 1, 2, 3, 4, 5
HOUSE_ART = ("######", "#...D#", "#....#", "#....#")  # D: the stairs down to the tunnel
ROUTE_ART = ("..D.", "....", "....", "....")
PALLET = overworld_state()


def tunnel_world(
    north_house: str = "UNDERGROUND_PATH_ROUTE_5", south_house: str = "UNDERGROUND_PATH_ROUTE_6"
) -> World:
    last = 0xFF  # LAST_MAP
    north_warps, south_warps = [(2, 3, last, 0), (4, 1, TUNNEL, 0)], [(2, 3, last, 0), (4, 1, TUNNEL, 1)]
    return build_world(
        TinyMap(NORTH, "ROUTE_5", ROUTE_ART, warps=[(2, 0, NORTH_HOUSE, 0)]),
        TinyMap(SOUTH, "ROUTE_6", ROUTE_ART, warps=[(2, 0, SOUTH_HOUSE, 0)]),
        TinyMap(NORTH_HOUSE, north_house, HOUSE_ART, tileset=INDOOR, warps=north_warps),
        TinyMap(SOUTH_HOUSE, south_house, HOUSE_ART, tileset=INDOOR, warps=south_warps),
        TinyMap(TUNNEL, "UNDERGROUND_PATH_NORTH_SOUTH", ("D....D", "......"), tileset=INDOOR,
                warps=[(0, 0, NORTH_HOUSE, 1), (5, 0, SOUTH_HOUSE, 1)]),
    )  # fmt: skip


def walk(w: World, goal: MapGoal | ThingGoal, map_id: int = NORTH, x: int = 1, y: int = 2):  # type: ignore[no-untyped-def]
    around = surroundings(w, state_at(PALLET, map_id, x, y), gates=())
    return Planner(w, around).plan(target_for(w, around, goal))


def test_the_far_end_of_a_tunnel_comes_out_on_the_route_its_house_names() -> None:
    found = walk(tunnel_world(), MapGoal(map_id=SOUTH))
    assert found is not None and found.end[0] == SOUTH
    assert {TUNNEL, SOUTH_HOUSE} <= {edge.to[0] for edge in found.edges if edge.to is not None}


def test_without_the_houses_scripts_neither_end_has_a_known_side() -> None:
    assert walk(tunnel_world("SOME_HOUSE", "OTHER_HOUSE"), MapGoal(map_id=SOUTH)) is None


def test_a_machine_is_faced_from_the_one_side_its_script_answers() -> None:
    w = tunnel_world()
    found = walk(w, ThingGoal(map_id=NORTH_HOUSE, x=1, y=0, facing=Direction.UP), NORTH_HOUSE, 3, 2)
    assert found is not None and found.end == (NORTH_HOUSE, 1, 1) and found.face is Direction.UP
    sideways = walk(w, ThingGoal(map_id=NORTH_HOUSE, x=1, y=1, facing=Direction.LEFT), NORTH_HOUSE, 3, 2)
    assert sideways is not None and sideways.end == (NORTH_HOUSE, 2, 1) and sideways.face is Direction.LEFT
