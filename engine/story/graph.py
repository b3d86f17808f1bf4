"""The objective graph: what the story asks for, in which order, and how each is known to be done.

It is package data (`data/objectives.json`), written from public walkthrough facts and the pret/pokered
scripts it names. An objective is done when one of its `done` alternatives holds on RAM; it is open once
the objectives it comes `after` are done (an objective whose successor is done counts as done too: a save
state from the middle of the game needs no history to place itself). The order is a graph, not a script:
the first open objective is the rule-based choice, and a model may choose another open one.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping
from functools import cache
from importlib import resources
from typing import Literal

from pydantic import Field, ValidationError, field_validator

from engine.combat.position import forecast
from engine.frozen import Frozen
from engine.game.mending import next_mend
from engine.game.models import Direction, GameState
from engine.game.stock import gauntlet_stock
from engine.game.tables import game_data
from engine.story.conditions import any_of, check
from engine.story.errors import StoryError
from engine.team.gauntlet import settled_forecast
from engine.team.planner import gauntlet
from engine.world.goals import Answer, Purchase

GAUNTLET_KEY = "GAUNTLET"  # the bar of the Elite Four and the Champion as one chain
Action = Literal["go", "talk", "gate", "heal", "buy", "catch", "train", "fight", "teach", "search", "use"]


class Step(Frozen):
    """One action of an objective's plan, done when its `until` alternatives hold (a step without one is
    done when its objective is)."""

    do: Action
    map: str | None = None  # a map as pret names it; `heal` and `buy` without one use the nearest
    object: int | None = None  # the map's object (1-based sprite slot) to talk to or fight
    thing: tuple[int, int, Direction] | None = None  # `talk` to a machine: its square, the way to face it
    answer: Answer = "yes"
    items: tuple[Purchase, ...] = ()
    # `buy`: a stock worked out from the bag and the money instead of fixed `items` (game/stock.py)
    stock: Literal["gauntlet"] | None = None
    bag: bool = False  # `heal` from the bag where no Pokémon Center is reached (game/mending.py)
    # `heal` before a walk through trainers: once done while the objective is in hand, scratches on the way
    # do not send the team back to the nurse (a rival's heal is always to full health; a boss's `fight`
    # steps see to a fit team themselves, so a gym's heal is done once too: tactician/pilot.py).
    on_the_way: bool = False
    machine: str | None = None  # `teach`: the TM or HM (pret item name); `catch`: only what can learn it
    new: bool = False  # `catch`: only species the Pokédex does not own yet, where such species live
    # `search`: the puzzle to work on (hidden switches to look for, the Seafoam Islands' boulders to drop)
    puzzle: Literal["trash_cans", "switch_doors", "seafoam"] | None = None
    use: str | None = None  # `use`: the item used from the bag, standing where `thing` is faced from
    gives: str | None = None  # `talk`: the item the person hands over (the bag must have room for it)
    # A trainer class and number: `train` until the forecast is good. The rival's number follows the
    # starter it chose, so for the rival it is a table from that species to the number.
    boss: tuple[str, int | dict[str, int]] | None = None
    win_at: float = 0.0  # the forecast against `boss` that ends training
    # `train` for the Elite Four and the Champion as one chain (team/gauntlet.py), the lobby's stock
    # counted as bought: `win_at` is the chance of beating all five in one go.
    gauntlet: bool = False
    until: tuple[tuple[str, ...], ...] = ()
    why: str = ""

    @field_validator("gives")
    @classmethod
    def _known_item(cls, item: str | None) -> str | None:
        if item is not None and item not in game_data().item_ids:
            raise ValueError(f"{item!r} is not an item's pret name (game/data/items.json)")
        return item

    def done(self, state: GameState, bar: float | None = None) -> bool:
        """Whether the step has nothing left to do; `bar`: the forecast a `train` step waits for instead
        of `win_at` (raised after a defeat, or 0 once training has gone on for long enough)."""
        if self.do == "heal" and self.bag:
            return any_of(self.until, state) or next_mend(state) is None
        if self.stock is not None:
            return any_of(self.until, state) or not gauntlet_stock(state)
        if self.boss is not None or self.gauntlet:
            if self.until and any_of(self.until, state):
                return True  # the boss is beaten already (the rival met on the way)
            chance = self.forecast(state)
            return chance is None or chance >= (self.win_at if bar is None else bar)
        return bool(self.until) and any_of(self.until, state)

    @property
    def bar_key(self) -> str | None:
        """What a defeat raises the bar of and outcomes are kept under: the boss trained for, or the whole
        gauntlet. The class alone for its party #1, else with the party's number (the rival's lowest of its
        three): GIOVANNI fights in the hideout, Silph Co. and his gym, the rival on the S.S. Anne and on
        Route 22, and the ship's rival is no measure of Route 22's."""
        if self.gauntlet:
            return GAUNTLET_KEY
        if self.boss is None:
            return None
        trainer, number = self.boss
        first = min(number.values(), default=1) if isinstance(number, dict) else number
        return trainer if first == 1 else f"{trainer} #{first}"

    def boss_team(self, state: GameState) -> tuple[str, int] | None:
        """The boss's trainer class and number in this game (the rival's by the starter it chose)."""
        if self.boss is None:
            return None
        trainer, number = self.boss
        if isinstance(number, dict):
            found = number.get(state.story.rival_starter or "")
            return (trainer, found) if found is not None else None
        return trainer, number

    def forecast(self, state: GameState) -> float | None:
        """The chance to beat the boss with the team healed (for the gauntlet, all five in a row with the
        lobby's stock bought); None when it cannot be worked out."""
        if self.gauntlet:
            found = settled_forecast(state, gauntlet(state), gauntlet_stock(state))
            return found.chance if found is not None else None
        team = self.boss_team(state)
        return forecast(state, *team, healed=True) if team is not None else None

    def forecast_now(self, state: GameState) -> float | None:
        """The chance to beat the boss with the team as it is now: its HP, status and PP (not the gauntlet's,
        whose lobby heals); None when it cannot be worked out."""
        team = None if self.gauntlet else self.boss_team(state)
        return forecast(state, *team) if team is not None else None

    def words(self) -> str:
        where = f" {self.map}" if self.map else ""
        who = f" object {self.object}" if self.object is not None else ""
        if self.thing is not None:
            who = f" ({self.thing[0]}, {self.thing[1]}) facing {self.thing[2]}"
        what = " ".join(f"{p.quantity} {p.item}" for p in self.items) or (self.machine or "")
        what = f"{what} for the {self.stock}".strip() if self.stock else what
        what = f"{what} from the bag".strip() if self.bag else what
        boss = f" for {self.boss[0]} (until {self.win_at:.0%} to win)" if self.boss else ""
        boss = (
            f" for the Elite Four and the Champion (until {self.win_at:.0%} to finish)"
            if self.gauntlet
            else boss
        )
        return f"{self.do}{where}{who}{' ' + what if what else ''}{boss}".strip()


class Objective(Frozen):
    name: str
    title: str
    milestone: int | None = None  # its number among the Orak benchmark's twelve, or None
    optional: bool = False
    # An optional objective is taken when its place is this many steps away at most (None: the
    # strategist's default; 0: only when the run aims for it).
    detour: int | None = Field(None, ge=0)
    after: tuple[str, ...] = ()
    done_when: tuple[tuple[str, ...], ...] = Field(alias="done")
    steps: tuple[Step, ...]
    source: str


class StoryGraph(Frozen):
    objectives: tuple[Objective, ...]

    def named(self, name: str) -> Objective:
        found = next((objective for objective in self.objectives if objective.name == name), None)
        if found is None:
            raise StoryError(f"no objective called {name!r}")
        return found

    @property
    def final(self) -> Objective:
        """The story's last objective: once it is done, there is nothing more to play."""
        return [objective for objective in self.objectives if not objective.optional][-1]

    @property
    def milestones(self) -> tuple[Objective, ...]:
        return tuple(objective for objective in self.objectives if objective.milestone is not None)

    def on_the_way_to(self, name: str) -> frozenset[str]:
        """The objective and every one it comes after, however far back."""
        wanted, todo = set[str](), [self.named(name).name]
        while todo:
            found = todo.pop()
            if found not in wanted:
                wanted.add(found)
                todo.extend(self.named(found).after)
        return frozenset(wanted)

    def done(self, state: GameState) -> frozenset[str]:
        """Objectives done: by their own test, or because a later one is (the story only goes on). A badge
        is never taken for granted that way: RAM holds every badge won, and a gym left behind (a walk that
        reached the next town first) must still be fought, or the last gym never opens."""
        done = {objective.name for objective in self.objectives if any_of(objective.done_when, state)}
        by_badge = {objective.name for objective in self.objectives if _badge_test(objective)}
        grew = True
        while grew:
            grew = False
            for objective in self.objectives:
                if objective.name in done:
                    new = {name for name in objective.after if name not in done and name not in by_badge}
                    done |= new
                    grew = grew or bool(new)
        return frozenset(done)

    def open(self, state: GameState, done: frozenset[str] | None = None) -> tuple[Objective, ...]:
        """Objectives not done whose predecessors are, in the graph's order."""
        done = self.done(state) if done is None else done
        return tuple(
            objective for objective in self.objectives
            if objective.name not in done and all(name in done for name in objective.after)
        )  # fmt: skip

    def bosses_ahead(
        self, state: GameState, done: frozenset[str] | None = None
    ) -> tuple[tuple[str, int], ...]:
        """The bosses of the objectives not done yet, in the graph's order, as trainer class and number in
        this game (a rival whose starter is not known yet is left out)."""
        done = self.done(state) if done is None else done
        found = (step.boss_team(state) for objective in self.objectives if objective.name not in done
                 for step in objective.steps)  # fmt: skip
        return tuple(dict.fromkeys(team for team in found if team is not None))

    def next_step(
        self,
        objective: Objective,
        state: GameState,
        bars: Mapping[str, float] | None = None,
        passed: Collection[int] = (),
    ) -> Step | None:
        """The first step of the plan not done yet (the last one stays until the objective is done);
        `bars`: raised forecasts to train for, by the step's bar key; `passed`: the indices of steps the
        caller has done already this time (a heal before setting out is not walked back to for a scratch)."""
        for at, step in enumerate(objective.steps[:-1]):
            if at in passed:
                continue
            key = step.bar_key
            if not step.done(state, (bars or {}).get(key) if key is not None else None):
                return step
        return objective.steps[-1] if objective.steps else None


def _badge_test(objective: Objective) -> bool:
    return any(text.startswith("badge:") for group in objective.done_when for text in group)


def parse_graph(raw: object) -> StoryGraph:
    """A graph from its JSON form, checked: unique names, known predecessors, no cycle, every condition
    known."""
    try:
        graph = StoryGraph.model_validate(raw)
    except ValidationError as error:
        raise StoryError(f"the objective graph is malformed: {error.errors()[0]['msg']}") from error
    _check_names(graph)
    _check_conditions(graph)
    return graph


def _check_names(graph: StoryGraph) -> None:
    names = [objective.name for objective in graph.objectives]
    if len(set(names)) != len(names):
        raise StoryError("the objective graph names an objective twice")
    seen: set[str] = set()
    for objective in graph.objectives:  # predecessors come first in the file, which rules out cycles
        unknown = [name for name in objective.after if name not in seen]
        if unknown:
            raise StoryError(f"{objective.name} comes after {unknown[0]}, which is not listed before it")
        seen.add(objective.name)


def _check_conditions(graph: StoryGraph) -> None:
    for objective in graph.objectives:
        if not objective.steps:
            raise StoryError(f"{objective.name} has no plan")
        groups = [*objective.done_when, *(group for step in objective.steps for group in step.until)]
        for group in groups:
            for text in group:
                check(text)


@cache
def story_graph() -> StoryGraph:
    """The graph shipped with the engine."""
    text = resources.files("engine.story.data").joinpath("objectives.json").read_text(encoding="utf-8")
    return parse_graph(json.loads(text))
