"""Victory Road's boulders, as the world model sees them: which switches a way needs, and the next push.

A floor's boulders are its objects drawn as SPRITE_BOULDER; where they stand now comes from the sprites of
the player's map (the game puts them back where the map's data has them whenever the floor is entered
again, which is how a floor whose boulders are stuck is reset). The switches and what they open are in
world/gates.py BOULDER_SWITCHES; the push search is engine.puzzles.boulders.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from itertools import combinations

from engine.game.models import Direction, GameState
from engine.puzzles.boulders import (
    Done,
    Floor,
    Position,
    Push,
    fewer_than,
    on_square,
    reachable,
    solve,
    walks_to,
)
from engine.world.gates import BOULDER_HOLES, BOULDER_SWITCHES
from engine.world.planner import Plan, Planner, Surroundings, Target
from engine.world.tables import HOLES
from engine.world.targets import MapTarget, SquaresTarget
from engine.world.world import World

BOULDER_SPRITE = 0x3F  # pret constants/sprite_constants.asm SPRITE_BOULDER


@dataclass(frozen=True)
class Switch:
    map_id: int
    square: Position
    event: str
    opens: frozenset[tuple[int, int, int]]  # the squares (map, x, y) the swapped block makes walkable


@dataclass(frozen=True)
class Advice:
    """What to do for a way Victory Road's boulders shut: pushes (`pushes`), or go to a floor (`floor`) or to
    a square of this one by way of others (`square`), or leave this floor so that its boulders are put back
    (`reset`)."""

    pushes: tuple[Push, ...] = ()  # the whole plan of pushes, the first one next
    floor: int | None = None
    square: tuple[int, int, int] | None = None  # a square of this floor to reach the long way round
    reset: bool = False
    why: str = ""


def switches(world: World) -> tuple[Switch, ...]:
    found = []
    for name, entries in BOULDER_SWITCHES.items():
        data = world.by_name.get(name)
        if data is None:
            continue
        for square, event, opened in entries:
            found.append(Switch(data.id, square, event, frozenset((data.id, x, y) for x, y in opened)))
    return tuple(found)


def strength_floors(world: World) -> frozenset[int]:
    return frozenset(switch.map_id for switch in switches(world))


def boulder_squares(world: World, state: GameState) -> frozenset[tuple[int, int, int]]:
    """Every boulder of the strength floors: live on the player's map, as the map's data has them
    elsewhere (hidden ones left out)."""
    here = state.overworld
    found: set[tuple[int, int, int]] = set()
    for map_id in strength_floors(world):
        objects = [o for o in world.maps[map_id].objects if o.sprite == BOULDER_SPRITE]
        if map_id == here.map_id:
            indices = {o.index for o in objects}
            found |= {(map_id, s.x, s.y) for s in here.sprites if s.index in indices}
        else:
            hidden = state.story.hidden_objects
            found |= {(map_id, o.x, o.y) for o in objects if o.toggle is None or o.toggle not in hidden}
    return frozenset(found)


def live_boulders(state: GameState) -> frozenset[Position]:
    """Where the player's map's boulders stand now."""
    return frozenset((s.x, s.y) for s in state.overworld.sprites if s.picture == BOULDER_SPRITE)


def strength_floor(world: World, map_id: int) -> Floor:
    """The floor's terrain alone (no people), for replaying a plan of pushes."""
    return floor_of(world, map_id, ())


def floor_of(world: World, map_id: int, blocked: Iterable[tuple[int, int, int]]) -> Floor:
    """The floor's terrain for the push search; `blocked`: people and shut gates (boulders left out)."""

    def walk(at: Position, direction: Direction) -> Position | None:
        for edge in world.edges((map_id, *at)):
            if edge.direction is direction and edge.kind == "walk" and edge.to and edge.to[0] == map_id:
                return edge.to[1:]
        return None

    def roll(at: Position, direction: Direction) -> Position | None:
        lands = world.rolls((map_id, *at), direction)
        return None if lands is None else lands[1:]

    name = world.maps[map_id].name
    holes = frozenset((x, y) for (floor, x, y) in HOLES if floor == name)
    return Floor(
        walk=walk, roll=roll, blocked=frozenset(s[1:] for s in blocked if s[0] == map_id), holes=holes
    )


def needed(world: World, state: GameState, around: Surroundings, target: Target) -> tuple[Switch, ...] | None:
    """The fewest switches not yet on whose ways let the player reach `target`: with the boulders where
    they stand if that will do, else with them out of the way (pushed aside); None when no set does."""
    off = [s for s in switches(world) if s.event not in state.story.events]
    free = replace(around, blocked=around.blocked - boulder_squares(world, state))
    for surroundings in (around, free):
        for size in range(len(off) + 1):
            for chosen in combinations(off, size):
                opened = frozenset().union(*(s.opens for s in chosen))
                if Planner(world, replace(surroundings, gated=surroundings.gated - opened)).plan(target):
                    return chosen
    return None


