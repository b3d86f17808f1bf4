"""The world model's terrain rules on small drawn maps: walls, grass, ledges, map edges, doors, warps."""

from __future__ import annotations

from engine.game.models import Direction
from engine.world.models import Connection
from engine.world.world import LAST_MAP, World
from tests.support.tiny_world import INDOOR, TinyMap, build_world

TOWN, ROUTE, HOUSE = 1, 2, 3
TOWN_ART = (
    "........",
    "..####..",
    "..#D#...",
    "........",
    '..""""..',
    "==.=====",
    "........",
    "........",
)
ROUTE_ART = ("..##", "..##", "....", "....")
HOUSE_ART = ("####", "#..#", "#..#", "#..#")


def world() -> World:
    town = TinyMap(
        TOWN, "TOWN", TOWN_ART, warps=[(3, 2, HOUSE, 0)],
        connections=[Connection(side="north", map_id=ROUTE, land=3, shift=-2)],
    )  # fmt: skip
    route = TinyMap(
        ROUTE, "ROUTE", ROUTE_ART, connections=[Connection(side="south", map_id=TOWN, land=0, shift=2)]
    )
    house = TinyMap(HOUSE, "HOUSE", HOUSE_ART, tileset=INDOOR, warps=[(1, 3, LAST_MAP, 0)])
    return build_world(town, route, house)


def test_squares_are_walkable_by_their_tile() -> None:
    w = world()
    assert w.walkable(TOWN, 0, 0)
    assert not w.walkable(TOWN, 2, 1)  # a wall
    assert w.is_grass(TOWN, 3, 4)
    assert not w.walkable(TOWN, 9, 0)  # off the map
    assert w.tile(TOWN, 8, 0) is None


def test_a_wall_blocks_and_floor_lets_through() -> None:
    w = world()
    assert w.move((TOWN, 1, 1), Direction.RIGHT) is None
    step = w.move((TOWN, 1, 1), Direction.DOWN)
    assert step is not None and step.to == (TOWN, 1, 2)


def test_a_ledge_is_hopped_down_and_never_climbed() -> None:
    w = world()
    hop = w.move((TOWN, 0, 4), Direction.DOWN)
    assert hop is not None and hop.hop and hop.to == (TOWN, 0, 6)
    assert w.move((TOWN, 0, 6), Direction.UP) is None
    # The gap in the ledge row is plain floor, both ways.
    gap = w.move((TOWN, 2, 6), Direction.UP)
    assert gap is not None and not gap.hop


def test_an_edge_crossing_lands_on_the_connected_map_with_its_shift() -> None:
    w = world()
    north = w.move((TOWN, 2, 0), Direction.UP)
    assert north is not None and north.crossing and north.to == (ROUTE, 0, 3)
    back = w.move((ROUTE, 0, 3), Direction.DOWN)
    assert back is not None and back.to == (TOWN, 2, 0)
    assert w.move((TOWN, 7, 0), Direction.UP) is None  # lands on the route's wall


def test_a_door_leads_into_the_house_and_the_mat_back_out_below_the_door() -> None:
    w = world()
    into = [e for e in w.edges((TOWN, 3, 3)) if e.direction is Direction.UP]
    assert len(into) == 1 and into[0].kind == "door" and into[0].to == (HOUSE, 1, 3)
    out = [e for e in w.edges((HOUSE, 1, 2)) if e.direction is Direction.DOWN]
    # Walking down onto the mat at the house's edge takes it at once; LAST_MAP: the only way in.
    assert out[0].kind == "door" and out[0].last_map and out[0].to == (TOWN, 3, 3)
    push = [e for e in w.edges((HOUSE, 1, 3)) if e.kind == "push"]
    assert [e.direction for e in push] == [Direction.DOWN]
    assert (
        w.warp_destination(w.maps[HOUSE].warps[0], ROUTE, from_map=HOUSE) is None
    )  # the route has no warp 0


def test_only_entrance_is_the_one_outside_map_warping_in() -> None:
    w = world()
    assert w.only_entrance(HOUSE) == TOWN
    assert w.only_entrance(ROUTE) is None
    assert w.is_outside(TOWN) and not w.is_outside(HOUSE)


def test_the_walking_graph_worked_out_a_map_at_a_time_equals_square_by_square() -> None:
    """The map-wide shortcut for plain floor gives the same edges as the full rules, square by square."""
    fast, slow = world(), world()
    for map_id in fast.maps:
        for x, y in fast.squares(map_id):
            if fast.walkable(map_id, x, y):
                assert fast.edges((map_id, x, y)) == slow._edges_at((map_id, x, y)), (map_id, x, y)
