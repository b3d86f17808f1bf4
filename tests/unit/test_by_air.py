"""FLY as a shortcut (engine/tactician/by_air.py) and the planner's search from several starts at once
(world/planner.py Planner.plan_from), on drawn maps named after the towns FLY lands in."""

from __future__ import annotations

from engine.game.models import GameState, Story
from engine.tactician.by_air import FLY_COST, by_air
from engine.world.goals import HereGoal, Leg, MapGoal, SquareGoal
from engine.world.models import Connection
from engine.world.planner import Planner, surroundings
from engine.world.targets import SquaresTarget
from engine.world.world import World
from tests.support.tiny_world import TinyMap, build_world, overworld_state, state_at
from tests.unit.test_field_moves import member

PALLET, VIRIDIAN, ROUTE = 0, 1, 12


def floor(width: int, height: int) -> list[str]:
    return ["." * width for _ in range(height)]


def kanto(route_length: int = 60) -> World:
    """Pallet Town and Viridian City, FLY's landings inside them (5, 6) and (23, 26), and a long road that
    runs from Pallet's east edge to a dead end: the only way on foot from one town to the other is none."""
    east = Connection(side="east", map_id=ROUTE, land=0, shift=0)
    west = Connection(side="west", map_id=PALLET, land=9, shift=0)
    return build_world(
        TinyMap(PALLET, "PALLET_TOWN", floor(10, 8), connections=[east]),
        TinyMap(VIRIDIAN, "VIRIDIAN_CITY", floor(30, 30)),
        TinyMap(ROUTE, "ROUTE_1", floor(route_length, 8), connections=[west]),
    )


def flyer(
    state: GameState, badges: tuple[str, ...] = ("THUNDER",), towns: frozenset[str] | None = None
) -> GameState:
    visited = frozenset({"PALLET_TOWN", "VIRIDIAN_CITY"}) if towns is None else towns
    progress = state.progress.model_copy(update={"badge_names": badges})
    return state.model_copy(
        update={"party": (member("FLY"),), "progress": progress, "story": Story(towns_visited=visited)}
    )


def in_pallet(world: World) -> GameState:
    return flyer(state_at(overworld_state(), PALLET, 2, 2))


def test_several_starts_one_search_and_the_plan_names_its_start() -> None:
    w = kanto()
    around = surroundings(w, state_at(overworld_state(), PALLET, 2, 2))
    goal = SquaresTarget({(VIRIDIAN, 20, 20): None})
    plan = Planner(w, around).plan_from({(PALLET, 2, 2): 0.0, (VIRIDIAN, 23, 26): FLY_COST}, goal)
    assert plan is not None and plan.start == (VIRIDIAN, 23, 26)
    assert plan.cost == FLY_COST + 3 + 6 and plan.end == (VIRIDIAN, 20, 20)
    # A start that is the goal itself is a plan of no steps that still costs what standing there cost.
    there = Planner(w, around).plan_from({(VIRIDIAN, 20, 20): 5.0}, goal)
    assert there is not None and there.edges == () and there.cost == 5.0


def test_a_town_out_of_reach_on_foot_is_flown_to() -> None:
    w = kanto()
    state = in_pallet(w)
    leg = by_air(w, state, Leg(goal=MapGoal(map_id=VIRIDIAN)))
    assert leg.fly == "VIRIDIAN_CITY" and isinstance(leg.goal, HereGoal)
    assert leg.reason.startswith("FLY to VIRIDIAN_CITY")


def test_no_flight_without_the_move_the_badge_or_a_visit() -> None:
    w = kanto()
    walk = Leg(goal=MapGoal(map_id=VIRIDIAN))
    no_badge = flyer(state_at(overworld_state(), PALLET, 2, 2), badges=())
    unvisited = flyer(state_at(overworld_state(), PALLET, 2, 2), towns=frozenset({"PALLET_TOWN"}))
    no_move = in_pallet(w).model_copy(update={"party": (member("TACKLE"),)})
    for state in (no_badge, unvisited, no_move):
        assert by_air(w, state, walk) == walk


def test_a_short_walk_is_walked() -> None:
    w = kanto()
    near = Leg(goal=SquareGoal(map_id=ROUTE, x=3, y=0))  # a few steps east of Pallet Town
    assert by_air(w, in_pallet(w), near) == near


def test_from_far_down_a_road_the_town_behind_is_flown_to_only_when_it_saves_enough() -> None:
    back = Leg(goal=MapGoal(map_id=PALLET))
    for length, flies in ((60, False), (140, True)):
        w = kanto(route_length=length)
        far = flyer(state_at(overworld_state(), ROUTE, length - 2, 0))
        assert (by_air(w, far, back).fly == "PALLET_TOWN") is flies
