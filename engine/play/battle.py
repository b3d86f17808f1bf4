"""A battle played by the agent, decision by decision, through the same closed loop every driver uses
(engine/mechanics/battle_step.py): `advance` to the game's next question, `begin_battle` at the first
one, `act` for each choice (buttons pressed, RAM checked, messages read), the log once it is over."""

from __future__ import annotations

from engine.game.actions import BattleAction, describe, legal_actions
from engine.game.models import GameState
from engine.mechanics.battle_step import BattleStep, battle_over, decision_record
from engine.mechanics.role import EmulatorRole
from engine.play.errors import PlayError
from engine.play.looking import battle_view
from engine.play.models import BattleTurn, Option

AGENT_REASON = "chosen by the agent"


class BattleTurns:
    """The battle in progress: the decision waiting for an answer, and the messages not yet shown."""

    def __init__(self, role: EmulatorRole) -> None:
        self.role = role
        self.step: BattleStep | None = None
        self.decision: GameState | None = None
        self.text: list[str] = []
        self.battles = 0

    def forget(self) -> None:
        """The game moved on without this class (buttons pressed, a state loaded, a walk that fought):
        the next look starts from what the game shows then."""
        self.step, self.decision, self.text = None, None, []

    def turn(self) -> BattleTurn:
        """The decision the battle waits at, with its legal actions (the game is run to it first)."""
        state = self._reach()
        return self._finish() if state is None else self._waiting(state)

    def act(self, action_id: int) -> BattleTurn:
        """Carry out legal action `action_id` of the waiting decision, then run to the next one (or the
        battle's end)."""
        state = self._reach()
        if state is None:
            return self._finish()
        assert self.step is not None
        action = _chosen(legal_actions(state), action_id, state)
        record = decision_record(state, action, AGENT_REASON, self.role.frame_count())
        self.decision = None
        played = self.step.play(record, action)
        self.text.extend(played.text)
        return self.turn()

    def _reach(self) -> GameState | None:
        """The decision waiting for an answer: run to it if need be. None once the battle is over."""
        if self.decision is not None:
            return self.decision
        if self.step is None and not self.role.in_battle():
            raise PlayError("not in a battle: legal_actions and act are for battles")
        state = self.role.advance()
        if battle_over(state):
            return None
        if self.step is None:
            self.battles += 1
            self.step = BattleStep.begin(self.role, f"play-{self.battles:03d}", "play", state)
            assert self.step.start is not None
            self.text.extend(self.step.start.opening_text)
        self.decision = state
        return state

    def _waiting(self, state: GameState) -> BattleTurn:
        legal = legal_actions(state)
        options = tuple(
            Option(id=i, label=describe(action, state), kind=action.kind) for i, action in enumerate(legal)
        )
        text, self.text = tuple(self.text), []
        battle = battle_view(state.battle) if state.battle is not None else None
        return BattleTurn(over=False, outcome=None, waiting_for=state.decision_point.value, options=options,
                          text=text, battle=battle)  # fmt: skip

    def _finish(self) -> BattleTurn:
        outcome = "over"
        if self.step is not None:
            outcome = self.step.finish().summary.outcome
        text = tuple(self.text)
        self.forget()
        return BattleTurn(over=True, outcome=outcome, waiting_for="overworld_free", options=(), text=text,
                          battle=None)  # fmt: skip


def _chosen(legal: list[BattleAction], action_id: int, state: GameState) -> BattleAction:
    if 0 <= action_id < len(legal):
        return legal[action_id]
    if not legal:
        raise PlayError(f"nothing to choose at {state.decision_point.value}")
    offered = "; ".join(f"{i}: {describe(action, state)}" for i, action in enumerate(legal))
    raise PlayError(f"no legal action {action_id} (choose one of {offered})")
