"""The BICYCLE as a shortcut (engine/tactician/by_bike.py): when a long ride ahead is worth the bag's
menus, on drawn maps of the tilesets where the game allows riding and one where it does not."""

from __future__ import annotations

from engine.game.models import BagItem, GameState
from engine.tactician.by_bike import RIDE_WORTH, by_bike, ridden_steps, riding_allowed
from engine.world.goals import HereGoal, Leg, MapGoal, SquareGoal
from engine.world.planner import Planner, surroundings
from engine.world.targets import target_for
from engine.world.world import World
from tests.support.tiny_world import INDOOR, TinyMap, build_world, overworld_state, state_at

TOWN, HOUSE, ROUTE_23 = 1, 2, 34
BICYCLE = BagItem(item_id=6, name="BICYCLE", quantity=1)


def town_and_house(width: int = 60) -> World:
    """A long outdoor town with a house's door at its east end, and the house (riding not allowed)."""
    art = ["." * (width - 2) + "D.", *("." * width for _ in range(5))]
    town = TinyMap(TOWN, "TOWN", art, warps=[(width - 2, 0, HOUSE, 0)])
    house = TinyMap(HOUSE, "HOUSE", ["....", "...."], tileset=INDOOR, warps=[(1, 1, TOWN, 0)])
    return build_world(town, house)


def cyclist(
    world: World, map_id: int = TOWN, x: int = 0, y: int = 3, bag: tuple[BagItem, ...] = (BICYCLE,)
) -> GameState:
    state = state_at(overworld_state(), map_id, x, y)
    return state.model_copy(update={"bag": bag})


def test_a_long_ride_begins_by_getting_on() -> None:
    w = town_and_house()
    leg = by_bike(w, cyclist(w), Leg(goal=SquareGoal(map_id=TOWN, x=50, y=3)))
    assert leg.use == "BICYCLE" and isinstance(leg.goal, HereGoal)
    assert leg.reason == "on the BICYCLE: 50 steps to ride"


def test_a_short_walk_no_bicycle_already_riding_or_indoors_is_walked() -> None:
    w = town_and_house()
    far = Leg(goal=SquareGoal(map_id=TOWN, x=50, y=3))
    near = Leg(goal=SquareGoal(map_id=TOWN, x=RIDE_WORTH - 1, y=3))
    assert by_bike(w, cyclist(w), near) == near
    assert by_bike(w, cyclist(w, bag=()), far) == far
    riding = cyclist(w)
    riding = riding.model_copy(update={"overworld": riding.overworld.model_copy(update={"mode": "bike"})})
    assert by_bike(w, riding, far) == far
    indoors = cyclist(w, HOUSE, 1, 0)
    out = Leg(goal=SquareGoal(map_id=TOWN, x=10, y=3))
    assert by_bike(w, indoors, out) == out


def test_only_the_steps_before_a_door_count() -> None:
    w = town_and_house()
    state = cyclist(w)
    around = surroundings(w, state)
    plan = Planner(w, around).plan(target_for(w, around, MapGoal(map_id=HOUSE)))
    assert plan is not None and plan.steps > RIDE_WORTH
    # Into the house at the town's far end: every step is ridden up to the door, none inside.
    assert plan.edges[-1].kind == "door" and ridden_steps(w, plan) == plan.steps - 1
    short = town_and_house(width=RIDE_WORTH - 8)
    leg = Leg(goal=MapGoal(map_id=HOUSE))
    assert by_bike(short, cyclist(short), leg) == leg  # the door comes before the ride would pay


def test_where_riding_is_allowed() -> None:
    w = build_world(
        TinyMap(TOWN, "TOWN", ["....", "...."]),
        TinyMap(HOUSE, "HOUSE", ["....", "...."], tileset=INDOOR),
        # ROUTE_23 is allowed by its name, whatever its tileset.
        TinyMap(ROUTE_23, "ROUTE_23", ["....", "...."], tileset=INDOOR),
    )
    assert riding_allowed(w, TOWN) and riding_allowed(w, ROUTE_23)
    assert not riding_allowed(w, HOUSE) and not riding_allowed(w, 99)
