"""The run's splits: each story milestone with the frame, the decision count and the wall time at which
it was first seen reached, like a speedrun's."""

from __future__ import annotations

from engine.frozen import Frozen
from engine.game.models import GameState
from engine.story.graph import StoryGraph


class Split(Frozen):
    name: str
    title: str
    number: int  # its number among the Orak benchmark's twelve (0 for the story's later objectives)
    frame: int
    decision: int
    seconds: float
    at_start: bool = False  # done before the run began (a save state from the middle of the game)


class Milestones:
    """Watches states for objectives done; the twelve milestones and the later story objectives are
    both recorded (the later ones are numbered 0)."""

    def __init__(self, graph: StoryGraph, reached: list[Split] | None = None) -> None:
        self.graph = graph
        self.reached: list[Split] = reached if reached is not None else []  # the run's progress holds it

    @property
    def names(self) -> set[str]:
        return {split.name for split in self.reached}

    def check(self, state: GameState, frame: int, decision: int, seconds: float) -> list[Split]:
        """Splits for objectives done now and not recorded before, in the graph's order. Objectives a
        save state had already done at the start are recorded the same way, at its first look, even
        when the state is inside a battle: recorded only after that battle, they would count as the
        run's own. Inside any later battle, nothing is recorded until the battle is over."""
        if state.battle is not None and decision > 0:
            return []
        done, known = self.graph.done(state), self.names
        new = [
            Split(name=objective.name, title=objective.title, number=objective.milestone or 0, frame=frame,
                  decision=decision, seconds=round(seconds, 3), at_start=decision == 0)
            for objective in self.graph.objectives if objective.name in done and objective.name not in known
        ]  # fmt: skip
        self.reached.extend(new)
        return new
