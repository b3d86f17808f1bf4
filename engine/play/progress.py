"""The story as an agent follows it: objectives done, open and waiting (engine/story/graph.py), and the
twelve milestones with the frame each was first seen done in this session (as a run's splits are kept,
engine/runtime/milestones.py, which sits above this layer)."""

from __future__ import annotations

from engine.game.models import GameState
from engine.play.models import Milestones, MilestoneView, Objectives, ObjectiveView
from engine.story.graph import Objective, StoryGraph, story_graph


class StoryProgress:
    """Watches states for milestones done; objectives are read from the state asked about."""

    def __init__(self, graph: StoryGraph | None = None) -> None:
        self.graph = graph or story_graph()
        self.first_seen: dict[str, int | None] = {}  # milestone name -> frame (None: done at the start)
        self.started = False

    def note(self, state: GameState, frame: int) -> None:
        """Record milestones done now and not before. Inside a battle nothing is recorded: the story's
        tests read the overworld, which a battle's RAM does not show as it is."""
        if state.battle is not None:
            return
        done = self.graph.done(state)
        for objective in self.graph.milestones:
            if objective.name in done and objective.name not in self.first_seen:
                self.first_seen[objective.name] = frame if self.started else None
        self.started = True

    def done_names(self, state: GameState) -> tuple[str, ...]:
        """The milestones the game shows done now (in a battle: those seen done before it)."""
        done = self.graph.done(state) if state.battle is None else frozenset(self.first_seen)
        return tuple(objective.name for objective in self.graph.milestones if objective.name in done)

    def milestones(self, state: GameState) -> Milestones:
        done = frozenset(self.done_names(state))
        return Milestones(milestones=tuple(self._milestone(o, o.name in done) for o in self.graph.milestones))

    def _milestone(self, objective: Objective, done: bool) -> MilestoneView:
        frame = self.first_seen.get(objective.name)
        at_start = objective.name in self.first_seen and frame is None
        return MilestoneView(number=objective.milestone or 0, name=objective.name, title=objective.title,
                             done=done, at_start=at_start, frame=frame)  # fmt: skip

    def objectives(self, state: GameState) -> Objectives:
        done = self.graph.done(state)
        open_now = self.graph.open(state, done)
        views = tuple(self._open(objective, state) for objective in open_now)
        waiting = len(self.graph.objectives) - len(done) - len(open_now)
        names = tuple(objective.name for objective in self.graph.objectives if objective.name in done)
        return Objectives(done=names, open=views, waiting=waiting)

    def next_objective(self, state: GameState) -> str | None:
        """The first open objective (the rule-based choice) and its next step, in one line."""
        open_now = self.graph.open(state)
        if not open_now:
            return None
        return self._open(open_now[0], state).as_text()

    def _open(self, objective: Objective, state: GameState) -> ObjectiveView:
        step = self.graph.next_step(objective, state)
        return ObjectiveView(name=objective.name, title=objective.title, milestone=objective.milestone,
                             status="open", next_step=step.words() if step is not None else None)  # fmt: skip
