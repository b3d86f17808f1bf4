"""The free overworld policy: explore with the map, one leg at a time.

It remembers the squares the screen has shown, and asks the planner for the nearest reachable square never
seen or warp into a map never entered (tall grass and trainers' eyes cost a little extra, a closed story
gate a lot: walking into one is how the story moves on, so it is tried when nothing else is left, and
again once the story has changed). When nothing new is in reach, it picks up the items and talks to the
people, on any map explored so far, it has not talked to since the story last moved on (or for a long
while); with no one left, it trains in the nearest tall grass. Without a world model (a cartridge whose
maps cannot be read) it takes single steps in random directions. Seeded, so a run can be repeated exactly.
"""

from __future__ import annotations

import random
from collections.abc import Collection
from dataclasses import dataclass

from engine.frozen import Frozen
from engine.game.models import Direction, GameState
from engine.messages import LegReport
from engine.world.gates import closed_gates
from engine.world.goals import Leg, ObjectGoal, SquareGoal, StepGoal, WarpGoal
from engine.world.models import Square
from engine.world.planner import (
    Plan,
    Planner,
    Surroundings,
    facing_squares,
    gate_squares,
    gates_as_costs,
    surroundings,
)
from engine.world.targets import SquaresTarget
from engine.world.world import Edge, World

# The screen shows 10 x 9 squares, the player in the fifth column and row (pret: the player sprite is
# drawn at screen tile (8, 9) of a 20 x 18 tile screen).
VIEW_LEFT, VIEW_RIGHT, VIEW_UP, VIEW_DOWN = 4, 5, 4, 4
SEARCH_NODES = 60_000
MAX_SIDE = 510  # squares a map side can have at most (its size is a byte of 2 x 2-square blocks)
LEG_SLACK = 30  # steps a leg may take beyond its plan (people in the way)
TALK_AGAIN_AFTER_LEGS = 150
TRAINING_SQUARES = 40  # grass squares looked at when choosing where to train
TRAINING_LEG_STEPS = 60


class ExplorerSnapshot(Frozen):
    rng: tuple[int, tuple[int, ...], float | None]  # random.Random.getstate()
    seen: tuple[tuple[int, int, str], ...]  # map id, row width, the squares seen as a hex bitmap
    warps_taken: tuple[tuple[int, int], ...]
    talked: tuple[tuple[int, int, int, int], ...]  # map id, object index, events set then, leg number
    gates_tried: tuple[tuple[int, int, int, int], ...]  # map, x, y, events set when it was tried
    given_up: tuple[tuple[int, int, int, int], ...]
    legs: int
    events: int


@dataclass(frozen=True)
class FrontierTarget:
    """A square the screen has not shown, or a warp into a map never entered (where it leads is known
    from the cartridge, so a door back to a known map is nothing new). Squares given up on (no way there
    at this point of the story) are not counted."""

    seen: dict[int, set[tuple[int, int]]]
    given_up: set[Square]

    def reached(self, square: Square, edge: Edge | None) -> bool:
        if square in self.given_up:
            return False
        if edge is not None and edge.warp is not None:
            return square[0] not in self.seen
        return (square[1], square[2]) not in self.seen.get(square[0], set())

    def facing(self, square: Square) -> Direction | None:
        return None

    def estimate(self, square: Square) -> float:
        return 0.0


