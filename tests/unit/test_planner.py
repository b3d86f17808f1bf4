"""The planner on drawn maps: shortest walks, costs by intent, people, gates, trainers' eyes, doors and
map edges in one plan, and the squares from which to talk to someone."""

from __future__ import annotations

from engine.game.models import Direction, GameState, Sprite, Story
from engine.world.gates import Condition, Gate
from engine.world.goals import MapGoal, ObjectGoal, SignGoal, SquareGoal
from engine.world.models import Connection, Sign
from engine.world.planner import Plan, Planner, gates_as_costs, surroundings
from engine.world.targets import target_for
from engine.world.world import World
from tests.support.tiny_world import INDOOR, TinyMap, build_world, overworld_state, person, state_at

FIELD, OTHER, SHOP = 1, 2, 3
PALLET = overworld_state()
FIELD_ART = (
    ".........D",
    ".########.",
    '."""""""..',
    '."""""""..',
    "..........",
    "..........",
)
SHOP_ART = ("######", "#.||.#", "#....#", "#....#")


def world(objects: tuple = (), shop_objects: tuple = ()) -> World:  # type: ignore[type-arg]
    field = TinyMap(FIELD, "FIELD", FIELD_ART, objects=objects, warps=[(9, 0, SHOP, 0)],
                    connections=[Connection(side="east", map_id=OTHER, land=0, shift=0)],
                    signs=[Sign(x=0, y=5, text_id=1)])  # fmt: skip
    other = TinyMap(OTHER, "OTHER", ("....", "....", "....", "...."),
                    connections=[Connection(side="west", map_id=FIELD, land=9, shift=0)])  # fmt: skip
    shop = TinyMap(SHOP, "SHOP", SHOP_ART, tileset=INDOOR, warps=[(2, 3, FIELD, 0)], objects=shop_objects)
    return build_world(field, other, shop)


def plan(w: World, state: GameState, goal, intent="travel") -> Plan | None:  # type: ignore[no-untyped-def]
    around = surroundings(w, state, gates=())
    return Planner(w, around, intent).plan(target_for(w, around, goal))


def test_the_shortest_walk_on_one_map() -> None:
    w = world()
    found = plan(w, state_at(PALLET, FIELD, 0, 4), SquareGoal(map_id=FIELD, x=4, y=5))
    assert found is not None and found.steps == 5 and found.end == (FIELD, 4, 5)


def test_travel_walks_around_grass_when_the_detour_is_short_and_training_goes_through() -> None:
    w = world()
    start, goal = state_at(PALLET, FIELD, 0, 2), SquareGoal(map_id=FIELD, x=8, y=2)
    travel, train = plan(w, start, goal, "travel"), plan(w, start, goal, "train")
    assert travel is not None and train is not None
    grass = [e for e in travel.edges if e.grass]
    assert not grass and travel.steps == 12  # down two rows, along, back up
    assert train.steps == 8 and any(e.grass for e in train.edges)


def test_people_block_their_square_and_the_walk_goes_around() -> None:
    w = world()
    blocker = Sprite(index=1, picture=1, x=1, y=4, facing="down", walking=False)
    found = plan(w, state_at(PALLET, FIELD, 0, 4, sprites=[blocker]), SquareGoal(map_id=FIELD, x=2, y=4))
    assert found is not None and (FIELD, 1, 4) not in [e.to for e in found.edges]
    assert found.steps == 4


def test_a_trainers_eyes_cost_extra_until_it_is_beaten() -> None:
    trainer = person(1, 5, 0, trainer_class=1, trainer_number=1, sight=4, beaten_event=7)
    w = world(objects=(trainer,))
    watcher = Sprite(index=1, picture=1, x=5, y=0, facing="down", walking=False)
    unbeaten = surroundings(w, state_at(PALLET, FIELD, 0, 4, sprites=[watcher]), gates=())
    # Seen through the wall below it (the game compares coordinates only), as far as its range.
    assert {(FIELD, 5, 2), (FIELD, 5, 4)} <= unbeaten.watched and (FIELD, 5, 5) not in unbeaten.watched
    beaten_story = Story(event_flags=frozenset({7}))
    beaten = surroundings(w, state_at(PALLET, FIELD, 0, 4, sprites=[watcher], story=beaten_story), gates=())
    assert not beaten.watched
    across = SquareGoal(map_id=FIELD, x=9, y=4)
    careful = Planner(w, unbeaten, "travel").plan(target_for(w, unbeaten, across))
    assert careful is not None and all(e.to != (FIELD, 5, 4) for e in careful.edges)  # row 5 instead