def advise(world: World, state: GameState, around: Surroundings, target: Target) -> Advice | None:
    """The next thing to do on a strength floor for a `target` the boulders or their switches shut off;
    None when nothing would open the way."""
    wanted = needed(world, state, around, target)
    if wanted is None:
        return None
    here = state.overworld.map_id
    boulders = boulder_squares(world, state)
    floor = floor_of(world, here, around.blocked - boulders | around.gated)
    work = _Work(world, state, around, floor, [b[1:] for b in boulders if b[0] == here])
    later: list[Advice] = []
    for switch in sorted(wanted, key=lambda s: s.map_id != here):  # this floor's switches first
        fed = _fed_by(world, state, switch)
        if fed is not None and fed[0] != here:
            why = f"the boulder for the switch at {switch.square} falls from a hole above"
            later.append(Advice(floor=fed[0], why=why))
            continue
        if fed is not None:
            advice = work.advice(fewer_than(len(work.boulders)), f"a boulder into the hole at {fed[1]}")
        elif switch.map_id == here:
            advice = work.advice(on_square(switch.square), f"a boulder onto the switch at {switch.square}")
        else:
            continue
        if advice is not None:
            return advice
    exit_square = _leaves_floor_at(world, around, boulders, wanted, target)
    if exit_square is not None:
        advice = work.advice(walks_to(exit_square), f"boulders out of the way to {exit_square}")
        if advice is not None:
            return advice
    later += [Advice(floor=s.map_id, why=f"the switch at {s.square} is on another floor") for s in wanted
              if s.map_id != here]  # fmt: skip
    planner = Planner(world, around)
    for advice in later:  # a floor the player can get to as things are
        if advice.floor is not None and planner.plan(MapTarget(advice.floor)) is not None:
            return advice
    return Advice(
        reset=True, why="no pushes here open the way: leave the floor so that its boulders are put back"
    )


def _fed_by(world: World, state: GameState, switch: Switch) -> tuple[int, Position] | None:
    """The floor and square of the hole the switch's boulder must fall through first, if it has not."""
    hole = BOULDER_HOLES.get((world.maps[switch.map_id].name, switch.square))
    if hole is None or hole[2] in state.story.events or hole[0] not in world.by_name:
        return None
    return world.by_name[hole[0]].id, hole[1]


@dataclass(frozen=True)
class _Work:
    """One floor's push questions, from where the player stands or from where the floor is entered."""

    world: World
    state: GameState
    around: Surroundings
    floor: Floor
    boulders: list[Position]

    def advice(self, done: Done, why: str) -> Advice | None:
        """The pushes toward `done` from here; else the square of this floor, entered again from elsewhere
        (its boulders put back), from which pushes get there; else the pushes onto another switch of this
        floor whose opening lets them; None if `done` holds or nothing helps."""
        where = self.state.overworld
        pushes = solve(self.floor, (where.x, where.y), self.boulders, done)
        if pushes:
            return Advice(pushes=pushes, why=f"{why} ({len(pushes)} pushes)")
        if pushes == ():
            return None
        entry = self._entry(done)
        if entry is not None:
            why = f"{why}, from {entry[1:]}: the floor entered there, its boulders put back"
            return Advice(square=entry, why=why)
        return self._enabler(done, why)

    def _enabler(self, done: Done, why: str) -> Advice | None:
        """Pushes onto a switch of this floor not yet on, whose opened way lets pushes make `done` hold."""
        where, events = self.state.overworld, self.state.story.events
        for helper in switches(self.world):
            if helper.map_id != where.map_id or helper.event in events:
                continue
            opened = replace(self.floor, blocked=self.floor.blocked - {s[1:] for s in helper.opens})
            if solve(opened, (where.x, where.y), self.boulders, done) is None:
                continue
            pushes = solve(self.floor, (where.x, where.y), self.boulders, on_square(helper.square))
            if pushes:
                why = f"{why}: first a boulder onto the switch at {helper.square} ({len(pushes)} pushes)"
                return Advice(pushes=pushes, why=why)
        return None

    def _entry(self, done: Done) -> tuple[int, int, int] | None:
        """The cheapest square to enter this floor at (a warp, or where a hole above lands) that the player
        cannot walk to now, from which pushes with the boulders put back make `done` hold."""
        world, here = self.world, self.state.overworld
        data = world.maps[here.map_id]
        hidden = self.state.story.hidden_objects
        fresh = [(o.x, o.y) for o in data.objects
                 if o.sprite == BOULDER_SPRITE and (o.toggle is None or o.toggle not in hidden)]  # fmt: skip
        region = reachable(self.floor, (here.x, here.y), frozenset(self.boulders))
        landings = {(x, y) for name, x, y in HOLES.values() if name == data.name}
        entries = sorted(({(w.x, w.y) for w in data.warps} | landings) - region)
        best: tuple[float, tuple[int, int, int]] | None = None
        planner = Planner(world, self.around)
        for x, y in entries:
            plan = planner.plan(SquaresTarget({(here.map_id, x, y): None}))
            if plan is None or (best is not None and plan.cost >= best[0]):
                continue
            if solve(self.floor, (x, y), fresh, done) is not None:
                best = (plan.cost, (here.map_id, x, y))
        return None if best is None else best[1]


def _leaves_floor_at(
    world: World,
    around: Surroundings,
    boulders: frozenset[tuple[int, int, int]],
    wanted: tuple[Switch, ...],
    target: Target,
) -> Position | None:
    """On the way to `target` with the wanted switches on and every boulder gone: the last square walked on
    the player's floor (None if the way never leaves it or has no plan)."""
    opened = frozenset().union(*(s.opens for s in wanted))
    free = replace(around, blocked=around.blocked - boulders, gated=around.gated - opened)
    plan: Plan | None = Planner(world, free).plan(target)
    if plan is None:
        return None
    here, last = around.here, around.here
    for edge in plan.edges:  # up to the warp or the map's edge that leaves the floor (not onto it)
        if edge.to is None or edge.to[0] != here[0] or edge.via is not None:
            break
        last = edge.to
    return last[1:] if last != here else None
