"""The conductor's own part of a checkpoint: the run's counters, the battle in progress, the standing
directive. Together with the roles' snapshots it is everything a run needs to carry on from that moment."""

from __future__ import annotations

from engine.battles.models import BattleSummary, TrackerState
from engine.frozen import Frozen
from engine.messages import Directive

CONDUCTOR_STATE_VERSION = 1


class ConductorState(Frozen):
    version: int = CONDUCTOR_STATE_VERSION
    battles: tuple[BattleSummary, ...]
    decisions: int
    steps: int
    tracker: TrackerState | None
    directive: Directive | None
    last_map: int | None
    where: str
    in_battle: bool
    frames_on_clock: int  # emulated frames already added to the play clock
    played_seconds: float  # wall time of the run before this moment, over every process that ran it
