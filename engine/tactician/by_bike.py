"""The BICYCLE as a shortcut: a long ride ahead is begun by getting on it.

A ridden step takes 8 frames instead of 16 (pret home/overworld.asm DoBikeSpeedup), and the bag's menus
cost about 200 frames, so getting on pays once the walk ahead stays on ground the bicycle is allowed on
for RIDE_WORTH steps. The game keeps the player on it from map to map until a building, the sea or a
ground it is not allowed on (pret home/overworld.asm LoadPlayerSpriteGraphics, IsBikeRidingAllowed).
"""

from __future__ import annotations

from engine.game.models import GameState
from engine.world.errors import WorldError
from engine.world.goals import HereGoal, Leg, StepGoal
from engine.world.planner import Plan, Planner, surroundings
from engine.world.tables import BIKE_MAPS, BIKE_TILESETS
from engine.world.targets import target_for
from engine.world.world import World

RIDE_WORTH = 32  # ridden steps that pay for the menus (8 frames saved each)


def riding_allowed(world: World, map_id: int) -> bool:
    data = world.maps.get(map_id)
    return data is not None and (data.tileset in BIKE_TILESETS or data.name in BIKE_MAPS)


def ridden_steps(world: World, plan: Plan) -> int:
    """Steps of the plan from its start that the bicycle would carry: until a warp, the sea or ground
    where it is not allowed."""
    ridden = 0
    for edge in plan.edges:
        if edge.kind in ("door", "surf", "swim", "lift", "push") or edge.to is None:
            break
        if not riding_allowed(world, edge.to[0]):
            break
        ridden += 2 if edge.kind == "hop" else 1
    return ridden


def by_bike(world: World, state: GameState, leg: Leg) -> Leg:
    """`leg`, or getting on the BICYCLE first when the walk ahead is a long ride."""
    here = state.overworld
    if here.mode != "walk" or isinstance(leg.goal, HereGoal | StepGoal) or _ends_in_menus(leg):
        return leg
    if not riding_allowed(world, here.map_id) or not any(item.name == "BICYCLE" for item in state.bag):
        return leg
    around = surroundings(world, state)
    try:
        plan = Planner(world, around).plan(target_for(world, around, leg.goal))
    except WorldError:
        return leg
    if plan is None:
        return leg
    ridden = ridden_steps(world, plan)
    if ridden < RIDE_WORTH:
        return leg
    return Leg(goal=HereGoal(), use="BICYCLE", reason=f"on the BICYCLE: {ridden} steps to ride")


def _ends_in_menus(leg: Leg) -> bool:
    return bool(leg.use or leg.fly or leg.teach or leg.toss or leg.give or leg.push or leg.pc or leg.order)
