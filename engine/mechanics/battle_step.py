"""One battle, decision by decision, exactly as every driver plays it: the conductor, replays, rollouts,
the scenario tests and the battle benchmark.

Its emulator calls are the whole contract: `begin_battle` at the first decision, `act` for each decision,
`end_battle` once the free overworld is back. The game draws a random number every VBlank, so any other
call that ran frames, or the same calls in another order, would shift every later hit, miss and damage
roll; drivers that go through this class therefore play the same battle on the same frames.
"""

from __future__ import annotations

from engine.battles.models import BattleLog, DecisionRecord, TrackerState
from engine.battles.tracker import BattleTracker, enemy_side, move_used, our_side
from engine.config import Tier
from engine.game.actions import BattleAction, describe, legal_actions
from engine.game.models import DecisionPoint, GameState
from engine.mechanics.port import EmulatorPort
from engine.messages import BattleEnd, BattleStart


def battle_over(state: GameState) -> bool:
    """The free overworld, and no battle in RAM any more."""
    return state.decision_point is DecisionPoint.OVERWORLD_FREE and state.battle is None


def decision_record(
    state: GameState,
    action: BattleAction,
    reason: str,
    frame: int,
    tier: Tier = "rule_based",
    cost: float = 0.0,
) -> DecisionRecord:
    """One decision as the battle log keeps it: both sides as the player saw them and every option."""
    return DecisionRecord(
        point=state.decision_point, action=describe(action, state), reason=reason, tier=tier, cost_usd=cost,
        frame=frame, options=tuple(describe(option, state) for option in legal_actions(state)),
        ours=our_side(state), enemy=enemy_side(state), move=move_used(action, state),
    )  # fmt: skip


class BattleStep:
    def __init__(
        self, emulator: EmulatorPort, tracker: BattleTracker, run_id: str, start: BattleStart | None
    ) -> None:
        self.emulator = emulator
        self.tracker = tracker
        self.run_id = run_id
        self.start = start  # None for a battle taken back from a checkpoint

    @classmethod
    def begin(
        cls,
        emulator: EmulatorPort,
        battle_id: str,
        run_id: str,
        first_look: GameState,
        *,
        keep_state: bool = False,
    ) -> BattleStep:
        """At the battle's first decision; with `keep_state` the start is saved (for replays)."""
        start = emulator.begin_battle(first_look, keep_state)
        return cls(emulator, BattleTracker(battle_id, start.frame, first_look), run_id, start)

    @classmethod
    def resumed(cls, emulator: EmulatorPort, run_id: str, state: TrackerState) -> BattleStep:
        """A battle in progress as a checkpoint kept it; the emulator is back at that moment too."""
        return cls(emulator, BattleTracker.from_state(state), run_id, None)

    @property
    def battle_id(self) -> str:
        return self.tracker.battle_id

    def play(self, record: DecisionRecord, action: BattleAction) -> DecisionRecord:
        """Carry out `action`, decided as `record` says; the record comes back with the battle's messages."""
        self.tracker.note(record)
        executed = self.emulator.act(action)
        self.tracker.note_text(executed.text)
        return self.tracker.records[-1]

    def end(self) -> BattleEnd:
        """What the emulator saw last of the battle (reads only: a halted drive asks it too)."""
        return self.emulator.end_battle()

    def finish(self, end: BattleEnd | None = None) -> BattleLog:
        """The battle's log, once the free overworld is back."""
        end = end if end is not None else self.end()
        return self.tracker.finish(end.final, end.result, end.frame, self.run_id, end.caught)
