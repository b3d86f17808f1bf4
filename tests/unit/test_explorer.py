"""The exploring policy on drawn maps: nearest unseen ground first, doors into maps never entered,
goals given up until the story moves, gates tried last, then people; snapshots restore all of it."""

from __future__ import annotations

import json

from engine.game.models import GameState, Sprite, Story
from engine.messages import LegReport
from engine.tactician.explorer import Explorer, ExplorerSnapshot
from engine.world.goals import Leg, ObjectGoal, SquareGoal, StepGoal, WarpGoal
from engine.world.world import World
from tests.support.tiny_world import INDOOR, TinyMap, build_world, overworld_state, person, state_at, walk_leg

TOWN, HOUSE = 1, 2
BASE = overworld_state()
TOWN_ART = ("#" * 24, *("#" + "." * 22 + "#" for _ in range(20)), "#" * 24)
HOUSE_ART = ("######", "#....#", "#....#", "#....#")


def world(town_objects: tuple = ()) -> World:  # type: ignore[type-arg]
    art = list(TOWN_ART)
    art[1] = "#D" + art[1][2:]
    town = TinyMap(TOWN, "TOWN", art, warps=[(1, 1, HOUSE, 0)], objects=town_objects)
    house = TinyMap(HOUSE, "HOUSE", HOUSE_ART, tileset=INDOOR, warps=[(2, 3, TOWN, 0)])
    return build_world(town, house)


def explore(explorer: Explorer, w: World, state: GameState, legs: int) -> tuple[list[Leg], GameState]:
    chosen = []
    for _ in range(legs):
        leg = explorer.choose(state)
        report = walk_leg(w, state, leg)
        explorer.record(leg, report, state)
        chosen.append(leg)
        state = report.state
    return chosen, state


def test_the_first_goal_is_the_nearest_ground_the_screen_has_not_shown() -> None:
    w = world()
    explorer = Explorer(w)
    leg = explorer.choose(state_at(BASE, TOWN, 12, 10))
    assert isinstance(leg.goal, SquareGoal) and leg.intent == "explore"
    # The screen shows x-4..x+5 and y-4..y+4: the nearest unseen square is just past its edge.
    assert (leg.goal.x, leg.goal.y) in {(7, 10), (18, 10), (12, 5), (12, 15)}
    assert "not seen" in leg.reason


def test_exploring_covers_the_town_then_takes_the_door_into_the_house() -> None:
    w = world()
    explorer = Explorer(w)
    legs, _ = explore(explorer, w, state_at(BASE, TOWN, 12, 10), 30)
    warps = [leg for leg in legs if isinstance(leg.goal, WarpGoal)]
    assert warps and warps[0].goal == WarpGoal(map_id=TOWN, index=0)
    seen = explorer.seen[TOWN]
    assert all((x, y) in seen for x in range(1, 23) for y in range(1, 21))
    assert HOUSE in explorer.seen
    counters = explorer.counters()
    assert counters["maps_seen"] == 2 and counters["seen_squares"] >= 22 * 20 and counters["warps_taken"] >= 1


def test_a_door_back_to_a_known_map_is_nothing_new() -> None:
    w = world()
    explorer = Explorer(w)
    explorer.look((TOWN, 1, 2))
    for x in range(0, 24, 5):
        for y in range(0, 22, 4):
            explorer.look((TOWN, x, y))
    explorer.look((HOUSE, 2, 2))
    leg = explorer.choose(state_at(BASE, HOUSE, 2, 2))
    assert not isinstance(leg.goal, WarpGoal)  # nothing left: a step at random
    assert isinstance(leg.goal, StepGoal)


def test_a_goal_that_was_not_reached_is_left_until_the_story_moves_on() -> None:
    w = world()
    explorer = Explorer(w)
    start = state_at(BASE, TOWN, 12, 10)
    first = explorer.choose(start)
    failed = LegReport(outcome="no_path", reason="test", steps=0, frames=0, planned_steps=None, state=start)
    explorer.record(first, failed, start)
    assert explorer.choose(start).goal != first.goal
    moved_on = state_at(BASE, TOWN, 12, 10, story=Story(event_flags=frozenset({1})))
    assert explorer.choose(moved_on).goal == first.goal


