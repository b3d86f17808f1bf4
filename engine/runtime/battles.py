"""Follows one battle from its first decision to the free overworld afterwards."""

from __future__ import annotations

import time

from engine.game.battle import BattleError, DecisionRecord, SideView, battle_outcome, opponent_name
from engine.game.models import BattleMon, DecisionPoint, GameState
from engine.runtime.summary import BattleLog, BattleSummary, TurnOutcome
from engine.tactician.rule_based import hp_bar_fraction


def _side(mon: BattleMon | None, exact: bool) -> SideView | None:
    if mon is None:
        return None
    return SideView(
        species=mon.species_name or "?",
        level=mon.level,
        hp=mon.hp if exact else None,
        max_hp=mon.max_hp if exact else None,
        hp_percent=round(
            100 * (mon.hp / max(1, mon.max_hp) if exact else hp_bar_fraction(mon.hp, mon.max_hp)), 1
        ),
        status=str(mon.status),
    )


def our_side(state: GameState) -> SideView | None:
    return _side(state.battle.player if state.battle else None, exact=True)


def enemy_side(state: GameState) -> SideView | None:
    """As the player sees it: the HP bar, not the HP number."""
    return _side(state.battle.enemy if state.battle else None, exact=False)


def _change(before: SideView | None, after: SideView | None) -> tuple[float | None, bool, str | None]:
    """(HP percentage points lost, fainted, status change) of one side across one decision, when the same
    Pokémon is out before and after (a switch or a new enemy makes the difference meaningless)."""
    if before is None or after is None or before.species != after.species:
        return None, False, None
    status = f"{before.status}->{after.status}" if before.status != after.status else None
    return (
        round(before.hp_percent - after.hp_percent, 1),
        before.hp_percent > 0 and after.hp_percent == 0,
        status,
    )


def turn_outcomes(records: list[DecisionRecord], final: GameState) -> tuple[TurnOutcome, ...]:
    """What each decision led to, from the visible state at the next decision (or the battle's last look)."""
    afters = [(r.ours, r.enemy) for r in records[1:]] + [(our_side(final), enemy_side(final))]
    outcomes = []
    for index, (record, (ours_after, enemy_after)) in enumerate(zip(records, afters, strict=True)):
        taken, our_faint, our_status = _change(record.ours, ours_after)
        dealt, enemy_faint, enemy_status = _change(record.enemy, enemy_after)
        outcomes.append(
            TurnOutcome(
                decision=index,
                action=record.action,
                hp_lost_percent=taken,
                enemy_hp_lost_percent=dealt,
                fainted=our_faint,
                enemy_fainted=enemy_faint,
                status_change=our_status,
                enemy_status_change=enemy_status,
            )
        )
    return tuple(outcomes)


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
            summary=summary,
            run_id=run_id,
            start_frame=self.start_frame,
            decisions=tuple(self.records),
            turns=turn_outcomes(self.records, final),
            start_state=f"{self.battle_id}.state",
        )
