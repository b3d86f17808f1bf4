"""The run summary: what `--summary FILE` and `runs/<run id>/summary.json` hold."""

from __future__ import annotations

from typing import Literal

from engine.game.battle import DecisionRecord, Outcome
from engine.game.models import Frozen
from engine.llm.ledger import UsageReport

StopReason = Literal["max_battles", "max_decisions", "interrupted", "error"]


class BattleSummary(Frozen):
    battle_id: str
    outcome: Outcome
    battle_type: Literal["wild", "trainer"]
    opponent: str
    turns: int  # choices made at the battle's main menu: one per turn the player took
    decisions: int
    frames: int
    wall_seconds: float


class TurnOutcome(Frozen):
    """What one decision led to, seen at the next decision: HP lost on each side (percentage points of
    the HP bar; None when a different Pokémon was out afterwards), faints and status changes."""

    decision: int
    action: str
    hp_lost_percent: float | None
    enemy_hp_lost_percent: float | None
    fainted: bool = False
    enemy_fainted: bool = False
    status_change: str | None = None
    enemy_status_change: str | None = None


class BattleLog(Frozen):
    """One battle's record under runs/<run id>/battles/, beside its start state (`start_state`, a PyBoy
    save state file in the same folder)."""

    summary: BattleSummary
    run_id: str
    start_frame: int
    decisions: tuple[DecisionRecord, ...]
    turns: tuple[TurnOutcome, ...] = ()
    start_state: str | None = None


class RunSummary(Frozen):
    run_id: str
    game: str
    stopped: StopReason
    error: str | None = None
    battles: tuple[BattleSummary, ...]
    decisions: int  # every choice a policy made: battle decisions plus overworld steps
    overworld_steps: int
    llm_calls: int
    cost_usd: float
    frames: int
    wall_seconds: float
    llm: UsageReport = UsageReport()  # tokens, cost and fallbacks by tier
