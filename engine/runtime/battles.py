"""Follows one battle from its first decision to the free overworld afterwards."""

from __future__ import annotations

import time

from engine.game.battle import BattleError, DecisionRecord, battle_outcome, opponent_name
from engine.game.models import DecisionPoint, GameState
from engine.runtime.summary import BattleLog, BattleSummary


class BattleTracker:
    def __init__(self, battle_id: str, start_frame: int, first_look: GameState) -> None:
        if first_look.battle is None:
            raise BattleError("a battle tracker needs a state inside a battle")
        self.battle_id = battle_id
        self.start_frame = start_frame
        self.started = time.monotonic()
        self.battle_type = first_look.battle.kind
        self.opponent = opponent_name(first_look.battle)
        self.records: list[DecisionRecord] = []

    @property
    def turns(self) -> int:
        return sum(record.point is DecisionPoint.BATTLE_MAIN_MENU for record in self.records)

    def note(self, record: DecisionRecord) -> None:
        self.records.append(record)

    def finish(self, final: GameState | None, battle_result: int, end_frame: int, run_id: str) -> BattleLog:
        """`final` is the last look inside the battle; `battle_result` is wBattleResult afterwards."""
        if final is None or final.battle is None:
            raise BattleError(f"{self.battle_id} ended without a last look at the battle")
        summary = BattleSummary(
            battle_id=self.battle_id,
            outcome=battle_outcome(final, battle_result),
            battle_type=self.battle_type,
            opponent=self.opponent,
            turns=self.turns,
            decisions=len(self.records),
            frames=end_frame - self.start_frame,
            wall_seconds=round(time.monotonic() - self.started, 3),
        )
        return BattleLog(
            summary=summary, run_id=run_id, start_frame=self.start_frame, decisions=tuple(self.records)
        )
