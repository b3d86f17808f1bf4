"""A whole battle driven by a chooser, one `BattleStep` at a time: replays (the logged actions),
rollouts (one action, then the rule-based policy), the scenario tests and the battle benchmark (a policy).
The conductor plays the same steps inside its own cycle, with its roles choosing."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.battles.models import BattleLog, DecisionRecord
from engine.battles.policy import Policy
from engine.battles.tracker import move_used
from engine.game.actions import BattleAction, describe, legal_actions
from engine.game.models import GameState
from engine.mechanics.battle_step import BattleStep, battle_over, decision_record
from engine.mechanics.port import EmulatorPort


@dataclass(frozen=True)
class Chosen:
    action: BattleAction
    reason: str


@dataclass(frozen=True)
class Halt:
    """Stop driving here: the chooser cannot (or must not) choose."""

    reason: str


# (index of the decision in the battle, the state, its legal actions) -> an action or a halt
Picker = Callable[[int, GameState, list[BattleAction]], Chosen | Halt]


@dataclass(frozen=True)
class Option:
    label: str
    move: str | None = None  # the move's name when the option is to use a move


@dataclass(frozen=True)
class Step:
    record: DecisionRecord
    frame: int  # frames since the battle's first decision
    options: tuple[Option, ...]
    state: bytes | None = None  # the emulator's state at the decision, before acting (keep_states)


@dataclass(frozen=True)
class DrivenBattle:
    steps: tuple[Step, ...]
    log: BattleLog | None  # the tracker's record, when the battle reached its end
    halted: str | None  # why driving stopped before the end, if it did
    final: GameState | None  # the last look inside the battle
    frames: int  # from the first decision to where driving stopped


@dataclass(frozen=True)
class DriveOptions:
    battle_id: str
    run_id: str
    max_decisions: int = 200
    keep_states: bool = False  # a save state at every decision, for counterfactuals
    screenshots: bool = False  # the conductor renders a frame before acting (llm.screenshots)


def _options(state: GameState, legal: list[BattleAction]) -> tuple[Option, ...]:
    return tuple(Option(label=describe(action, state), move=move_used(action, state)) for action in legal)


class _Drive:
    def __init__(self, emulator: EmulatorPort, pick: Picker, options: DriveOptions) -> None:
        self.emulator, self.pick, self.options = emulator, pick, options
        self.step: BattleStep | None = None
        self.steps: list[Step] = []
        self.halted: str | None = None
        self.start = emulator.frame_count()

    def choose(self, state: GameState, legal: list[BattleAction]) -> Chosen | Halt:
        if len(self.steps) >= self.options.max_decisions:
            return Halt(f"the cap of {self.options.max_decisions} decisions was reached")
        return self.pick(len(self.steps), state, legal)

    def decide(self, state: GameState) -> bool:
        """One decision; False when the chooser halted."""
        if self.step is None:
            self.step = BattleStep.begin(self.emulator, self.options.battle_id, self.options.run_id, state)
            self.start = self.step.tracker.start_frame
        legal = legal_actions(state)
        choice = self.choose(state, legal)
        if isinstance(choice, Halt):
            self.halted = choice.reason
            return False
        frame = self.emulator.frame_count()
        saved = self.emulator.save_state() if self.options.keep_states else None
        if self.options.screenshots:
            self.emulator.screenshot()
        record = self.step.play(decision_record(state, choice.action, choice.reason, frame), choice.action)
        self.steps.append(
            Step(record=record, frame=frame - self.start, options=_options(state, legal), state=saved)
        )
        return True

    def result(self) -> DrivenBattle:
        if self.step is None:
            end = self.emulator.end_battle()
            return DrivenBattle(steps=(), log=None, halted="no battle: the state is not inside a battle",
                                final=end.final, frames=end.frame - self.start)  # fmt: skip
        end = self.step.end()
        log = self.step.finish(end) if self.halted is None else None
        return DrivenBattle(steps=tuple(self.steps), log=log, halted=self.halted, final=end.final,
                            frames=end.frame - self.start)  # fmt: skip


def drive_battle(emulator: EmulatorPort, pick: Picker, options: DriveOptions) -> DrivenBattle:
    """From a state inside a battle to its end (or a halt, or the decision cap), choosing with `pick`."""
    drive = _Drive(emulator, pick, options)
    state = emulator.advance()
    while not battle_over(state) and drive.decide(state):
        state = emulator.advance()
    return drive.result()


def by_policy(policy: Policy) -> Picker:
    """Whatever `policy` chooses (as the conductor's tactician does without a model)."""

    def pick(index: int, state: GameState, legal: list[BattleAction]) -> Chosen | Halt:
        decision = policy.decide(state, legal)
        if decision is None:
            return Halt(f"no legal action at {state.decision_point.value}")
        return Chosen(decision.action, decision.reason)

    return pick
