"""The path planner: cheapest walks over (map, x, y), with warps and map edges as edges.

The terrain comes from the world model; what is alive comes from the game state: people stand where the
sprites are on the current map (and where the still ones stand elsewhere), closed story gates are not
crossed, and squares an unbeaten trainer watches cost extra. Costs depend on the intent: `travel` avoids
tall grass and trainers' eyes where a detour is short, `pass` (no experience wanted) keeps out of their eyes
at a longer one, `train` walks grass gladly, `explore` sits between.
A* whose estimate is the walking distance on the target's own map and nothing elsewhere (no distance
holds across warps), stopping at the first square that meets the target.
"""

from __future__ import annotations

import functools
import heapq
import itertools
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Protocol

from engine.game.field_moves import usable_field_moves
from engine.game.models import Direction, GameState, Story
from engine.world.gates import GATES, STEPPING_ASIDE, Gate
from engine.world.goals import Intent
from engine.world.models import MapObject, Square
from engine.world.world import STEPS, Edge, World

GATE_COST = 60.0  # steps a closed story gate is worth avoiding, when a leg may cross one at all
# A warp's fade is worth about 3 steps; CUT's menus, text and animation about 20 (~330 frames).
# A spin is priced as the few squares most of them run (the game walks them at walking speed).
# A ride in an elevator: the panel's menu, the shaking and the walk out, about 30 steps' time.
# SURF's menus and text, like CUT's, about 20; a press on the water is a step.
BASE_COST = {"walk": 1.0, "cross": 1.0, "hop": 2.0, "door": 4.0, "push": 4.0, "cut": 20.0, "spin": 4.0,
             "lift": 30.0, "surf": 20.0, "swim": 1.0}  # fmt: skip
GRASS_COST: dict[Intent, float] = {"travel": 2.0, "train": 0.0, "explore": 1.0, "pass": 2.0}
# A trainer's battle costs about 4,000 frames (250 steps) with its walk up and its text: with no experience
# wanted (`pass`), a detour of up to 40 steps a watched square is cheaper.
WATCHED_COST: dict[Intent, float] = {"travel": 6.0, "train": 2.0, "explore": 3.0, "pass": 40.0}
# A square watched by a trainer the team is forecast to lose to, whatever the intent: a defeat costs the walk
# back from the nurse and the levels the plan then asks for (some 15,000 frames, near a thousand steps).
FEARED_COST = 250.0
MAX_NODES = 250_000
ITEM_COST = 8.0  # picking up an item ball in the way: A, "Found ...!", the jingle
UNLOCK_COST = 6.0  # a locked door on the way: A, "Bingo! The CARD KEY opened the door!"


class Target(Protocol):
    """What ends a plan: a square to stand on (reached through a given edge, for warps), the way to face
    there, and a guess of the cost still to go that never overstates it on the target's own map (0 where
    nothing better is known: warps make distances across maps unknowable)."""

    def reached(self, square: Square, edge: Edge | None) -> bool: ...
    def facing(self, square: Square) -> Direction | None: ...
    def estimate(self, square: Square) -> float: ...


@dataclass(frozen=True)
class Surroundings:
    """The live part of the map: where the player is, who stands where, which gates are shut, which
    squares trainers watch, and where LAST_MAP warps lead right now."""

    here: Square
    came_from: int | None
    indoor_group: frozenset[int]  # maps whose LAST_MAP warps lead to `came_from`
    blocked: frozenset[Square]
    gated: frozenset[Square]
    watched: frozenset[Square]
    people: dict[int, Square] = field(default_factory=dict)  # current map: object index -> square
    costly: frozenset[Square] = frozenset()  # crossed only at `Planner.costly_cost` a square (gates tried)
    field_moves: frozenset[str] = frozenset()  # usable now (CUT opens `cut` edges, SURF `surf` ones)
    # Item balls: in the way like people, but picked up (A, then the ball is gone) where a walk needs it.
    items: frozenset[Square] = frozenset()
    # Closed doors whose key is in the bag (Silph Co.'s, with the CARD KEY): opened on the way with A.
    unlockable: frozenset[Square] = frozenset()
    within: frozenset[int] = frozenset()  # when given, the only maps a plan may enter (a puzzle's floors)
    feared: frozenset[Square] = frozenset()  # watched by a trainer the team would likely lose to


