"""Item balls in the world model: in the way like a person, but a walk may go through one at a cost (the
ball is picked up first); a step of the story may end by using an item from the bag."""

from __future__ import annotations

from engine.game.models import Sprite
from engine.story.graph import parse_graph
from engine.tactician.explorer import Explorer
from engine.tactician.pilot import Pilot
from engine.world.goals import SquareGoal, ThingGoal
from engine.world.models import MapObject
from engine.world.planner import ITEM_COST, Planner, surroundings
from engine.world.targets import target_for
from engine.world.world import World
from tests.support.tiny_world import INDOOR, TinyMap, build_world, overworld_state, state_at

ROOM, OTHER = 1, 2
# A corridor one square wide: the ball at (2, 1) is the only way to the far end.
ART = ("######", "#....#", "######", "######")
PALLET = overworld_state()


def ball(x: int, y: int) -> MapObject:
    return MapObject(index=1, sprite=1, x=x, y=y, moves=False, facing=None, text_id=1, item=20)


def corridor() -> World:
    return build_world(
        TinyMap(ROOM, "ROOM", ART, tileset=INDOOR, objects=(ball(2, 1),)),
        TinyMap(OTHER, "OTHER", ART, tileset=INDOOR),
    )


def test_a_ball_in_the_only_way_is_walked_through_at_a_cost_and_people_stay_walls() -> None:
    w = corridor()
    around = surroundings(w, state_at(PALLET, OTHER, 1, 1), gates=())  # the ball on another map
    assert (ROOM, 2, 1) in around.items and (ROOM, 2, 1) not in around.blocked
    sprite = Sprite(index=1, picture=1, x=2, y=1, facing="down", walking=False)
    here = surroundings(w, state_at(PALLET, ROOM, 1, 1, sprites=[sprite]), gates=())
    assert (ROOM, 2, 1) in here.items  # on this map, where its sprite stands
    found = Planner(w, here).plan(target_for(w, here, SquareGoal(map_id=ROOM, x=4, y=1)))
    assert found is not None and found.steps == 3 and found.cost == 3 + ITEM_COST


def test_a_use_step_walks_to_face_its_thing_and_ends_by_using_the_item() -> None:
    w = corridor()
    graph = parse_graph({"objectives": [
        {"name": "wake", "title": "wake it", "done": [["event:EVENT_BEAT_ROUTE12_SNORLAX"]], "source": "test",
         "steps": [{"do": "use", "map": "ROOM", "thing": [4, 2, "down"], "use": "POKE_FLUTE"}]},
    ]})  # fmt: skip
    leg = Pilot(w, graph, Explorer(w), 3).leg(state_at(PALLET, OTHER, 1, 1), "wake")
    assert leg is not None and leg.use == "POKE_FLUTE" and not leg.interact
    assert leg.goal == ThingGoal(map_id=ROOM, x=4, y=2, facing="down")
