"""The run summary: what `--summary FILE` and `runs/<run id>/summary.json` hold."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import model_validator

from engine.battles.models import BattleSummary
from engine.frozen import Frozen
from engine.llm.ledger import UsageReport
from engine.runtime.milestones import Split

StopReason = Literal["max_battles", "max_decisions", "until", "interrupted", "error"]


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
    milestones: tuple[Split, ...] = ()  # story objectives reached, with their splits, in order

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