@dataclass(frozen=True)
class Plan:
    edges: tuple[Edge, ...]
    cost: float
    end: Square
    face: Direction | None  # turn this way at the end (to talk, read a sign, use a counter)
    start: Square | None = None  # where the plan starts (one of several, for `Planner.plan_from`)

    @property
    def steps(self) -> int:
        """Squares walked (a ledge hop covers two), as the walk counts them."""
        return sum(2 if edge.kind == "hop" else 1 for edge in self.edges)  # a spin: the one step onto it


def surroundings(world: World, state: GameState, gates: tuple[Gate, ...] = GATES) -> Surroundings:
    where = state.overworld
    here = (where.map_id, where.x, where.y)
    people = {sprite.index: (where.map_id, sprite.x, sprite.y) for sprite in where.sprites}
    elsewhere_blocked, elsewhere_watched, elsewhere_items = _elsewhere(world, state.story, where.map_id)
    aside = _stepping_aside(world, where.map_id)
    balls = _item_balls(world, where.map_id)
    items = elsewhere_items | {at for index, at in people.items() if index in balls}
    blocked = elsewhere_blocked | {
        at for index, at in people.items() if index not in aside and index not in balls
    }
    watched = elsewhere_watched | set(_live_sight(world, state))
    return Surroundings(
        here=here,
        came_from=state.story.last_map,
        indoor_group=frozenset(_indoor_group(world, where.map_id)),
        blocked=frozenset(blocked),
        gated=frozenset(_gated(world, state, gates)),
        watched=frozenset(watched),
        people=people,
        field_moves=usable_field_moves(state),
        items=frozenset(items),
        unlockable=frozenset(_gated(world, state, gates, unlockable=True)),
    )


def gates_as_costs(around: Surroundings, shut: frozenset[Square] = frozenset()) -> Surroundings:
    """The same surroundings with closed gates crossable at a cost (`shut` ones stay walls)."""
    return replace(around, blocked=around.blocked | shut, gated=frozenset(), costly=around.gated - shut)


@functools.lru_cache(maxsize=16)
def _elsewhere(
    world: World, story: Story, here: int
) -> tuple[frozenset[Square], frozenset[Square], frozenset[Square]]:
    """People standing still on the other maps, the squares their trainers watch, and the item balls not
    picked up: they change only with the story (who is hidden, who is beaten), so they are worked out
    once per story."""
    blocked: set[Square] = set()
    watched: set[Square] = set()
    items: set[Square] = set()
    for data in world.maps.values():
        if data.id == here:
            continue
        aside = _stepping_aside(world, data.id)
        for found in data.objects:
            if (found.toggle is not None and found.toggle in story.hidden_objects) or found.index in aside:
                continue
            if found.item is not None:
                items.add((data.id, found.x, found.y))
            elif not found.moves:
                blocked.add((data.id, found.x, found.y))
            watched.update(_sight(world, data.id, found, found.x, found.y, found.facing, story))
    return frozenset(blocked), frozenset(watched), frozenset(items)


def _item_balls(world: World, map_id: int) -> frozenset[int]:
    """The objects of this map that are item balls (their index)."""
    data = world.maps.get(map_id)
    return frozenset(found.index for found in data.objects if found.item is not None) if data else frozenset()


def _stepping_aside(world: World, map_id: int) -> frozenset[int]:
    """The objects of this map that its script walks out of the way (gates.STEPPING_ASIDE)."""
    data = world.maps.get(map_id)
    if data is None:
        return frozenset()
    return frozenset(index for name, index in STEPPING_ASIDE if name == data.name)


def _live_sight(world: World, state: GameState) -> Iterable[Square]:
    where = state.overworld
    data = world.maps.get(where.map_id)
    if data is None:
        return
    for sprite in where.sprites:
        if 0 < sprite.index <= len(data.objects):
            found = data.objects[sprite.index - 1]
            yield from _sight(world, data.id, found, sprite.x, sprite.y, sprite.facing, state.story)


