"""The exploring walk: novelty first, blocked moves remembered, map edges and doors learned."""

from __future__ import annotations

from engine.game.models import Direction, Overworld
from engine.messages import StepOutcome
from engine.tactician.explorer import BUMP_MEMORY_STEPS, STUCK_AFTER_STEPS, Explorer, NavDecision


def at(x: int, y: int, map_id: int = 0) -> Overworld:
    return Overworld(map_id=map_id, map_name=None, x=x, y=y, facing="down")


def step(direction: Direction) -> NavDecision:
    return NavDecision(kind="step", direction=direction, reason="test")


def test_walks_towards_the_least_visited_neighbour() -> None:
    explorer = Explorer(seed=1)
    for _ in range(3):
        explorer.record(at(5, 5), step(Direction.UP), StepOutcome.MOVED, at(5, 4))
    explorer.record(at(5, 5), step(Direction.DOWN), StepOutcome.MOVED, at(5, 6))
    explorer.record(at(5, 5), step(Direction.LEFT), StepOutcome.MOVED, at(4, 5))
    decision = explorer.decide(at(5, 5))
    assert decision.direction is Direction.RIGHT
    assert "new ground" in decision.reason


def test_a_blocked_move_is_not_tried_again() -> None:
    explorer = Explorer(seed=2)
    explorer.record(at(1, 1), step(Direction.UP), StepOutcome.BLOCKED, at(1, 1))
    explorer.just_bumped = False  # no look-around this time
    choices = {explorer.decide(at(1, 1)).direction for _ in range(40)}
    assert Direction.UP not in choices
    assert choices <= {Direction.DOWN, Direction.LEFT, Direction.RIGHT}


def test_boxed_in_it_interacts_and_forgets_the_bumps() -> None:
    explorer = Explorer(seed=3)
    for direction in Direction:
        explorer.record(at(2, 2), step(direction), StepOutcome.BLOCKED, at(2, 2))
    explorer.just_bumped = False
    decision = explorer.decide(at(2, 2))
    assert decision.kind == "interact" and decision.direction is None
    assert explorer.decide(at(2, 2)).kind == "step"


def test_a_map_edge_counts_the_tile_it_really_leads_to() -> None:
    """Without this, both sides of a map edge look like new ground forever and the walk oscillates."""
    explorer = Explorer(seed=4)
    edge, other_side = at(11, 0, map_id=0), at(11, 35, map_id=12)
    for _ in range(5):
        explorer.record(edge, step(Direction.UP), StepOutcome.INTERRUPTED, other_side)
    explorer.record(edge, step(Direction.LEFT), StepOutcome.MOVED, at(10, 0))
    explorer.record(edge, step(Direction.RIGHT), StepOutcome.MOVED, at(12, 0))
    explorer.record(edge, step(Direction.DOWN), StepOutcome.MOVED, at(11, 1))
    assert explorer.decide(edge).direction is not Direction.UP


def test_the_same_seed_walks_the_same_way() -> None:
    def walk(seed: int) -> list[Direction | None]:
        explorer, here, path = Explorer(seed=seed), at(0, 0), []
        for _ in range(30):
            decision = explorer.decide(here)
            path.append(decision.direction)
            if decision.direction is not None:
                dx, dy = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}[decision.direction]
                after = at(here.x + dx, here.y + dy)
                explorer.record(here, decision, StepOutcome.MOVED, after)
                here = after
        return path

    assert walk(7) == walk(7)
    assert walk(7) != walk(8)


def test_when_stuck_every_bump_is_followed_by_a_look() -> None:
    explorer = Explorer(seed=5)
    here = at(3, 3)
    for _ in range(STUCK_AFTER_STEPS + 2):  # walking back and forth over known ground
        explorer.record(here, step(Direction.LEFT), StepOutcome.MOVED, here)
    assert explorer.stuck
    explorer.record(here, step(Direction.UP), StepOutcome.BLOCKED, here)
    decision = explorer.decide(here)
    assert decision.kind == "interact" and "stuck" in decision.reason


def test_bumps_are_forgotten_after_a_while() -> None:
    explorer = Explorer(seed=6)
    explorer.record(at(1, 1), step(Direction.UP), StepOutcome.BLOCKED, at(1, 1))
    assert explorer._remembered_bump((0, 1, 1), Direction.UP)
    for _ in range(BUMP_MEMORY_STEPS):
        explorer.record(at(9, 9), step(Direction.LEFT), StepOutcome.MOVED, at(9, 9))
    assert not explorer._remembered_bump((0, 1, 1), Direction.UP)