def test_a_closed_gate_is_a_wall_unless_the_leg_may_cross_it() -> None:
    w = world()
    gate = Gate(map_name="FIELD", squares=((0, 3),), opens=Condition(kind="event", name="EVENT_X"),
                scene="test", source="test")  # fmt: skip
    around = surroundings(w, state_at(PALLET, FIELD, 0, 5), gates=(gate,))
    assert (FIELD, 0, 3) in around.gated
    goal = target_for(w, around, SquareGoal(map_id=FIELD, x=0, y=2))
    shut = Planner(w, around).plan(goal)
    assert shut is not None and shut.steps > 3  # around through the grass
    crossing = Planner(w, gates_as_costs(around), costly_cost=0).plan(goal)
    assert crossing is not None and crossing.steps == 3
    opened = surroundings(w, state_at(PALLET, FIELD, 0, 5, story=Story(events=frozenset({"EVENT_X"}))),
                          gates=(gate,))  # fmt: skip
    assert not opened.gated


def test_one_plan_crosses_a_map_edge_and_goes_through_a_door() -> None:
    w = world()
    east = plan(w, state_at(PALLET, FIELD, 9, 4), MapGoal(map_id=OTHER))
    assert east is not None and east.edges[-1].kind == "cross" and east.end == (OTHER, 0, 3)
    inside = plan(w, state_at(PALLET, FIELD, 9, 2), MapGoal(map_id=SHOP))
    assert inside is not None and inside.edges[-1].kind == "door" and inside.end == (SHOP, 2, 3)


def test_talking_ends_next_to_the_person_facing_them_or_across_the_counter() -> None:
    clerk = person(1, 2, 0)
    w = world(shop_objects=(clerk,))
    live = Sprite(index=1, picture=1, x=2, y=0, facing="down", walking=False)
    found = plan(w, state_at(PALLET, SHOP, 2, 3, sprites=[live]), ObjectGoal(map_id=SHOP, index=1))
    assert found is not None and found.end == (SHOP, 2, 2) and found.face is Direction.UP


def test_a_sign_is_read_from_a_neighbouring_square() -> None:
    w = world()
    found = plan(w, state_at(PALLET, FIELD, 3, 5), SignGoal(map_id=FIELD, index=0))
    assert found is not None and found.end in {(FIELD, 1, 5), (FIELD, 0, 4)}
    assert found.face in {Direction.LEFT, Direction.DOWN}


def test_nowhere_to_go_is_no_plan() -> None:
    w = world()
    boxed = [Sprite(index=i, picture=1, x=x, y=y, facing="down", walking=False)
             for i, (x, y) in enumerate([(1, 4), (0, 5), (0, 3)], start=1)]  # fmt: skip
    assert plan(w, state_at(PALLET, FIELD, 0, 4, sprites=boxed), SquareGoal(map_id=FIELD, x=9, y=5)) is None


def test_with_no_experience_wanted_a_trainers_eyes_are_worth_a_longer_detour() -> None:
    # A corridor along the bottom row, which a trainer in the wall above watches at one square; the way
    # round over the top row is 8 steps longer.
    art = ("..........", ".########.", ".########.", ".########.", "..........", "##########")
    trainer = person(1, 5, 3, trainer_class=1, trainer_number=1, sight=1, beaten_event=7)
    w = build_world(TinyMap(FIELD, "FIELD", art, objects=(trainer,)))
    watcher = Sprite(index=1, picture=1, x=5, y=3, facing="down", walking=False)
    around = surroundings(w, state_at(PALLET, FIELD, 0, 4, sprites=[watcher]), gates=())
    assert (FIELD, 5, 4) in around.watched
    goal = SquareGoal(map_id=FIELD, x=9, y=4)
    travel = Planner(w, around, "travel").plan(target_for(w, around, goal))
    passing = Planner(w, around, "pass").plan(target_for(w, around, goal))
    assert travel is not None and travel.steps == 9  # past the trainer: a battle on the way is welcome
    assert passing is not None and passing.steps == 17 and all(e.to != (FIELD, 5, 4) for e in passing.edges)


def test_a_feared_trainers_eyes_are_walked_around_even_when_experience_is_wanted() -> None:
    # The corridor above: with experience wanted (`travel`) the walk goes past a trainer, but not past
    # one the team would likely lose to (the leg names it; the walk goes round over the top row).
    from dataclasses import replace

    from engine.world.planner import feared_squares

    art = ("..........", ".########.", ".########.", ".########.", "..........", "##########")
    trainer = person(1, 5, 3, trainer_class=1, trainer_number=1, sight=1, beaten_event=7)
    w = build_world(TinyMap(FIELD, "FIELD", art, objects=(trainer,)))
    watcher = Sprite(index=1, picture=1, x=5, y=3, facing="down", walking=False)
    state = state_at(PALLET, FIELD, 0, 4, sprites=[watcher])
    assert feared_squares(w, state, [(FIELD, 1)]) == {(FIELD, 5, 4)}
    beaten = state_at(PALLET, FIELD, 0, 4, sprites=[watcher], story=Story(event_flags=frozenset({7})))
    assert feared_squares(w, beaten, [(FIELD, 1)]) == frozenset()
    around = replace(surroundings(w, state, gates=()), feared=feared_squares(w, state, [(FIELD, 1)]))
    wary = Planner(w, around, "travel").plan(target_for(w, around, SquareGoal(map_id=FIELD, x=9, y=4)))
    assert wary is not None and wary.steps == 17 and all(e.to != (FIELD, 5, 4) for e in wary.edges)
