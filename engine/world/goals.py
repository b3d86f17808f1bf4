"""Where a leg of walking should end: a square, a map, a warp, a person or sign to face, one step.

Goals are messages (the tactician or a model chooses one, the Emulator role walks it), so they are frozen
models with a `kind` to tell them apart.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from engine.frozen import Frozen
from engine.game.models import Direction

Intent = Literal["travel", "train", "explore"]


class SquareGoal(Frozen):
    kind: Literal["square"] = "square"
    map_id: int
    x: int
    y: int


class MapGoal(Frozen):
    """Anywhere on the map: its nearest entrance."""

    kind: Literal["map"] = "map"
    map_id: int


class WarpGoal(Frozen):
    """Through the map's warp `index` (a door, stairs, a cave mouth), out on its other side."""

    kind: Literal["warp"] = "warp"
    map_id: int
    index: int


class ObjectGoal(Frozen):
    """Next to the map's object `index` (its sprite slot, 1-based), facing it, or across a counter."""

    kind: Literal["object"] = "object"
    map_id: int
    index: int


class SignGoal(Frozen):
    """Facing the map's sign `index` (0-based, in the map's order)."""

    kind: Literal["sign"] = "sign"
    map_id: int
    index: int


class StepGoal(Frozen):
    """One press of a direction, wherever it leads (for callers without a world model)."""

    kind: Literal["step"] = "step"
    direction: Direction


Goal = Annotated[
    SquareGoal | MapGoal | WarpGoal | ObjectGoal | SignGoal | StepGoal, Field(discriminator="kind")
]
Answer = Literal["yes", "no"]


class Leg(Frozen):
    """One leg of walking, executed by the Emulator role in one call. With `interact`, the leg ends by
    pressing A at what the goal faces and reading the text to its end; a YES/NO question on the way is
    answered with `answer`. With `cross_gates`, closed story gates are walked into (at a high cost) rather
    than around: that is how a scene the story waits for is started."""

    goal: Goal
    intent: Intent = "travel"
    interact: bool = False
    answer: Answer = "yes"
    cross_gates: bool = False
    max_steps: int = 400
    reason: str = ""
