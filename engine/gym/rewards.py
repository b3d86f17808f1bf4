"""Rewards from the story's own tests of progress (engine/story/graph.py: objectives done, the twelve
milestones among them) and the kinds of progress engine/story/progress.py tests within an objective
(event flags, towns, levels, catches), plus new maps and squares. Each is earned once an episode: what is
rewarded is going past the best this episode has seen, never getting back to it.

Inside a battle only levels and catches are looked at: the story's tests read the overworld, which a
battle's RAM does not show as it is. What happened meanwhile is counted once the battle is over."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.game.models import GameState
from engine.gym.settings import RewardWeights
from engine.story.graph import StoryGraph, story_graph


@dataclass
class Best:
    """The most the episode has seen of each kind of progress."""

    done: set[str] = field(default_factory=set)
    events: set[int] = field(default_factory=set)
    towns: set[str] = field(default_factory=set)
    maps: set[int] = field(default_factory=set)
    squares: set[tuple[int, int, int]] = field(default_factory=set)
    levels: int = 0
    owned: int = 0


class RewardTracker:
    def __init__(self, weights: RewardWeights, graph: StoryGraph | None = None) -> None:
        self.weights = weights
        self.graph = graph or story_graph()
        self.milestones = frozenset(objective.name for objective in self.graph.milestones)
        self.best = Best()
        self.finished = False  # the story's last objective is done: the episode terminates
        self._last: tuple[tuple[object, ...], frozenset[str]] | None = None

    def begin(self, state: GameState | None) -> None:
        """A new episode: what the start already shows is the baseline, earning nothing (a start inside a
        battle included: the story it shows then is the best there is to go by)."""
        self.best = Best()
        self.finished = False
        if state is not None:
            ignored: dict[str, float] = {}
            self._team(state, ignored)
            self._story(state, ignored)
            self._places(state, ignored)

    def score(self, state: GameState | None) -> dict[str, float]:
        """The reward's parts for what `state` shows past the best so far (only the non-zero parts)."""
        parts: dict[str, float] = {}
        if self.weights.step:
            parts["step"] = self.weights.step
        if state is None:
            return parts
        self._team(state, parts)
        if state.battle is None:
            self._story(state, parts)
            self._places(state, parts)
        return {name: value for name, value in parts.items() if value}

    def _team(self, state: GameState, parts: dict[str, float]) -> None:
        levels = sum(mon.level for mon in state.party)
        owned = state.progress.pokedex_owned
        _add(parts, "level", self.weights.level * max(0, levels - self.best.levels))
        _add(parts, "caught", self.weights.caught * max(0, owned - self.best.owned))
        self.best.levels = max(self.best.levels, levels)
        self.best.owned = max(self.best.owned, owned)

    def _done(self, state: GameState) -> frozenset[str]:
        """The objectives done, worked out again only when something a story condition reads has changed
        (engine/story/conditions.py): between two button steps it seldom has, and the ~60 objectives'
        tests are a good part of a step's time."""
        read = (state.story, state.progress.badge_names, state.progress.pokedex_owned, state.bag,
                state.overworld.map_name, state.party)  # fmt: skip
        if self._last is None or self._last[0] != read:
            self._last = (read, self.graph.done(state))
        return self._last[1]

    def _story(self, state: GameState, parts: dict[str, float]) -> None:
        done = self._done(state)
        new = done - self.best.done
        _add(parts, "objective", self.weights.objective * len(new))
        _add(parts, "milestone", self.weights.milestone * len(new & self.milestones))
        self.best.done |= done
        self.finished = self.finished or self.graph.final.name in done
        events = state.story.event_flags - self.best.events
        towns = state.story.towns_visited - self.best.towns
        _add(parts, "event", self.weights.event * len(events))
        _add(parts, "town", self.weights.town * len(towns))
        self.best.events |= events
        self.best.towns |= towns

    def _places(self, state: GameState, parts: dict[str, float]) -> None:
        where = state.overworld
        if where.map_id not in self.best.maps:
            self.best.maps.add(where.map_id)
            _add(parts, "new_map", self.weights.new_map)
        square = (where.map_id, where.x, where.y)
        if self.weights.new_square and square not in self.best.squares:
            self.best.squares.add(square)
            _add(parts, "new_square", self.weights.new_square)

    def milestones_done(self) -> tuple[str, ...]:
        return tuple(o.name for o in self.graph.milestones if o.name in self.best.done)


def _add(parts: dict[str, float], name: str, value: float) -> None:
    if value:
        parts[name] = parts.get(name, 0.0) + value
