"""The decisions action set: one step is one decision the engine's rule-based tier would make, the way
the `decisions` harness level offers them (docs/harness.md), played through the game session an outside
agent uses (engine/play/session.py).

In a battle the options are the legal actions at the battle's next decision (the engine's executor carries
the chosen one out: menus, buttons, messages). Out of battle they are the story's open objectives, the
first being the engine's own choice (the pilot walks its next step as one leg: engine/tactician/pilot.py),
then exploring (engine/tactician/explorer.py), and healing at the nearest Pokémon Center when the team is
hurt. A leg stops where a battle begins; the next step's options are then that battle's.

The action space has a fixed size (`max_options`); `info["action_mask"]` marks the options there are now
and `info["options"]` says what each is. An action outside the mask plays the first option (the engine's
own choice) and is reported in `info["invalid_action"]`."""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
from gymnasium import spaces

from engine.frozen import Frozen
from engine.game.models import GameState
from engine.gym.errors import GymError
from engine.messages import Directive, EventName
from engine.play.session import GameSession
from engine.story.graph import StoryGraph
from engine.tactician.tactician import Tactician
from engine.team.planner import TeamPlanner
from engine.world.goals import Leg

WAIT_FRAMES = 60  # the fallback option where nothing else can be chosen: a second of the game
DECIDE_ROUNDS = 3


class Choice(Frozen):
    label: str
    kind: Literal["battle", "objective", "explore", "heal", "wait"]
    battle_action: int = 0  # battle: the legal action's id
    objective: str = ""  # objective: its name


EXPLORE = Choice(label="explore: somewhere not seen yet, or wild battles", kind="explore")
HEAL = Choice(label="heal the team at the nearest Pokémon Center", kind="heal")
WAIT = Choice(label="wait a second", kind="wait")


class DecisionActions:
    def __init__(self, game: GameSession, graph: StoryGraph, max_options: int, leg_steps: int) -> None:
        if game.world() is None:
            raise GymError("the decisions action set walks on the cartridge's maps, and this cartridge's "
                           "cannot be read: use actions='buttons'")  # fmt: skip
        self.game = game
        self.graph = graph
        self.leg_steps = leg_steps
        self.space = spaces.Discrete(max_options)
        self.choices: tuple[Choice, ...] = (WAIT,)
        self.state: GameState | None = None  # the game at the decision the choices are for
        self.tactician: Tactician | None = None

    def begin(self, seed: int) -> None:
        """A new episode: a fresh tactician (what the explorer saw, where the pilot got stuck), then the
        first decision."""
        config = self.game.config
        keep = frozenset(config.team.keep_unevolved)
        team = TeamPlanner(keep, stones=config.team.stones, swaps=config.team.swaps)
        self.tactician = Tactician(seed, world=self.game.world(), stuck_legs=config.story.stuck_legs,
                                   lookahead=config.models.rule_based.battle == "search", keep_unevolved=keep,
                                   team=team)  # fmt: skip
        self.choices = (WAIT,)
        self.decide()

    def play(self, action: int) -> dict[str, Any]:
        """Carry out option `action`, then run to the next decision. An engine error on the way is the
        caller's to report; the options are those of wherever the game stopped."""
        invalid = not 0 <= action < len(self.choices)
        chosen = self.choices[0 if invalid else action]
        try:
            outcome = self._carry_out(chosen)
        finally:
            self.choices, self.state = (WAIT,), None
            self.decide()
        return {"chosen": chosen.label, "outcome": outcome, "invalid_action": invalid}

    def mask(self) -> np.ndarray:
        mask = np.zeros(self.space.n, dtype=np.int8)
        mask[: len(self.choices)] = 1
        return mask

    def info(self) -> dict[str, Any]:
        return {"action_mask": self.mask(), "options": tuple(choice.label for choice in self.choices)}

    # -- the next decision -------------------------------------------------------------------------
    def decide(self) -> None:
        """Run the game to its next decision and list the options there: a battle's, or once text and
        menus are cleared, the overworld's (clearing them may start a battle, a battle's end may lead
        into the next one; a few rounds, then waiting is the one option)."""
        for _ in range(DECIDE_ROUNDS):
            if self.game.role.in_battle():
                turn = self.game.legal_actions()
                if not turn.over:
                    found = [Choice(label=o.label, kind="battle", battle_action=o.id) for o in turn.options]
                    self.choices = tuple(found[: self.space.n]) or (WAIT,)
                    return
            state = self.game.role.settle()
            if not self.game.role.in_battle():
                self.state, self.choices = state, self._overworld(state)
                return
        self.choices = (WAIT,)

    def _overworld(self, state: GameState) -> tuple[Choice, ...]:
        hurt = any(mon.hp < mon.max_hp for mon in state.party)
        tail = (EXPLORE, HEAL) if hurt else (EXPLORE,)
        objectives = self.graph.open(state)[: self.space.n - len(tail)]
        return (*(self._objective(objective.name, state) for objective in objectives), *tail)

    def _objective(self, name: str, state: GameState) -> Choice:
        objective = self.graph.named(name)
        step = self.graph.next_step(objective, state)
        words = f": next {step.words()}" if step is not None else ""
        return Choice(label=f"{name} ({objective.title}){words}", kind="objective", objective=name)

    # -- carrying a choice out -----------------------------------------------------------------------
    def _carry_out(self, chosen: Choice) -> str:
        if chosen.kind == "battle":
            turn = self.game.act(chosen.battle_action)
            return f"battle over: {turn.outcome}" if turn.over else "next decision"
        if chosen.kind == "wait" or self.state is None:
            self.game.role.session.tick(WAIT_FRAMES)
            return "waited"
        return self._walk(self._leg(chosen, self.state), self.state)

    def _leg(self, chosen: Choice, state: GameState) -> Leg:
        tactician = self.tactician
        assert tactician is not None, "begin() comes first"
        leg = None
        if chosen.kind == "objective":
            objective = self.graph.named(chosen.objective)
            frame = self.game.role.frame_count()
            directive = Directive(objective=objective.title, objective_id=objective.name,
                                  trigger=EventName.HEARTBEAT, frame=frame)  # fmt: skip
            leg = tactician.choose_leg(state, directive)
        elif chosen.kind == "heal":
            leg = tactician.pilot.nearest_center(state)
        return leg if leg is not None else tactician.explorer.choose(state)

    def _walk(self, leg: Leg, before: GameState) -> str:
        assert self.tactician is not None
        leg = leg.model_copy(update={"max_steps": min(leg.max_steps, self.leg_steps)})
        report = self.game.role.travel(leg)
        self.tactician.travelled(before, leg, report)
        return f"{report.outcome}: {report.reason}" if report.reason else report.outcome
