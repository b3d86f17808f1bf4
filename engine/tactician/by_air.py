"""FLY as a shortcut: a long walk is replaced by a flight to the visited town from which the rest is
shortest, when that saves enough.

One search answers the question: the planner starts at once from every visited town's landing square
(world/tables.py FLY_SPOTS), each already costing a flight, and the cheapest way to the goal names the
town. FLY works only outdoors (pret home/overworld.asm CheckIfInOutsideMap), so from indoors the leg first
goes out to the nearest outdoor square when the flight still pays from there.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.game.field_moves import usable_field_moves
from engine.game.models import GameState
from engine.world.errors import WorldError
from engine.world.goals import HereGoal, Leg, SquareGoal, StepGoal
from engine.world.models import Square
from engine.world.planner import Planner, surroundings
from engine.world.tables import FLY_SPOTS, FLY_TILESETS
from engine.world.targets import target_for
from engine.world.world import Edge, World

# A flight's price in steps: the party menu, the town map and the bird take about 380 frames, a step 16.
FLY_COST = 24.0
WORTH = 40.0  # a flight must save at least this many steps' worth to be taken


@dataclass(frozen=True)
class Outdoors:
    """Any square of a map FLY can be used on."""

    world: World

    def reached(self, square: Square, edge: Edge | None) -> bool:
        return self.world.maps[square[0]].tileset in FLY_TILESETS

    def facing(self, square: Square) -> None:
        return None

    def estimate(self, square: Square) -> float:
        return 0.0


def by_air(world: World, state: GameState, leg: Leg) -> Leg:
    """`leg`, or a flight (or the walk out of doors before one) that gets to its goal sooner."""
    here = state.overworld
    goal_map = getattr(leg.goal, "map_id", None)
    if leg.fly or leg.order or isinstance(leg.goal, HereGoal | StepGoal) or goal_map in (None, here.map_id):
        return leg
    if "FLY" not in usable_field_moves(state):
        return leg
    around = surroundings(world, state)
    try:
        target = target_for(world, around, leg.goal)
    except WorldError:
        return leg
    planner = Planner(world, around)
    walk = planner.plan(target)
    walking = walk.cost if walk is not None else float("inf")
    if walking < FLY_COST + WORTH:
        return leg
    towns = {(world.by_name[town].id, x, y): (town, FLY_COST) for town, (x, y) in FLY_SPOTS.items()
             if town in state.story.towns_visited and town in world.by_name}  # fmt: skip
    flight = planner.plan_from({spot: cost for spot, (_, cost) in towns.items()}, target)
    if flight is None or flight.start not in towns:
        return leg
    town = towns[flight.start][0]
    if world.maps[here.map_id].tileset in FLY_TILESETS:
        if flight.cost + WORTH > walking:
            return leg
        why = f"FLY to {town}: {flight.cost:.0f} steps' worth against {walking:.0f} walking"
        return Leg(goal=HereGoal(), fly=town, reason=why)
    out = planner.plan(Outdoors(world))
    if out is None or out.cost + flight.cost + WORTH > walking:
        return leg
    map_id, x, y = out.end
    why = f"out of doors, to FLY to {town} ({out.cost + flight.cost:.0f} steps' worth against {walking:.0f})"
    return Leg(goal=SquareGoal(map_id=map_id, x=x, y=y), reason=why)
