"""CUT in the world model: a tree is an edge of its own, taken only when a member knows CUT and the
Cascade Badge is held (pret engine/menus/start_sub_menus.asm, engine/overworld/cut.asm)."""

from __future__ import annotations

from dataclasses import replace

from engine.game.field_moves import member_with, usable_field_moves
from engine.game.models import GameState, MoveSlot, PartyMon, Stats
from engine.game.tables import game_data
from engine.game.teaching import level_up_room
from engine.menus.item_use import can_give
from engine.menus.vending import DRINKS
from engine.world.goals import SquareGoal
from engine.world.planner import Plan, Planner, surroundings
from engine.world.targets import target_for
from engine.world.world import World
from tests.support.tiny_world import TinyMap, build_world, overworld_state, state_at

ROUTE = 1
# The only way to the east half is through the tree; the long way round is open only in WALLED_ROUTE's
# absence (a detour below the wall).
ART = (
    "..#...",
    "..T...",
    "..#...",
    "..#...",
)
DETOUR_ART = (
    "..#...",
    "..T...",
    "..#...",
    "......",
)
PALLET = overworld_state()


def member(*moves: str) -> PartyMon:
    slots = tuple(
        MoveSlot(move_id=game_data().moves_by_name[move].id, name=move, pp=30, pp_ups=0) for move in moves
    )
    return PartyMon(
        species_id=1, species_name="RHYDON", nickname="RHYDON", level=30, hp=0, max_hp=90, status="OK",
        status_byte=0, type1=4, type2=5, type1_name="GROUND", type2_name="ROCK", moves=slots,
        stats=Stats(attack=80, defense=90, speed=40, special=40), dvs=0, slot=0, ot_id=1, exp=0,
    )  # fmt: skip


def with_cut(state: GameState, badges: tuple[str, ...] = ("BOULDER", "CASCADE")) -> GameState:
    # A fainted member (hp 0) still uses a field move: the menu does not look at HP.
    party = (member("TACKLE"), member("STOMP", "CUT"))
    progress = state.progress.model_copy(update={"badge_names": badges})
    return state.model_copy(update={"party": party, "progress": progress})


def plan(w: World, state: GameState, x: int, y: int) -> Plan | None:
    around = surroundings(w, state, gates=())
    return Planner(w, around).plan(target_for(w, around, SquareGoal(map_id=ROUTE, x=x, y=y)))


def route(art: tuple[str, ...] = ART) -> World:
    return build_world(TinyMap(ROUTE, "ROUTE", art))


def test_cut_needs_both_a_member_that_knows_it_and_the_cascade_badge() -> None:
    assert "CUT" not in usable_field_moves(PALLET)
    assert usable_field_moves(with_cut(PALLET)) == {"CUT"}
    assert member_with(with_cut(PALLET), "CUT") == 1
    assert "CUT" not in usable_field_moves(with_cut(PALLET, badges=("BOULDER",)))


def test_a_tree_is_a_wall_without_cut_and_an_edge_with_it() -> None:
    w = route()
    start = state_at(PALLET, ROUTE, 0, 1)
    assert plan(w, start, 5, 1) is None
    found = plan(w, with_cut(start), 5, 1)
    assert found is not None and [e.kind for e in found.edges].count("cut") == 1
    cut = next(e for e in found.edges if e.kind == "cut")
    assert cut.to == (ROUTE, 2, 1) and found.steps == 5  # the tree's square is stood on like any other


def test_a_short_walk_round_beats_the_menus_of_cut() -> None:
    w = route(DETOUR_ART)
    found = plan(w, with_cut(state_at(PALLET, ROUTE, 1, 1)), 3, 1)
    assert found is not None and all(e.kind != "cut" for e in found.edges)  # 6 steps round, cut costs 20


def test_the_surroundings_carry_the_usable_field_moves() -> None:
    w = route()
    assert surroundings(w, with_cut(state_at(PALLET, ROUTE, 0, 1)), gates=()).field_moves >= {"CUT"}
    around = replace(surroundings(w, state_at(PALLET, ROUTE, 0, 1), gates=()), field_moves=frozenset({"CUT"}))
    found = Planner(w, around).plan(target_for(w, around, SquareGoal(map_id=ROUTE, x=4, y=1)))
    assert found is not None


def test_a_tree_is_its_tilesets_cut_tile_and_nothing_else() -> None:
    w = route()
    assert w.is_tree(ROUTE, 2, 1) and not w.is_tree(ROUTE, 1, 1) and not w.is_tree(ROUTE, 2, 0)


def test_potions_heals_revives_stones_and_candy_are_given_to_a_member_and_nothing_else_is() -> None:
    for item in ("POTION", "FULL_RESTORE", "ANTIDOTE", "REVIVE", "MOON_STONE", "LEAF_STONE", "RARE_CANDY"):
        assert can_give(item), item
    for item in ("POKE_BALL", "X_ATTACK", "POKE_FLUTE", "HM_CUT"):
        assert not can_give(item), item


def test_a_level_up_move_replaces_the_least_useful_one_only_when_worth_more() -> None:
    assert level_up_room(member("SCRATCH", "GROWL", "TAIL_WHIP", "LEER"), "EMBER") == 1
    assert level_up_room(member("SCRATCH", "EMBER", "SLASH", "ROCK_SLIDE"), "LEER") is None
    assert level_up_room(member("CUT", "GROWL", "TAIL_WHIP", "LEER"), "EMBER") == 1  # never the HM
    assert level_up_room(member("SCRATCH", "GROWL"), "EMBER") is None  # a free slot: no question asked


def test_the_vending_machines_drinks_are_in_menu_order_with_their_prices() -> None:
    assert list(DRINKS) == ["FRESH_WATER", "SODA_POP", "LEMONADE"]  # CANCEL is the fourth entry
    assert [DRINKS[drink] for drink in DRINKS] == [200, 300, 350]
    assert all(drink in game_data().item_ids for drink in DRINKS)
