"""The run summary: what `--summary FILE` and `runs/<run id>/summary.json` hold."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import model_validator

from engine.game.battle import DecisionRecord, Outcome
from engine.game.models import Frozen
from engine.llm.ledger import UsageReport

StopReason = Literal["max_battles", "max_decisions", "interrupted", "error"]
Effectiveness = Literal["super", "not_very", "no_effect"]


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
    the HP bar; None when a different Pokémon was out afterwards), faints (also told by the messages:
    "Enemy GEODUDE fainted!" before ONIX comes out) and status changes; and, from the battle messages
    shown meanwhile (`text`), how each side's move went: effectiveness (None when the game said nothing:
    a plain hit, a status move, or no move) and whether it missed."""

    decision: int
    action: str
    hp_lost_percent: float | None
    enemy_hp_lost_percent: float | None
    fainted: bool = False
    enemy_fainted: bool = False
    status_change: str | None = None
    enemy_status_change: str | None = None
    move: str | None = None  # our move's name when the decision used one, e.g. "BUBBLE"
    text: tuple[str, ...] = ()  # the battle messages up to the next decision (at most 12)
    effectiveness: Effectiveness | None = None  # of our move
    enemy_effectiveness: Effectiveness | None = None  # of the enemy's move
    missed: bool = False  # "SQUIRTLE's attack missed!"
    enemy_missed: bool = False  # "Enemy ONIX's attack missed!"
    pp_used: int | None = None  # PP our move spent; None when unknown (no move, or another one out)


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
    battle_ids: tuple[str, ...] = ()  # the battles' ids in order: battles/<id>.json and <id>.state
    battles: tuple[BattleSummary, ...]
    decisions: int  # every choice a policy made: battle decisions plus overworld steps
    overworld_steps: int
    llm_calls: int
    cost_usd: float
    frames: int
    wall_seconds: float
    llm: UsageReport = UsageReport()  # tokens, cost and fallbacks by tier
    recoveries: int = 0  # rollbacks to a checkpoint after an actor died (decisions.jsonl says which)

    @model_validator(mode="before")
    @classmethod
    def _battle_ids_from_battles(cls, data: Any) -> Any:
        """`battle_ids` need not be given: they are the battles' ids."""
        if isinstance(data, dict) and "battle_ids" not in data:
            ids = [
                battle.battle_id if isinstance(battle, BattleSummary) else battle.get("battle_id")
                for battle in data.get("battles") or ()
                if isinstance(battle, BattleSummary | dict)
            ]
            data = {**data, "battle_ids": ids}
        return data

    @model_validator(mode="after")
    def _battle_ids_match(self) -> RunSummary:
        if self.battle_ids != tuple(battle.battle_id for battle in self.battles):
            raise ValueError("battle_ids must list the battles' ids in order")
        return self
