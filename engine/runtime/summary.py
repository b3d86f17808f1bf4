"""The run summary: what `--summary FILE` and `runs/<run id>/summary.json` hold."""

from __future__ import annotations

import logging
import time
from typing import Any, Literal

from pydantic import model_validator

from engine.battles.errors import BattleLogError
from engine.battles.files import read_battle_log
from engine.battles.models import BattleSummary
from engine.checkpoints.models import Manifest
from engine.checkpoints.store import CheckpointStore
from engine.config import HarnessLevel
from engine.frozen import Frozen
from engine.layout import RunPaths
from engine.llm.ledger import UsageReport
from engine.runtime.decision_log import read_decisions
from engine.runtime.milestones import Split
from engine.runtime.run_start import RunStart
from engine.runtime.signals import SignalName

log = logging.getLogger("engine.run")

StopReason = Literal[
    "max_battles",
    "max_decisions",
    "until",
    "story_done",
    "interrupted",
    "terminated",
    "hangup",
    "error",
    "model_failing",
    "stalled",
    "budget",  # the run's wall-time budget (engine arena --budget) ran out
]
# A run stopped by a signal: Ctrl-C (SIGINT), `kill`/docker/systemd (SIGTERM), a closed terminal (SIGHUP).
SIGNAL_STOPS: dict[SignalName, StopReason] = {
    "SIGINT": "interrupted",
    "SIGTERM": "terminated",
    "SIGHUP": "hangup",
}


class RunSummary(Frozen):
    run_id: str
    game: str
    stopped: StopReason
    error: str | None = None
    signal: SignalName | None = None  # the signal that stopped it (stopped: interrupted, terminated, hangup)
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
    harness: HarnessLevel = "engine"  # how much the models decided (docs/harness.md)
    # Decisions the rule-based tier made because a model failed (decisions level), or steps that were
    # no-ops for want of a valid answer (buttons and vision levels).
    harness_fallbacks: int = 0
    # The cartridge and the start: splits compare a run only with runs of the same (None: not known).
    rom_sha256: str | None = None
    start: RunStart | None = None

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


def summary_from_files(
    paths: RunPaths, stopped: StopReason, error: str | None, started: float, signal: SignalName | None = None
) -> RunSummary:
    """Best effort when the conductor cannot write the summary (it was given up on, or never started):
    what the run's files say was played."""
    battles: list[BattleSummary] = []
    for path in sorted(paths.battles.glob("*.json")):
        if ".rolled-back-" in path.name:
            continue  # the first playing of a battle played again after a rollback
        try:
            battles.append(read_battle_log(path).summary)
        except BattleLogError as exc:  # a log cut short by the crash being summed up: skip it
            log.warning(
                "battle log %s unreadable, left out of the summary (%s)", path.name, exc.__class__.__name__
            )
    entries = [entry for entry in read_decisions(paths.decisions) if not entry.get("rolled_back")]
    kinds = [entry.get("kind") for entry in entries if entry.get("kind") in ("battle", "overworld")]
    steps = sum(int(entry.get("steps", 0)) for entry in entries if entry.get("kind") == "overworld")
    newest = _newest_intact(paths)  # what a resume would start from: its frames are the run's, kept
    return RunSummary(
        run_id=paths.run_id,
        game=newest.game if newest is not None else "?",
        stopped=stopped,
        error=error,
        signal=signal,
        battles=tuple(battles),
        decisions=len(kinds),
        overworld_steps=steps,
        llm_calls=0,
        cost_usd=0.0,
        frames=newest.frames if newest is not None else 0,
        wall_seconds=round(time.monotonic() - started, 3),
    )


def _newest_intact(paths: RunPaths) -> Manifest | None:
    for entry in CheckpointStore(paths.checkpoints).entries(paths.run_id):
        if entry.ok and entry.manifest is not None:
            return entry.manifest
    return None
