"""One battle driven on an emulator exactly as the conductor drives it, by any chooser.

The conductor's battle cycle is: `advance` to the next choice, look (reads RAM only), at the first
decision `begin_battle`, a save state and the opening text taken, choose, (a screenshot, which renders
one frame, when model prompts get the screen), `execute`, take the battle text it showed (reads only).
Replays and rollouts repeat those emulator calls in that order and nothing else, so the game sees the
same inputs on the same frames; any extra frame would shift the game's random numbers (it draws one
every VBlank) and with them every hit, miss and damage roll.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from engine.battles.models import BattleLog, DecisionRecord
from engine.battles.policy import Policy
from engine.battles.tracker import BattleTracker, enemy_side, move_used, our_side
from engine.game.actions import BattleAction, describe, legal_actions
from engine.game.models import DecisionPoint, GameState
from engine.mechanics.role import EmulatorRole

COUNTERFACTUAL_REASON = "counterfactual: the action tried at this decision"


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


def restart_from(emulator: EmulatorRole, state: bytes) -> None:
    """Load a save state so that what follows depends on the state alone."""
    emulator.session.load_state(state)  # forgets the session's call records: the state alone decides


def _battle_over(state: GameState) -> bool:
    """The conductor's test: the free overworld, and no battle in RAM any more."""
    return state.decision_point is DecisionPoint.OVERWORLD_FREE and state.battle is None


def _options(state: GameState, legal: list[BattleAction]) -> tuple[Option, ...]:
    return tuple(Option(label=describe(action, state), move=move_used(action, state)) for action in legal)


@dataclass(frozen=True)
class DriveOptions:
    battle_id: str
    run_id: str
    max_decisions: int = 200
    keep_states: bool = False  # a save state at every decision, for counterfactuals
    screenshots: bool = False  # the conductor renders a frame before acting (llm.screenshots)


def drive_battle(emulator: EmulatorRole, pick: Picker, options: DriveOptions) -> DrivenBattle:
    """From a state inside a battle to its end (or a halt, or the decision cap), choosing with `pick`."""
    state = emulator.advance()
    tracker: BattleTracker | None = None
    steps: list[Step] = []
    halted: str | None = None
    start = emulator.frame_count()
    while not _battle_over(state):
        if tracker is None:
            start = _begin(emulator, state)
            tracker = BattleTracker(options.battle_id, start, state)
        legal = legal_actions(state)
        choice = (
            Halt(f"the cap of {options.max_decisions} decisions was reached")
            if len(steps) >= options.max_decisions
            else pick(len(steps), state, legal)
        )
        if isinstance(choice, Halt):
            halted = choice.reason
            break
        frame = emulator.frame_count()
        tracker.note(_record(state, choice, legal, frame))
        saved = emulator.save_state() if options.keep_states else None
        steps.append(Step(record=tracker.records[-1], frame=frame - start, options=_options(state, legal),
                          state=saved))  # fmt: skip
        if options.screenshots:
            emulator.screenshot()
        emulator.execute(choice.action)
        tracker.note_text(emulator.take_battle_text())
        state = emulator.advance()
    return _driven(emulator, tracker, steps, halted, start, options.run_id)


def _begin(emulator: EmulatorRole, first_look: GameState) -> int:
    """The conductor's battle start; the frame the battle's first decision is on."""
    emulator.begin_battle(first_look)
    emulator.take_battle_text()  # the opening lines come before any decision
    return emulator.frame_count()


def _record(state: GameState, choice: Chosen, legal: list[BattleAction], frame: int) -> DecisionRecord:
    return DecisionRecord(
        point=state.decision_point, action=describe(choice.action, state), reason=choice.reason,
        frame=frame, options=tuple(describe(action, state) for action in legal), ours=our_side(state),
        enemy=enemy_side(state), move=move_used(choice.action, state),
    )  # fmt: skip


def _driven(
    emulator: EmulatorRole,
    tracker: BattleTracker | None,
    steps: list[Step],
    halted: str | None,
    start: int,
    run_id: str,
) -> DrivenBattle:
    final = emulator.last_in_battle()
    if tracker is None:
        halted = "no battle: the state is not inside a battle"
    log = None
    if halted is None and tracker is not None:
        log = tracker.finish(final, emulator.battle_result(), emulator.frame_count(), run_id)
    if tracker is not None:
        # The records as the tracker finally holds them (each with the battle text its action showed).
        steps = [replace(step, record=record) for step, record in zip(steps, tracker.records, strict=True)]
    return DrivenBattle(
        steps=tuple(steps), log=log, halted=halted, final=final, frames=emulator.frame_count() - start
    )


def follow_log(decisions: Sequence[DecisionRecord]) -> Picker:
    """The logged actions in order, found among the legal ones by their labels."""

    def pick(index: int, state: GameState, legal: list[BattleAction]) -> Chosen | Halt:
        point = state.decision_point
        if index >= len(decisions):
            return Halt(f"the log ends after {len(decisions)} decisions; the replay goes on at {point.value}")
        logged = decisions[index]
        if point is not logged.point:
            return Halt(f"decision point: logged {logged.point.value}, replayed {point.value}")
        for action in legal:
            if describe(action, state) == logged.action:
                return Chosen(action, logged.reason)
        offered = ", ".join(describe(action, state) for action in legal) or "none"
        return Halt(f"the logged '{logged.action}' is not legal here (legal: {offered})")

    return pick


def by_policy(policy: Policy) -> Picker:
    """Whatever `policy` chooses (as the conductor's tactician does without a model)."""

    def pick(index: int, state: GameState, legal: list[BattleAction]) -> Chosen | Halt:
        decision = policy.decide(state, legal)
        if decision is None:
            return Halt(f"no legal action at {state.decision_point.value}")
        return Chosen(decision.action, decision.reason)

    return pick


def forced_then(label: str, policy: Policy) -> Picker:
    """`label` at the first decision, then whatever `policy` chooses."""
    then = by_policy(policy)

    def pick(index: int, state: GameState, legal: list[BattleAction]) -> Chosen | Halt:
        if index > 0:
            return then(index, state, legal)
        action = next((a for a in legal if describe(a, state) == label), None)
        if action is None:
            return Halt(f"'{label}' is not legal at {state.decision_point.value}")
        return Chosen(action, COUNTERFACTUAL_REASON)

    return pick
