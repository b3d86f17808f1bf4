"""SURF in the world model: water is a wall on foot, `surf` onto it with SURF and the Soul Badge, `swim`
on it, a plain step back onto land; the water tile pairs and the tilesets without water are respected
(pret engine/items/item_effects.asm ItemUseSurfboard, home/overworld.asm CollisionCheckOnWater)."""

from __future__ import annotations

from engine.game.field_moves import usable_field_moves
from engine.game.models import GameState
from engine.world.goals import SquareGoal
from engine.world.models import Connection, TilePair
from engine.world.planner import Plan, Planner, surroundings
from engine.world.targets import target_for
from engine.world.water import swim_tiles
from engine.world.world import World
from tests.support.tiny_world import FLOOR, INDOOR, WATER, TinyMap, build_world, state_at
from tests.unit.test_field_moves import PALLET, member

BAY, SEA, HOUSE = 1, 2, 3
# A bay: the east shore is reached on foot only the long way round (row 3); across the water it is short.
BAY_ART = (
    "..~~~~..",
    "..~~~~..",
    "..~~~~..",
    "........",
)
SEA_ART = ("~~~~", "~~~~", "....", "....")


def with_surf(state: GameState, badges: tuple[str, ...] = ("BOULDER", "SOUL")) -> GameState:
    party = (member("TACKLE"), member("SURF", "BODY_SLAM"))
    progress = state.progress.model_copy(update={"badge_names": badges})
    return state.model_copy(update={"party": party, "progress": progress})


def bay(art: tuple[str, ...] = BAY_ART, tileset: int = 0) -> World:
    east = Connection(side="east", map_id=SEA, land=0, shift=0)
    west = Connection(side="west", map_id=BAY, land=7, shift=0)
    return build_world(
        TinyMap(BAY, "BAY", art, tileset=tileset, connections=[east]),
        TinyMap(SEA, "SEA", SEA_ART, connections=[west]),
    )


def plan(w: World, state: GameState, map_id: int, x: int, y: int) -> Plan | None:
    around = surroundings(w, state, gates=())
    return Planner(w, around).plan(target_for(w, around, SquareGoal(map_id=map_id, x=x, y=y)))


def test_surf_needs_a_member_that_knows_it_and_the_soul_badge() -> None:
    assert "SURF" in usable_field_moves(with_surf(PALLET))
    assert "SURF" not in usable_field_moves(with_surf(PALLET, badges=("BOULDER", "CASCADE")))
    assert "SURF" not in usable_field_moves(PALLET)


def test_without_surf_the_water_is_a_wall_and_with_it_the_short_way_is_across() -> None:
    w = bay()
    start = state_at(PALLET, BAY, 1, 0)
    on_foot = plan(w, start, BAY, 6, 0)
    assert on_foot is not None and all(e.kind in ("walk", "cross") for e in on_foot.edges)
    assert on_foot.steps == 11  # down to row 3, along, back up
    across = plan(w, with_surf(start), BAY, 6, 0)
    # SURF's menus cost about 20 steps: 11 steps on foot beat it, so the walk stays the plan here.
    assert across is not None and across.edges == on_foot.edges


def test_a_long_way_round_is_crossed_on_the_water_landing_with_a_plain_step() -> None:
    art = ("..~~~~..",) * 15 + ("........",)
    w = bay(art)
    found = plan(w, with_surf(state_at(PALLET, BAY, 1, 0)), BAY, 6, 0)
    assert found is not None
    assert [e.kind for e in found.edges] == ["surf", "swim", "swim", "swim", "walk"]
    assert found.edges[0].to == (BAY, 2, 0) and found.end == (BAY, 6, 0)


def test_a_player_already_on_the_water_swims_without_needing_surf_again() -> None:
    w = bay()
    found = plan(w, state_at(PALLET, BAY, 3, 1), BAY, 6, 1)  # no SURF in the party: it is already used
    assert found is not None and [e.kind for e in found.edges] == ["swim", "swim", "walk"]


def test_swimming_crosses_into_the_connected_map_on_water() -> None:
    art = ("......~~",) * 2 + ("........",) * 2
    w = bay(art)
    edges = {e.direction.value: e for e in w.edges((BAY, 7, 0))}
    assert edges["right"].kind == "cross" and edges["right"].to == (SEA, 0, 0)
    assert w.is_water(SEA, 0, 0)


def test_a_tileset_without_water_never_surfs() -> None:
    w = bay(tileset=INDOOR)
    assert not w.is_water(BAY, 3, 0)
    assert plan(w, with_surf(state_at(PALLET, BAY, 1, 0)), BAY, 3, 0) is None
    assert swim_tiles(INDOOR, frozenset()) == frozenset()


def test_water_tile_pairs_are_walls_on_the_water_and_for_surf() -> None:
    plain = bay()
    blocked = World(
        plain.maps, plain.tilesets, plain.blocksets, plain.ledges, plain.tile_pairs, plain.carpets,
        plain.spinners, water_pairs=(TilePair(tileset=0, first=FLOOR, second=WATER),),
    )  # fmt: skip
    assert any(e.kind == "surf" for e in plain.edges((BAY, 1, 0)))
    assert not any(e.kind == "surf" for e in blocked.edges((BAY, 1, 0)))
    assert not any(e.to == (BAY, 1, 0) for e in blocked.edges((BAY, 2, 0)))  # no landing there either
