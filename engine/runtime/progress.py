"""The run's counters, as the conductor updates them while it plays, and what a checkpoint keeps of the
conductor: together with the roles' snapshots, everything a run needs to carry on from that moment."""

from __future__ import annotations

import time

from pydantic import BaseModel, ConfigDict, Field

from engine.battles.models import BattleSummary, TrackerState
from engine.messages import Directive
from engine.runtime.milestones import Split

PROGRESS_VERSION = 2


class RunProgress(BaseModel):
    # Not frozen: the conductor's live counters. A checkpoint takes a copy (`at_boundary`).
    model_config = ConfigDict(extra="forbid")

    version: int = PROGRESS_VERSION
    battles: list[BattleSummary] = Field(default_factory=list)
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

    def at_boundary(self, battle: TrackerState | None, played_seconds: float) -> RunProgress:
        """A copy as a checkpoint keeps it; cheap enough to take at every cycle boundary (battle summaries
        and the directive are frozen, so the lists are copied, not their items)."""
        return self.model_copy(update={"battles": list(self.battles), "battle": battle,
                                       "milestones": list(self.milestones),
                                       "played_seconds": round(played_seconds, 3)})  # fmt: skip


class PlayTime:
    """Wall seconds this run has played, over every process that ran it."""

    def __init__(self, before: float = 0.0) -> None:
        self.before = before
        self.started = time.monotonic()

    def seconds(self) -> float:
        return self.before + time.monotonic() - self.started
