"""The run's counters, as the conductor updates them while it plays, and what a checkpoint keeps of the
conductor: together with the roles' snapshots, everything a run needs to carry on from that moment."""

from __future__ import annotations

import time
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, model_validator

from engine.battles.models import BattleSummary, TrackerState
from engine.messages import Directive
from engine.runtime.milestones import Split
from engine.runtime.run_start import RunStart

PROGRESS_VERSION = 3
RECENT_BATTLES = 20  # summaries kept in memory and in checkpoints; the rest are in battles.jsonl


class RunProgress(BaseModel):
    # Not frozen: the conductor's live counters. A checkpoint takes a copy (`at_boundary`).
    model_config = ConfigDict(extra="forbid")

    version: int = PROGRESS_VERSION
    battles_ended: int = 0  # battles.jsonl's first this many lines count (a rollback cuts the rest)
    recent_battles: list[BattleSummary] = Field(default_factory=list)  # the last RECENT_BATTLES of them
    decisions: int = 0
    steps: int = 0
    battle: TrackerState | None = None  # the battle in progress, as the copy for a checkpoint holds it
    directive: Directive | None = None
    last_map: int | None = None
    where: str = "starting"
    in_battle: bool = False
    frames_on_clock: int = 0  # emulated frames already added to the play clock
    played_seconds: float = 0.0  # wall time of the run over every process that ran it, at the copy
    milestones: list[Split] = Field(default_factory=list)  # story objectives reached, in order
    harness_fallbacks: int = 0  # a model failed: the rule-based tier decided, or the step was a no-op
    start: RunStart | None = None  # power-on or the --state it began from (None: an older checkpoint's)

    # Checkpoints of version 2 listed every battle: read as the count and the last few, the whole list
    # kept aside (not written again) for battles.jsonl, which those runs did not have.
    _listed_battles: list[BattleSummary] = PrivateAttr(default_factory=list)

    @model_validator(mode="wrap")
    @classmethod
    def _from_version_2(cls, data: Any, handler: Any) -> Any:
        listed: list[Any] = []
        if isinstance(data, dict) and "battles" in data:
            listed = list(data["battles"] or [])
            data = {key: value for key, value in data.items() if key != "battles"}
            data.update(version=PROGRESS_VERSION, battles_ended=len(listed),
                        recent_battles=listed[-RECENT_BATTLES:])  # fmt: skip
        progress = handler(data)
        if listed:
            progress._listed_battles = [BattleSummary.model_validate(item) for item in listed]
        return progress

    @property
    def listed_battles(self) -> list[BattleSummary]:
        """Every battle, as a version 2 checkpoint listed them (empty for later versions)."""
        return self._listed_battles

    def battle_ended(self, summary: BattleSummary) -> None:
        self.battles_ended += 1
        self.recent_battles = [*self.recent_battles[-(RECENT_BATTLES - 1) :], summary]

    def at_boundary(self, battle: TrackerState | None, played_seconds: float) -> RunProgress:
        """A copy as a checkpoint keeps it; cheap enough to take at every cycle boundary, and as small at
        the thousandth battle as at the first (battle summaries and the directive are frozen, so the lists
        are copied, not their items)."""
        return self.model_copy(update={"recent_battles": list(self.recent_battles), "battle": battle,
                                       "milestones": list(self.milestones),
                                       "played_seconds": round(played_seconds, 3)})  # fmt: skip


class PlayTime:
    """Wall seconds this run has played, over every process that ran it."""

    def __init__(self, before: float = 0.0) -> None:
        self.before = before
        self.started = time.monotonic()

    def seconds(self) -> float:
        return self.before + time.monotonic() - self.started