def _sight(
    world: World, map_id: int, found: MapObject, x: int, y: int, facing: str | None, story: Story
) -> Iterable[Square]:
    beaten = found.beaten_event is not None and found.beaten_event in story.event_flags
    direction = _direction(facing)
    if found.sight <= 0 or beaten or direction is None:
        return
    # The game compares coordinates only (pret engine/overworld/trainer_sight.asm
    # CheckSpriteCanSeePlayer): a trainer sees through walls, as far as its range.
    dx, dy = STEPS[direction]
    for distance in range(1, found.sight + 1):
        yield (map_id, x + dx * distance, y + dy * distance)


def feared_squares(world: World, state: GameState, trainers: Iterable[tuple[int, int]]) -> frozenset[Square]:
    """The squares the given trainers (map, object index) watch: where they stand now on the player's map,
    where they were placed elsewhere; a beaten one watches nothing."""
    where = state.overworld
    live = {sprite.index: sprite for sprite in where.sprites}
    found: set[Square] = set()
    for map_id, index in trainers:
        data = world.maps.get(map_id)
        if data is None or not 0 < index <= len(data.objects):
            continue
        thing = data.objects[index - 1]
        sprite = live.get(index) if map_id == where.map_id else None
        x, y, facing = (sprite.x, sprite.y, sprite.facing) if sprite else (thing.x, thing.y, thing.facing)
        found.update(_sight(world, map_id, thing, x, y, facing, state.story))
    return frozenset(found)


def _direction(facing: str | None) -> Direction | None:
    return Direction(facing) if facing in ("up", "down", "left", "right") else None


def gated_squares(world: World, state: GameState, gates: tuple[Gate, ...] = GATES) -> Iterable[Square]:
    """The squares of the gates closed in `state` (those the bag has a key to excepted)."""
    return _gated(world, state, gates)


def _gated(
    world: World, state: GameState, gates: tuple[Gate, ...], unlockable: bool = False
) -> Iterable[Square]:
    """The squares of the closed gates: the walls, or (`unlockable`) the doors the bag holds a key to."""
    for gate in gates:
        if gate.closed(state) and gate.unlockable(state) == unlockable:
            yield from gate_squares(world, gate)


def gate_squares(world: World, gate: Gate) -> Iterable[Square]:
    data = world.by_name.get(gate.map_name)
    if data is None:
        return
    if gate.row is not None:
        yield from ((data.id, x, gate.row) for x in range(data.squares_wide))
    if gate.water:
        yield from ((data.id, x, y) for x, y in sorted(world.water_squares(data.id)))
    yield from ((data.id, x, y) for x, y in gate.squares)


def _indoor_group(world: World, map_id: int) -> set[int]:
    """The indoor maps reachable from this one without going outside (one building, one cave)."""
    if map_id not in world.maps or world.is_outside(map_id):
        return {map_id}
    found: set[int] = set()
    frontier = [map_id]
    while frontier:
        current = frontier.pop()
        if current in found or current not in world.maps or world.is_outside(current):
            continue
        found.add(current)
        frontier.extend(w.to_map for w in world.maps[current].warps)
    return found


# -- searching ---------------------------------------------------------------------------------------
# Edges that end on their `to` square, which must be free.
_ONTO = frozenset({"walk", "cross", "hop", "cut", "spin", "lift", "surf", "swim"})
_EXITS = frozenset({"door", "push"})