class Explorer:
    def __init__(self, world: World | None = None, seed: int = 0) -> None:
        self.world = world
        self.rng = random.Random(seed)
        self.seen: dict[int, set[tuple[int, int]]] = {}
        self.warps_taken: set[tuple[int, int]] = set()
        # (map, object) -> (events set, leg number) when last talked to
        self.talked: dict[tuple[int, int], tuple[int, int]] = {}
        self.gates_tried: dict[Square, int] = {}  # -> how many events were set when it was tried
        self.given_up: dict[Square, int] = {}  # goals not reached, likewise
        self.legs = 0
        self._events = 0  # event flags set at the last choice: the story moved on when it grows
        self._all_grass: list[Square] | None = None  # every tall-grass square of the cartridge, once read

    # -- choosing ----------------------------------------------------------------------------------
    def choose(self, state: GameState) -> Leg:
        where = state.overworld
        self._events = len(state.story.event_flags)
        self.look((where.map_id, where.x, where.y))
        if self.world is None or where.map_id not in self.world.maps:
            direction = self.rng.choice(list(Direction))
            return Leg(
                goal=StepGoal(direction=direction), intent="explore", reason="no map: a step at random"
            )
        around = self._around(state)
        return self._frontier(around) or self._people(state, around) or self._wander(around)

    def _around(self, state: GameState) -> Surroundings:
        assert self.world is not None
        around = surroundings(self.world, state)
        events = len(state.story.event_flags)
        # A gate tried since the story last changed leads nowhere now: keep out of it.
        shut = {square for square, at in self.gates_tried.items() if at == events and square in around.gated}
        return gates_as_costs(around, frozenset(shut))

    def _frontier(self, around: Surroundings) -> Leg | None:
        assert self.world is not None
        events = self._events
        target = FrontierTarget(self.seen, {square for square, at in self.given_up.items() if at == events})
        plan = Planner(self.world, around, "explore").plan(target, max_nodes=SEARCH_NODES)
        if plan is None or not plan.edges:
            return None
        last = plan.edges[-1]
        if last.warp is not None and last.via is not None:
            goal: WarpGoal | SquareGoal = WarpGoal(map_id=last.via[0], index=last.warp.index)
            why = f"a warp not taken yet, {plan.steps} steps away"
        else:
            goal = SquareGoal(map_id=plan.end[0], x=plan.end[1], y=plan.end[2])
            why = f"ground not seen yet, {plan.steps} steps away"
        through = " (through a story gate)" if _crosses(plan, around) else ""
        # The walk plans again where it runs: the gates tried already must stay shut there too, or it
        # walks into the nearest one again rather than the one this plan crosses.
        shut = (
            tuple(sorted(square for square in around.blocked if square in self.gates_tried))
            if through
            else ()
        )
        return Leg(goal=goal, intent="explore", max_steps=plan.steps + LEG_SLACK, reason=why + through,
                   cross_gates=bool(through), shut=shut)  # fmt: skip

    def _people(self, state: GameState, around: Surroundings) -> Leg | None:
        """The nearest person or item, on any map explored so far, not talked to since the story last
        moved on (items first: they vanish once taken). People stand where their sprites are on this map
        and at home elsewhere."""
        people = self._waiting(state, around)
        assert self.world is not None
        items = {key: at for key, at in people.items() if self.world.maps[key[0]].objects[key[1] - 1].item}
        for chosen in (items, people):
            leg = self._nearest_of(around, chosen)
            if leg is not None:
                return leg
        return None

    def _waiting(self, state: GameState, around: Surroundings) -> dict[tuple[int, int], Square]:
        assert self.world is not None
        here = around.here[0]
        found: dict[tuple[int, int], Square] = {}
        for sprite in state.overworld.sprites:
            if sprite.index <= len(self.world.maps[here].objects):
                found[(here, sprite.index)] = (here, sprite.x, sprite.y)
        for map_id in self.seen:
            if map_id == here or map_id not in self.world.maps:
                continue
            for thing in self.world.maps[map_id].objects:
                if thing.toggle is None or thing.toggle not in state.story.hidden_objects:
                    found[(map_id, thing.index)] = (map_id, thing.x, thing.y)
        return {key: at for key, at in found.items() if self._worth_talking(key)}

    def _worth_talking(self, key: tuple[int, int]) -> bool:
        """Never talked to, or not since the story moved on, or long ago (after training, a gym leader
        who won may be beaten now)."""
        last = self.talked.get(key)
        return last is None or last[0] != self._events or self.legs - last[1] > TALK_AGAIN_AFTER_LEGS

    def _nearest_of(self, around: Surroundings, people: dict[tuple[int, int], Square]) -> Leg | None:
        assert self.world is not None
        squares: dict[Square, Direction | None] = {}
        owner: dict[Square, tuple[int, int]] = {}
        for key, square in people.items():
            for stand, direction in facing_squares(self.world, square).items():
                squares.setdefault(stand, direction)
                owner.setdefault(stand, key)
        plan = Planner(self.world, around, "explore").plan(SquaresTarget(squares), max_nodes=SEARCH_NODES)
        if plan is None:
            return None
        map_id, index = owner[plan.end]
        name = self.world.maps[map_id].name
        why = f"nothing new to see: talk to {name} object {index}, {plan.steps} steps away"
        return Leg(goal=ObjectGoal(map_id=map_id, index=index), intent="explore", interact=True,
                   max_steps=plan.steps + LEG_SLACK, reason=why)  # fmt: skip

    def training_leg(self, state: GameState, reason: str, on_maps: Collection[int] | None = None) -> Leg:
        """A walk to tall grass near the nearest patch (of `on_maps`, if given: where the wanted species
        lives): wild battles there train the team."""
        self.look((state.overworld.map_id, state.overworld.x, state.overworld.y))
        if self.world is None or state.overworld.map_id not in self.world.maps:
            return self.choose(state)
        # Never through a closed story gate: the walk would not cross it (Pewter's guard keeps Mt. Moon's
        # floors out of reach until Brock is beaten, and a training walk planned there went nowhere).
        leg = self._wander(surroundings(self.world, state), on_maps)
        return leg.model_copy(update={"reason": f"{reason}: {leg.reason}"})

    def grass_steps(
        self, state: GameState, on_maps: Collection[int], max_nodes: int = SEARCH_NODES
    ) -> int | None:
        """Steps to the nearest tall grass (or cave floor) of these maps, not through a closed story gate;
        None when none is in reach."""
        if self.world is None or state.overworld.map_id not in self.world.maps:
            return None
        around = surroundings(self.world, state)
        patches: dict[Square, Direction | None] = {
            square: None for square in self._grass_squares() if square[0] in on_maps and square != around.here
        }
        if not patches:
            return None
        plan = Planner(self.world, around, "train").plan(SquaresTarget(patches), max_nodes=max_nodes)
        return plan.steps if plan is not None else None

    def _grass_squares(self) -> list[Square]:
        assert self.world is not None
        # Every map's grass, not only the maps seen: a save state from the middle of the game has seen
        # nothing yet, and the planner finds the nearest patch it can reach either way.
        if self._all_grass is None:
            self._all_grass = [square for map_id in self.world.maps for square in _grass(self.world, map_id)]
        return self._all_grass

    def nearest_talk(
        self, state: GameState, people: dict[tuple[int, int], Square], through_gates: bool = True
    ) -> Leg | None:
        """A leg to talk to the nearest of these (map, object) people, standing where given: first among
        those the walk reaches without crossing a closed story gate (the nearest Mart beyond Saffron's
        thirsty guards is no Mart at all), else, `through_gates`, through gates (the mansion's doors, which
        its switches open on the way)."""
        if self.world is None or state.overworld.map_id not in self.world.maps:
            return None
        found = self._nearest_of(surroundings(self.world, state), people)
        if found is None and through_gates:
            found = self._nearest_of(self._around(state), people)
        return found

    def _wander(self, around: Surroundings, on_maps: Collection[int] | None = None) -> Leg:
        """Nothing new and no one to talk to: train. Walk to a random patch of tall grass near the
        nearest one (wild battles level the team up for what held it back); with no grass in reach,
        a step at random."""
        assert self.world is not None
        grass = self._nearest_grass(around, on_maps)
        if grass is None:
            direction = self.rng.choice(list(Direction))
            why = "nothing new, no one to talk to, no grass in reach: a step at random"
            return Leg(goal=StepGoal(direction=direction), intent="explore", reason=why)
        map_id, x, y = self.rng.choice(grass)
        why = "nothing new and no one to talk to: train in the grass"
        goal = SquareGoal(map_id=map_id, x=x, y=y)
        return Leg(goal=goal, intent="train", max_steps=TRAINING_LEG_STEPS, reason=why)

    def _nearest_grass(
        self, around: Surroundings, on_maps: Collection[int] | None = None
    ) -> list[Square] | None:
        assert self.world is not None
        patches: dict[Square, Direction | None] = {
            square: None for square in self._grass_squares()
            if square != around.here and (on_maps is None or square[0] in on_maps)
        }  # fmt: skip
        plan = Planner(self.world, around, "train").plan(SquaresTarget(patches), max_nodes=SEARCH_NODES)
        if plan is None:
            return None
        near = [square for square in patches if square[0] == plan.end[0]]
        near.sort(key=lambda square: _distance(square, plan.end))
        return near[:TRAINING_SQUARES]

    # -- learning from the walk --------------------------------------------------------------------
    def look(self, at: Square) -> None:
        """Every square of the map the screen shows from `at` (beyond its edges: the neighbour's,
        seen when walked into)."""
        map_id, x, y = at
        data = self.world.maps.get(map_id) if self.world is not None else None
        wide, high = (data.squares_wide, data.squares_high) if data is not None else (MAX_SIDE, MAX_SIDE)
        squares = self.seen.setdefault(map_id, set())
        for sy in range(max(0, y - VIEW_UP), min(high, y + VIEW_DOWN + 1)):
            for sx in range(max(0, x - VIEW_LEFT), min(wide, x + VIEW_RIGHT + 1)):
                squares.add((sx, sy))

    def record(self, leg: Leg, report: LegReport, state_before: GameState) -> None:
        self.legs += 1
        for square in report.walked:
            self.look(square)
        self.warps_taken.update(report.warps)
        if isinstance(leg.goal, ObjectGoal):
            self.talked[(leg.goal.map_id, leg.goal.index)] = (self._events, self.legs)  # reached or not
        elif report.outcome in ("no_path", "blocked", "max_steps"):
            self._give_up(leg, report)
        if report.outcome in ("script", "dialog") and self.world is not None:
            self._note_gate(report, state_before)

    def _give_up(self, leg: Leg, report: LegReport) -> None:
        goal = leg.goal
        if isinstance(goal, SquareGoal):
            self.given_up[(goal.map_id, goal.x, goal.y)] = self._events
        elif isinstance(goal, WarpGoal) and self.world is not None and goal.map_id in self.world.maps:
            warp = self.world.maps[goal.map_id].warps[goal.index]
            destination = self.world.warp_destination(warp, None, from_map=goal.map_id)
            if destination is not None:
                self.given_up[destination] = self._events

    def _note_gate(self, report: LegReport, before: GameState) -> None:
        """A scene that began on or next to a closed gate: the whole gate has been tried at this point of
        the story."""
        assert self.world is not None
        where = before.overworld
        last = report.walked[-1] if report.walked else (where.map_id, where.x, where.y)
        for gate in closed_gates(before):
            squares = list(gate_squares(self.world, gate))
            if any(square[0] == last[0] and _distance(square, last) <= 1 for square in squares):
                for square in squares:
                    self.gates_tried[square] = len(before.story.event_flags)

    def counters(self) -> dict[str, float]:
        """What the explorer knows in a few numbers, for the role's report (`engine status`)."""
        return {
            "seen_squares": float(sum(len(squares) for squares in self.seen.values())),
            "maps_seen": float(len(self.seen)),
            "warps_taken": float(len(self.warps_taken)),
            "people_talked_to": float(len(self.talked)),
        }

    # -- snapshots ---------------------------------------------------------------------------------
    def snapshot(self) -> ExplorerSnapshot:
        version, words, gauss = self.rng.getstate()
        return ExplorerSnapshot(
            rng=(version, tuple(words), gauss),
            seen=tuple((map_id, *_bitmap(squares)) for map_id, squares in self.seen.items()),
            warps_taken=tuple(sorted(self.warps_taken)),
            talked=tuple((*key, *at) for key, at in self.talked.items()),
            gates_tried=tuple((*square, at) for square, at in self.gates_tried.items()),
            given_up=tuple((*square, at) for square, at in self.given_up.items()),
            legs=self.legs,
            events=self._events,
        )

    def restore(self, snapshot: ExplorerSnapshot) -> None:
        self.rng.setstate(snapshot.rng)
        self.seen = {map_id: _squares(width, bits) for map_id, width, bits in snapshot.seen}
        self.warps_taken = set(snapshot.warps_taken)
        self.talked = {(map_id, index): (at, leg) for map_id, index, at, leg in snapshot.talked}
        self.gates_tried = {(m, x, y): at for m, x, y, at in snapshot.gates_tried}
        self.given_up = {(m, x, y): at for m, x, y, at in snapshot.given_up}
        self.legs = snapshot.legs
        self._events = snapshot.events


def _bitmap(squares: set[tuple[int, int]]) -> tuple[int, str]:
    """Squares of a map as (row width, hex bitmap)."""
    width = max((x for x, _ in squares), default=0) + 1
    bits = 0
    for x, y in squares:
        bits |= 1 << (y * width + x)
    return width, format(bits, "x")


def _squares(width: int, bitmap: str) -> set[tuple[int, int]]:
    bits = int(bitmap, 16)
    found = set()
    while bits:
        low = bits & -bits
        index = low.bit_length() - 1
        found.add((index % width, index // width))
        bits ^= low
    return found


def _grass(world: World, map_id: int) -> list[Square]:
    """Where wild battles are met on this map: its tall grass, or a cave's or the mansion's floor (only the
    squares one can stand on: the planner needs a goal it can reach)."""
    return [(map_id, x, y) for x, y in world.squares(map_id)
            if world.meets_wild(map_id, x, y) and world.walkable(map_id, x, y)]  # fmt: skip


def _distance(a: Square, b: Square) -> int:
    return abs(a[1] - b[1]) + abs(a[2] - b[2])


def _crosses(plan: Plan, around: Surroundings) -> bool:
    return any((edge.via or edge.to) in around.costly for edge in plan.edges)
