"""Items worth a detour: a RARE_CANDY within its worth in steps is picked up and a far one is not, a TM is
worth its walk only when the TM planner would teach it, an item already taken is not looked for, a ball
tried twice is left alone, and one near a trainer the team would likely lose to waits."""

from __future__ import annotations

from engine.game.models import GameState, Sprite
from engine.game.tables import game_data
from engine.tactician.collecting import TRIES, WORTH_STEPS, Collector
from engine.tactician.explorer import Explorer
from engine.team.machines import MachinePlanner
from engine.team.planner import GAUNTLET
from engine.world.goals import ObjectGoal
from engine.world.world import World
from tests.support.tiny_world import TinyMap, build_world, person, state_at
from tests.unit.test_machines import trained
from tests.unit.test_team import team

HALL = 1
WIDE = 100  # squares of the hall: room for a ball too far to walk to


def world(*items: tuple[int, int, str]) -> World:
    art = ["#" * (WIDE + 2), "#" + "." * WIDE + "#", "#" + "." * WIDE + "#", "#" * (WIDE + 2)]
    balls = tuple(person(index + 1, x, 1, item=game_data().item_ids[name])
                  for index, (x, _, name) in enumerate(items))  # fmt: skip
    return build_world(TinyMap(HALL, "HALL", art, objects=balls))


def standing(base: GameState, *items: tuple[int, int, str]) -> GameState:
    sprites = tuple(Sprite(index=index + 1, picture=1, x=x, y=1, facing="down", walking=False)
                    for index, (x, _, _) in enumerate(items))  # fmt: skip
    return state_at(base, HALL, 1, 1, sprites=sprites)


def collect(
    items: tuple[tuple[int, int, str], ...], base: GameState, shown: int | None = None
) -> ObjectGoal | None:
    w = world(*items)
    explorer = Explorer(w)
    state = standing(base, *(items if shown is None else items[:shown]))
    leg = Collector(w, MachinePlanner()).leg(state, GAUNTLET, explorer.nearest_talk)
    return leg.goal if leg is not None and isinstance(leg.goal, ObjectGoal) else None


BLASTOISE = team(trained("BLASTOISE", 58, ("SURF", "HYDRO_PUMP", "SKULL_BASH", "STRENGTH")))


def test_a_near_rare_candy_is_picked_up_and_a_far_one_is_not() -> None:
    near = WORTH_STEPS["RARE_CANDY"] - 10
    assert collect(((near, 0, "RARE_CANDY"),), BLASTOISE) == ObjectGoal(map_id=HALL, index=1)
    far = WORTH_STEPS["RARE_CANDY"] + 10
    assert collect(((far, 0, "RARE_CANDY"),), BLASTOISE) is None


def test_a_tm_is_worth_its_walk_only_when_the_team_would_learn_it() -> None:
    assert collect(((20, 0, "TM_BLIZZARD"),), BLASTOISE) == ObjectGoal(map_id=HALL, index=1)
    assert collect(((20, 0, "TM_TELEPORT"),), BLASTOISE) is None
    assert collect(((20, 0, "POTION"),), BLASTOISE) is None  # cheap things are not worth a detour


def test_an_item_already_taken_is_not_looked_for() -> None:
    assert collect(((20, 0, "RARE_CANDY"),), BLASTOISE, shown=0) is None


def test_a_ball_tried_twice_is_left_alone() -> None:
    w = world((20, 0, "RARE_CANDY"))
    collector, explorer = Collector(w, MachinePlanner()), Explorer(w)
    state = standing(BLASTOISE, (20, 0, "RARE_CANDY"))
    legs = [collector.leg(state, GAUNTLET, explorer.nearest_talk) for _ in range(TRIES + 1)]
    assert [leg is not None for leg in legs] == [True] * TRIES + [False]


def test_a_ball_near_a_trainer_the_team_would_likely_lose_to_waits_and_is_not_given_up() -> None:
    w = world((20, 0, "RARE_CANDY"))
    collector, explorer = Collector(w, MachinePlanner()), Explorer(w)
    state = standing(BLASTOISE, (20, 0, "RARE_CANDY"))
    feared_here = [collector.leg(state, GAUNTLET, explorer.nearest_talk, lambda at, where: where == HALL)
                   for _ in range(TRIES + 1)]  # fmt: skip
    assert feared_here == [None] * (TRIES + 1)
    leg = collector.leg(state, GAUNTLET, explorer.nearest_talk, lambda at, where: False)
    assert leg is not None and leg.goal == ObjectGoal(map_id=HALL, index=1)  # its tries were not used up
