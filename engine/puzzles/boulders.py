"""Strength boulders: the fewest pushes that put a boulder on a switch (or clear one from the way).

A small search over where the boulders are, the way Sokoban is solved: a state is the boulders' squares and
the region the player can walk to around them (named by its first square), and a move is one push, made
from the square behind a boulder the player can reach. A boulder goes one square ahead if that square is
floor a player could step on, nobody stands there and no other boulder does (pret engine/overworld/
push_boulder.asm TryPushingBoulder and player_state.asm CheckForCollisionWhenPushingBoulder); a boulder
pushed into a hole falls and is gone. Breadth first, so the plan has the fewest pushes; bounded in states.
The terrain comes in as two functions, so the search knows nothing of the cartridge.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from engine.game.models import Direction
from engine.world.world import STEPS

Position = tuple[int, int]
Walk = Callable[[Position, Direction], Position | None]  # where a step leads on the floor, terrain only
Roll = Callable[[Position, Direction], Position | None]  # where a boulder pushed from there goes
MAX_STATES = 40_000  # far more than any floor of Victory Road needs; a bound, not a guess
OFFSETS: dict[Direction, Position] = STEPS  # a press's step, as the world model has it


@dataclass(frozen=True)
class Floor:
    """One floor as the boulders meet it: the terrain, who stands where (neither the player nor a boulder
    goes there) and the holes a boulder falls through."""

    walk: Walk
    roll: Roll
    blocked: frozenset[Position] = frozenset()
    holes: frozenset[Position] = frozenset()


@dataclass(frozen=True)
class Push:
    """Stand on `stand`, face `direction` and push: the boulder on `boulder` moves one square."""

    stand: Position
    direction: Direction
    boulder: Position

    @property
    def lands(self) -> Position:
        dx, dy = OFFSETS[self.direction]
        return (self.boulder[0] + dx, self.boulder[1] + dy)


Boulders = frozenset[Position]
Node = tuple[Boulders, Position]  # the boulders, and the first square of the player's region


class _Graph:
    """The floor's terrain asked once per square and kept: the search asks it millions of times."""

    def __init__(self, floor: Floor) -> None:
        self.floor = floor
        self._walks: dict[Position, tuple[tuple[Direction, Position], ...]] = {}
        self._rolls: dict[tuple[Position, Direction], Position | None] = {}

    def walks(self, at: Position) -> tuple[tuple[Direction, Position], ...]:
        found = self._walks.get(at)
        if found is None:
            steps = ((d, self.floor.walk(at, d)) for d in OFFSETS)
            found = self._walks[at] = tuple((d, to) for d, to in steps if to is not None)
        return found

    def roll(self, at: Position, direction: Direction) -> Position | None:
        key = (at, direction)
        if key not in self._rolls:
            self._rolls[key] = self.floor.roll(at, direction)
        return self._rolls[key]


def reachable(
    floor: Floor, start: Position, boulders: Boulders, graph: _Graph | None = None
) -> set[Position]:
    """Every square the player walks to from `start` with the boulders where they are."""
    graph = graph or _Graph(floor)
    blocked = floor.blocked
    seen = {start}
    queue = [start]
    while queue:
        here = queue.pop()
        for _, there in graph.walks(here):
            if there not in seen and there not in boulders and there not in blocked:
                seen.add(there)
                queue.append(there)
    return seen


Done = Callable[[Boulders, set[Position]], bool]


def solve(
    floor: Floor,
    player: Position,
    boulders: Iterable[Position],
    done: Done,
    max_states: int = MAX_STATES,
    moving: Position | None = None,
) -> tuple[Push, ...] | None:
    """The fewest pushes after which `done(boulders, the squares the player reaches)` holds; () when it
    holds already, None when no pushes make it hold (within `max_states`). Each boulder is tried alone
    first, the others standing still (what every floor of Victory Road asks, and a far smaller search);
    all of them together only if that fails, in a twentieth of the states. With `moving`, only the boulder
    standing there is pushed."""
    graph = _Graph(floor)
    every = frozenset(boulders)
    if done(every, reachable(floor, player, every, graph)):
        return ()
    if moving is not None:
        return _search(graph, player, every, done, every - {moving}, max_states) if moving in every else None
    alone = [_search(graph, player, every, done, every - {b}, max_states) for b in sorted(every)]
    found = [pushes for pushes in alone if pushes is not None]
    if found:
        return min(found, key=len)
    return _search(graph, player, every, done, frozenset(), max_states // 20) if len(every) > 1 else None


def _search(
    graph: _Graph, player: Position, every: Boulders, done: Done, fixed: Boulders, max_states: int
) -> tuple[Push, ...] | None:
    """Breadth first over (boulders, the player's region); the `fixed` boulders are never pushed."""
    floor = graph.floor
    region = reachable(floor, player, every, graph)
    start: Node = (every, min(region))
    parents: dict[Node, tuple[Node, Push] | None] = {start: None}
    queue: deque[tuple[Node, set[Position]]] = deque([(start, region)])
    while queue and len(parents) < max_states:
        node, region = queue.popleft()
        for push, after in _pushes(graph, node[0], region, fixed):
            after_region = reachable(floor, push.boulder, after, graph)
            child: Node = (after, min(after_region))
            if child in parents:
                continue
            parents[child] = (node, push)
            if done(after, after_region):
                return _path(parents, child)
            queue.append((child, after_region))
    return None


def _pushes(
    graph: _Graph, boulders: Boulders, region: set[Position], fixed: Boulders
) -> Iterable[tuple[Push, Boulders]]:
    blocked, holes = graph.floor.blocked, graph.floor.holes
    for boulder in sorted(boulders - fixed):
        for direction, (dx, dy) in OFFSETS.items():
            stand = (boulder[0] - dx, boulder[1] - dy)
            if stand not in region or (direction, boulder) not in graph.walks(stand):
                continue
            lands = graph.roll(boulder, direction)
            if lands is None or lands in boulders or lands in blocked:
                continue
            rest = boulders - {boulder}
            after = rest if lands in holes else rest | {lands}
            yield Push(stand=stand, direction=direction, boulder=boulder), after


def _path(parents: dict[Node, tuple[Node, Push] | None], end: Node) -> tuple[Push, ...]:
    pushes: list[Push] = []
    node = end
    while (link := parents[node]) is not None:
        node, push = link
        pushes.append(push)
    return tuple(reversed(pushes))


def on_square(square: Position) -> Callable[[Boulders, set[Position]], bool]:
    """Done when a boulder is on `square` (a switch)."""
    return lambda boulders, _region: square in boulders


def walks_to(square: Position) -> Callable[[Boulders, set[Position]], bool]:
    """Done when the player can walk to `square` (the boulders are out of the way)."""
    return lambda _boulders, region: square in region


def fewer_than(count: int) -> Callable[[Boulders, set[Position]], bool]:
    """Done when fewer than `count` boulders are left on the floor (one fell through a hole)."""
    return lambda boulders, _region: len(boulders) < count


def replay(
    boulders: Iterable[Position], pushes: Iterable[Push], holes: frozenset[Position]
) -> list[Boulders]:
    """Where the boulders stand before each push of a plan."""
    now = frozenset(boulders)
    found = []
    for push in pushes:
        found.append(now)
        rest = now - {push.boulder}
        now = rest if push.lands in holes else rest | {push.lands}
    return found
