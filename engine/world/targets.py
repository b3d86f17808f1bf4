"""Goals turned into planner targets: the squares that end a leg, and the way to face there."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.game.models import Direction
from engine.world.errors import UnknownPlaceError
from engine.world.goals import Goal, HereGoal, MapGoal, ObjectGoal, SignGoal, SquareGoal, ThingGoal, WarpGoal
from engine.world.models import MapData, Square
from engine.world.planner import Surroundings, Target, facing_squares
from engine.world.world import STEPS, Edge, World

FEW_SQUARES = 8


@dataclass(frozen=True)
class SquaresTarget:
    """Any of these squares, each with the way to face on arrival (None: as it comes)."""

    squares: dict[Square, Direction | None] = field(default_factory=dict)

    def reached(self, square: Square, edge: Edge | None) -> bool:
        return square in self.squares

    def facing(self, square: Square) -> Direction | None:
        return self.squares.get(square)

    def estimate(self, square: Square) -> float:
        """Steps as the crow walks to the nearest of a few squares on this map (a long list: 0)."""
        if len(self.squares) > FEW_SQUARES:
            return 0.0
        near = [abs(x - square[1]) + abs(y - square[2]) for m, x, y in self.squares if m == square[0]]
        return float(min(near)) if near else 0.0


@dataclass(frozen=True)
class MapTarget:
    map_id: int

    def reached(self, square: Square, edge: Edge | None) -> bool:
        return square[0] == self.map_id

    def facing(self, square: Square) -> Direction | None:
        return None

    def estimate(self, square: Square) -> float:
        return 0.0


@dataclass(frozen=True)
class AwayTarget:
    """Anywhere off the map `map_id`."""

    map_id: int

    def reached(self, square: Square, edge: Edge | None) -> bool:
        return square[0] != self.map_id

    def facing(self, square: Square) -> Direction | None:
        return None

    def estimate(self, square: Square) -> float:
        return 0.0


@dataclass(frozen=True)
class WarpTarget:
    map_id: int
    index: int

    def reached(self, square: Square, edge: Edge | None) -> bool:
        if edge is None or edge.warp is None or edge.via is None:
            return False
        return edge.via[0] == self.map_id and edge.warp.index == self.index

    def facing(self, square: Square) -> Direction | None:
        return None

    def estimate(self, square: Square) -> float:
        return 0.0


def target_for(world: World, around: Surroundings, goal: Goal) -> Target:
    """The planner target of a goal; UnknownPlaceError if it names a map, warp, person or sign that
    does not exist."""
    if isinstance(goal, SquareGoal):
        _map(world, goal.map_id)
        return SquaresTarget({(goal.map_id, goal.x, goal.y): None})
    if isinstance(goal, MapGoal):
        _map(world, goal.map_id)
        return MapTarget(goal.map_id)
    if isinstance(goal, WarpGoal):
        if not 0 <= goal.index < len(_map(world, goal.map_id).warps):
            raise UnknownPlaceError(f"{world.maps[goal.map_id].name} has no warp {goal.index}")
        return WarpTarget(goal.map_id, goal.index)
    if isinstance(goal, ObjectGoal):
        return SquaresTarget(dict(facing_squares(world, object_square(world, around, goal))))
    if isinstance(goal, SignGoal):
        data = _map(world, goal.map_id)
        if not 0 <= goal.index < len(data.signs):
            raise UnknownPlaceError(f"{data.name} has no sign {goal.index}")
        sign = data.signs[goal.index]
        return SquaresTarget(dict(facing_squares(world, (goal.map_id, sign.x, sign.y), counters=False)))
    if isinstance(goal, HereGoal):
        return SquaresTarget({around.here: None})
    if isinstance(goal, ThingGoal):
        data = _map(world, goal.map_id)
        dx, dy = STEPS[goal.facing]
        stand = (goal.map_id, goal.x - dx, goal.y - dy)
        if not world.walkable(*stand):
            where = f"{data.name} ({goal.x}, {goal.y})"
            raise UnknownPlaceError(f"{where} cannot be faced {goal.facing} from a floor square")
        return SquaresTarget({stand: goal.facing})
    raise UnknownPlaceError(f"a {goal.kind} goal is walked, not planned")


def object_square(world: World, around: Surroundings, goal: ObjectGoal) -> Square:
    """Where the object stands: its sprite's square on the current map, its home square elsewhere."""
    data = _map(world, goal.map_id)
    if not 0 < goal.index <= len(data.objects):
        raise UnknownPlaceError(f"{data.name} has no object {goal.index}")
    if goal.map_id == around.here[0]:
        live = around.people.get(goal.index)
        if live is None:
            raise UnknownPlaceError(f"object {goal.index} of {data.name} is not there now")
        return live
    found = data.objects[goal.index - 1]
    return (goal.map_id, found.x, found.y)


def _map(world: World, map_id: int) -> MapData:
    if map_id not in world.maps:
        raise UnknownPlaceError(f"no map {map_id:#04x} in this cartridge")
    return world.maps[map_id]
