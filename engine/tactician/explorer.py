"""The free overworld policy: a novelty-seeking walk that finds wild battles, trainers and new maps.

It keeps a visit count per tile and a set of moves that were blocked, walks towards the least-visited
neighbour, and now and then presses A at something it bumped into (a person, a sign, an item ball), so
that story events and trainers get their chance. Seeded, so a run can be repeated exactly.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Literal

from engine.frozen import Frozen
from engine.game.models import Direction, Overworld
from engine.messages import StepOutcome

Tile = tuple[int, int, int]  # map id, x, y
OFFSETS = {Direction.UP: (0, -1), Direction.DOWN: (0, 1), Direction.LEFT: (-1, 0), Direction.RIGHT: (1, 0)}
INTERACT_CHANCE = 0.25
# Bumps are forgotten after a while (people walk away, and a story event may open a path), and when no new
# tile has turned up for a while the walk is stuck: then every bump is followed by a look (A), because
# the way on is usually a conversation or an item (a starter on Oak's table, a guard who wants a word).
BUMP_MEMORY_STEPS = 400
STUCK_AFTER_STEPS = 300


class NavDecision(Frozen):
    kind: Literal["step", "interact"]
    direction: Direction | None = None
    reason: str


def _tile(where: Overworld) -> Tile:
    return (where.map_id, where.x, where.y)


def _neighbour(tile: Tile, direction: Direction) -> Tile:
    dx, dy = OFFSETS[direction]
    return (tile[0], tile[1] + dx, tile[2] + dy)


class ExplorerSnapshot(Frozen):
    rng: tuple[int, tuple[int, ...], float | None]  # random.Random.getstate()
    visits: tuple[tuple[int, int, int, int], ...]  # map, x, y, count
    blocked: tuple[tuple[Tile, Direction, int], ...]  # tile, direction, the step it was blocked at
    leads_to: tuple[tuple[Tile, Direction, Tile], ...]
    just_bumped: bool
    steps: int
    last_new_tile_step: int


class Explorer:
    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self.visits: Counter[Tile] = Counter()
        self.blocked: dict[tuple[Tile, Direction], int] = {}  # -> the step it was blocked at
        self.just_bumped = False
        self.steps = 0
        self.last_new_tile_step = 0
        # Where a move really led when it was not one tile on the same map: map edges and doors.
        self.leads_to: dict[tuple[Tile, Direction], Tile] = {}

    def _next_tile(self, here: Tile, direction: Direction) -> Tile:
        return self.leads_to.get((here, direction)) or _neighbour(here, direction)

    def decide(self, where: Overworld) -> NavDecision:
        here = _tile(where)
        if self.just_bumped and (self.stuck or self.rng.random() < INTERACT_CHANCE):
            self.just_bumped = False
            why = "stuck: look at everything in the way" if self.stuck else "look at what is in the way"
            return NavDecision(kind="interact", reason=why)
        options = [d for d in Direction if not self._remembered_bump(here, d)]
        if not options:
            # Boxed in, most likely by people who will walk away: forget the bumps and look around.
            self.blocked = {entry: at for entry, at in self.blocked.items() if entry[0] != here}
            return NavDecision(kind="interact", reason="boxed in: talk to whoever is in the way")
        fewest = min(self.visits[self._next_tile(here, d)] for d in options)
        best = [d for d in options if self.visits[self._next_tile(here, d)] == fewest]
        direction = self.rng.choice(best)
        seen = "new ground" if fewest == 0 else f"visited {fewest}×"
        return NavDecision(kind="step", direction=direction, reason=f"least-visited neighbour ({seen})")

    @property
    def stuck(self) -> bool:
        return self.steps - self.last_new_tile_step > STUCK_AFTER_STEPS

    def _remembered_bump(self, here: Tile, direction: Direction) -> bool:
        at = self.blocked.get((here, direction))
        return at is not None and self.steps - at < BUMP_MEMORY_STEPS

    def record(
        self, before: Overworld, decision: NavDecision, outcome: StepOutcome, after: Overworld
    ) -> None:
        here = _tile(before)
        self.just_bumped = outcome is StepOutcome.BLOCKED
        self.steps += 1
        if decision.direction is not None and outcome is StepOutcome.BLOCKED:
            self.blocked[(here, decision.direction)] = self.steps
        if decision.direction is not None and outcome is StepOutcome.INTERRUPTED:
            self.leads_to[(here, decision.direction)] = _tile(after)
        if _tile(after) not in self.visits:
            self.last_new_tile_step = self.steps
        self.visits[_tile(after)] += 1

    def summary(self) -> dict[str, object]:
        """What the explorer knows in a few numbers, for logs and status."""
        return {
            "visited_tiles": len(self.visits),
            "maps": sorted({tile[0] for tile in self.visits}),
            "blocked_moves": len(self.blocked),
        }

    def snapshot(self) -> ExplorerSnapshot:
        """The explorer's whole state, random generator included: restored, the walk goes on with the same
        steps it would have taken. Dicts keep their order, as tuples of entries."""
        version, words, gauss = self.rng.getstate()
        return ExplorerSnapshot(
            rng=(version, tuple(words), gauss),
            visits=tuple((*tile, count) for tile, count in self.visits.items()),
            blocked=tuple((tile, direction, at) for (tile, direction), at in self.blocked.items()),
            leads_to=tuple((tile, direction, target) for (tile, direction), target in self.leads_to.items()),
            just_bumped=self.just_bumped,
            steps=self.steps,
            last_new_tile_step=self.last_new_tile_step,
        )

    def restore(self, snapshot: ExplorerSnapshot) -> None:
        """Replace the whole state with a snapshot's."""
        self.rng.setstate(snapshot.rng)
        self.visits = Counter({(map_id, x, y): count for map_id, x, y, count in snapshot.visits})
        self.blocked = {(tile, direction): at for tile, direction, at in snapshot.blocked}
        self.leads_to = {(tile, direction): target for tile, direction, target in snapshot.leads_to}
        self.just_bumped = snapshot.just_bumped
        self.steps = snapshot.steps
        self.last_new_tile_step = snapshot.last_new_tile_step