def test_with_nothing_new_to_see_it_talks_to_people_items_first() -> None:
    w = world(town_objects=(person(1, 5, 5), person(2, 20, 18, item=3)))
    explorer = Explorer(w)
    for x in range(0, 24, 5):
        for y in range(0, 22, 4):
            explorer.look((TOWN, x, y))
    explorer.look((HOUSE, 2, 2))
    sprites = [Sprite(index=1, picture=1, x=5, y=5, facing="down", walking=False),
               Sprite(index=2, picture=1, x=20, y=18, facing="down", walking=False)]  # fmt: skip
    state = state_at(BASE, TOWN, 6, 6, sprites=sprites)
    leg = explorer.choose(state)
    assert leg.goal == ObjectGoal(map_id=TOWN, index=2) and leg.interact  # the item, though farther
    explorer.record(leg, walk_leg(w, state, leg), state)
    assert explorer.choose(state).goal == ObjectGoal(map_id=TOWN, index=1)


def test_without_a_world_it_steps_at_random_and_repeats_with_its_seed() -> None:
    here = state_at(BASE, TOWN, 3, 3)
    first = [Explorer(None, seed=5).choose(here).goal for _ in range(1)]
    a, b = Explorer(None, seed=5), Explorer(None, seed=5)
    assert [a.choose(here) for _ in range(10)] == [b.choose(here) for _ in range(10)]
    assert all(isinstance(goal, StepGoal) for goal in first)


def test_a_snapshot_through_json_carries_on_with_the_same_legs() -> None:
    w = world(town_objects=(person(1, 5, 5),))
    original = Explorer(w, seed=3)
    _, state = explore(original, w, state_at(BASE, TOWN, 12, 10), 12)
    snapshot = ExplorerSnapshot.model_validate(
        json.loads(json.dumps(original.snapshot().model_dump(mode="json")))
    )
    fresh = Explorer(w, seed=99)
    fresh.restore(snapshot)
    assert fresh.snapshot() == original.snapshot()
    assert explore(fresh, w, state, 15)[0] == explore(original, w, state, 15)[0]


def test_a_gate_tried_stays_shut_for_the_walk_through_another_gate() -> None:
    from engine.world.models import Connection

    # Two of Saffron's thirsty guards' gates side by side (pret scripts/Route5Gate.asm: (3, 3) and (4, 3);
    # Route6Gate.asm: (3, 2) and (4, 2)), unseen ground behind each.
    first, second = 70, 73
    near_side = ["........"] * 3
    first_art = [*near_side, "###..###", *("......." + "#" for _ in range(20))]
    second_art = [near_side[0], near_side[1], "###..###", *("........" for _ in range(21))]
    w = build_world(
        TinyMap(
            first,
            "ROUTE_5_GATE",
            first_art,
            connections=[Connection(side="east", map_id=second, land=0, shift=0)],
        ),
        TinyMap(
            second,
            "ROUTE_6_GATE",
            second_art,
            connections=[Connection(side="west", map_id=first, land=7, shift=0)],
        ),
    )
    explorer = Explorer(w)
    start = state_at(BASE, first, 1, 1)
    for _ in range(12):  # the near side first, then the ground behind the gates
        leg = explorer.choose(start)
        if leg.cross_gates:
            break
        report = walk_leg(w, start, leg)
        explorer.record(leg, report, start)
        start = report.state
    assert leg.cross_gates and leg.shut == () and "through a story gate" in leg.reason
    # The guard turned the player back at the first gate: a scene next to it.
    turned_back = LegReport(outcome="dialog", reason="test", steps=1, frames=16, planned_steps=3,
                            walked=((first, 3, 3),), state=start)  # fmt: skip
    explorer.record(leg, turned_back, start)
    again = explorer.choose(start)
    assert again.cross_gates and again.shut == ((first, 3, 3), (first, 4, 3))
    # As the walk plans it where it runs: through the second gate, not the nearer first one.
    walked = walk_leg(w, start, again)
    assert any(square[0] == second and square[2] >= 2 and square[1] in (3, 4) for square in walked.walked)
    assert not any(square[0] == first and square[2] == 3 for square in walked.walked)