class Planner:
    def __init__(
        self,
        world: World,
        around: Surroundings,
        intent: Intent = "travel",
        avoid: frozenset[tuple[Square, Direction]] = frozenset(),
        costly_cost: float = GATE_COST,
    ) -> None:
        self.world = world
        self.around = around
        self.intent = intent
        self.avoid = avoid  # presses that did not do what the terrain says (tried this leg)
        self._grass_cost = GRASS_COST[intent]
        self._watched_cost = WATCHED_COST[intent]
        self._costly_cost = costly_cost

    def plan(self, target: Target, start: Square | None = None, max_nodes: int = MAX_NODES) -> Plan | None:
        """The cheapest plan from `start` (the player's square) to the first square meeting `target`."""
        return self.plan_from({start or self.around.here: 0.0}, target, max_nodes)

    def plan_from(
        self, starts: dict[Square, float], target: Target, max_nodes: int = MAX_NODES
    ) -> Plan | None:
        """The cheapest plan from any of `starts`, each with the cost already spent to stand there (the
        towns FLY lands in, with the flight's cost), to the first square meeting `target`."""
        for start, spent in starts.items():
            if not spent and target.reached(start, None):
                return Plan(edges=(), cost=0.0, end=start, face=target.facing(start), start=start)
        costs: dict[Square, float] = dict(starts)
        parents: dict[Square, tuple[Square, Edge]] = {}
        order = itertools.count()
        queue: list[tuple[float, int, Square]] = [
            (spent + target.estimate(start), next(order), start) for start, spent in starts.items()
        ]
        heapq.heapify(queue)
        done: set[Square] = set()
        # The loop runs hundreds of thousands of times a run: the edges allowed from a square and what each
        # step costs are worked out inline, with every lookup bound to a local.
        pop, push, world_edges = heapq.heappop, heapq.heappush, self.world.edges
        reached, estimate, unknown = target.reached, target.estimate, float("inf")
        around, avoid = self.around, self.avoid
        blocked, gated, watched, costly = around.blocked, around.gated, around.watched, around.costly
        feared = around.feared
        indoor, came_from, destination = around.indoor_group, around.came_from, self.world.warp_destination
        items, unlockable, within = around.items, around.unlockable, around.within
        priced = bool(watched or costly or items or unlockable or feared)
        can_cut = "CUT" in around.field_moves
        can_surf = "SURF" in around.field_moves
        lift_maps = self.world.lift_maps
        grass_cost, watched_cost, costly_cost = self._grass_cost, self._watched_cost, self._costly_cost
        while queue and len(done) < max_nodes:
            _, _, square = pop(queue)
            if square in done:
                continue
            done.add(square)
            cost = costs[square]
            edge_in = parents[square][1] if square in parents else None
            if (edge_in is not None or square in starts) and reached(square, edge_in):
                return self._plan(parents, square, cost, target)
            for edge in world_edges(square):
                if avoid and (square, edge.direction) in avoid:
                    continue  # a press that did not do what the terrain says, this leg
                kind, via = edge.kind, edge.via
                if (kind == "cut" and not can_cut) or (kind == "surf" and not can_surf):
                    continue
                if via is not None and kind in _EXITS and square[0] in lift_maps:
                    continue  # an elevator's exit leads wherever its panel last chose: ridden, not walked
                stepped_on = via if via is not None else edge.to
                if kind != "push" and (stepped_on in blocked or stepped_on in gated):
                    continue
                if edge.last_map and edge.warp is not None and square[0] in indoor:
                    to = destination(edge.warp, came_from, from_map=square[0])
                else:
                    to = edge.to
                if to is None or (kind in _ONTO and to in blocked) or (within and to[0] not in within):
                    continue
                step = BASE_COST[kind]
                if edge.grass:
                    step += grass_cost
                if priced:
                    on = via if via is not None else to
                    if on in watched:
                        step += watched_cost
                    if on in feared:
                        step += FEARED_COST
                    if on in costly:
                        step += costly_cost
                    if on in items:
                        step += ITEM_COST
                    if on in unlockable:
                        step += UNLOCK_COST
                total = cost + step
                if total < costs.get(to, unknown):
                    costs[to] = total
                    parents[to] = (square, edge)
                    push(queue, (total + estimate(to), next(order), to))
        return None

    def _plan(
        self, parents: dict[Square, tuple[Square, Edge]], end: Square, cost: float, target: Target
    ) -> Plan:
        edges: list[Edge] = []
        square = end
        while square in parents:
            square, edge = parents[square]
            edges.append(edge)
        edges.reverse()
        return Plan(edges=tuple(edges), cost=cost, end=end, face=target.facing(end), start=square)


def facing_squares(world: World, at: Square, counters: bool = True) -> dict[Square, Direction]:
    """The squares from which the player faces `at` (a person, a sign), and the way to face from each;
    with `counters`, also the squares across a counter tile."""
    map_id, x, y = at
    found: dict[Square, Direction] = {}
    counter_tiles = world.tilesets[world.maps[map_id].tileset].counters if map_id in world.maps else ()
    for direction, (dx, dy) in STEPS.items():
        stand = (map_id, x - dx, y - dy)
        if world.walkable(*stand):
            found[stand] = direction
        between = world.tile(map_id, x - dx, y - dy)
        across = (map_id, x - 2 * dx, y - 2 * dy)
        if counters and between in counter_tiles and world.walkable(*across):
            found.setdefault(across, direction)
    return found
