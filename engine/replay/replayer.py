"""Replay a logged battle: the logged actions again from its start state, compared with the log; with
counterfactuals, every other legal action tried from every decision's state."""

from __future__ import annotations

import time
from dataclasses import dataclass

from engine.mechanics.battle_driver import DrivenBattle, DriveOptions, drive_battle
from engine.mechanics.role import EmulatorRole
from engine.replay.compare import check_decisions, first_divergence, frames_match
from engine.replay.counterfactuals import assemble, plan
from engine.replay.defaults import DEFAULT_MAX_DECISIONS
from engine.replay.driver import follow_log, restart_from
from engine.replay.errors import ReplayError
from engine.replay.lessons import lessons_from_regrets, measured_lessons
from engine.replay.logs import LoggedBattle
from engine.replay.models import ReplayReport, RolloutRun
from engine.replay.pool import PoolSettings, Progress, no_progress, run_rollouts
from engine.replay.rollouts import RolloutTask


@dataclass(frozen=True)
class ReplayOptions:
    pool: PoolSettings  # the cartridge and emulator settings; the rollout pool for counterfactuals
    counterfactuals: bool = False
    max_rollout_decisions: int = DEFAULT_MAX_DECISIONS
    # The conductor renders a frame before each action when model prompts get the screen
    # (llm.screenshots): a replay must do the same to stay on the logged frames.
    screenshots: bool = False
    max_rollouts: int | None = None  # counterfactuals at the latest decisions only, this many rollouts in all


def replay_log(logged: LoggedBattle, options: ReplayOptions) -> DrivenBattle:
    """The logged actions from the start state on a fresh emulator (keeping each decision's state when
    counterfactuals will need them)."""
    log = logged.log
    pool = options.pool
    emulator = EmulatorRole(pool.rom, pool.emulator, pool.player)
    try:
        restart_from(emulator, logged.start_state)
        drive = DriveOptions(
            battle_id=log.summary.battle_id,
            run_id=log.run_id,
            max_decisions=len(log.decisions) + 1,  # the log's end halts first; this only bounds a bug
            keep_states=options.counterfactuals,
            screenshots=options.screenshots,
        )
        return drive_battle(emulator, follow_log(log.decisions), drive)
    finally:
        emulator.close()


def compare(logged: LoggedBattle, driven: DrivenBattle, wall_seconds: float) -> ReplayReport:
    log = logged.log
    checks = check_decisions(log, driven.steps, driven.halted)
    divergence = first_divergence(log, checks, driven.log, driven.halted)
    summary = log.summary
    return ReplayReport(
        battle_id=summary.battle_id,
        run_id=log.run_id,
        opponent=summary.opponent,
        battle_type=summary.battle_type,
        matches_log=divergence is None,
        logged_outcome=summary.outcome,
        replayed_outcome=driven.log.summary.outcome if driven.log is not None else None,
        logged_decisions=len(log.decisions),
        replayed_decisions=len(driven.steps),
        decisions_compared=min(len(log.decisions), len(driven.steps)),
        first_divergence=divergence,
        frames_match=frames_match(log, checks, driven.log),
        logged_frames=summary.frames,
        replayed_frames=driven.frames,
        wall_seconds=round(wall_seconds, 3),
        decisions=checks,
    )


def _decision_states(driven: DrivenBattle, tasks: list[RolloutTask]) -> dict[int, bytes]:
    states: dict[int, bytes] = {}
    for task in tasks:
        state = driven.steps[task.decision].state
        if state is None:
            raise ReplayError(f"no emulator state was kept at decision {task.decision}")
        states[task.decision] = state
    return states


def with_counterfactuals(
    report: ReplayReport, driven: DrivenBattle, options: ReplayOptions, on_progress: Progress
) -> ReplayReport:
    """The report with every alternative's rollout, the regrets and the lessons they teach."""
    started = time.monotonic()
    tasks = plan(driven.steps, options.max_rollout_decisions, options.screenshots, options.max_rollouts)
    results, workers = run_rollouts(tasks, _decision_states(driven, tasks), options.pool, on_progress)
    entries = assemble(driven.steps, results, report.logged_outcome)
    regrets = tuple(entry for entry in entries if entry.regret)
    run = RolloutRun(
        mode=options.pool.mode,
        workers=workers,
        rollouts=len(results),
        max_decisions=options.max_rollout_decisions,
        wall_seconds=round(time.monotonic() - started, 3),
    )
    return report.model_copy(
        update={
            "rollouts": run,
            "counterfactuals": tuple(entries),
            "regrets": regrets,
            "lessons": (
                *lessons_from_regrets(entries, report.battle_id, report.opponent),
                *measured_lessons(entries, report.battle_id),
            ),
        }
    )


def replay_battle(
    logged: LoggedBattle, options: ReplayOptions, on_progress: Progress = no_progress
) -> ReplayReport:
    started = time.monotonic()
    driven = replay_log(logged, options)
    report = compare(logged, driven, time.monotonic() - started)
    if options.counterfactuals:
        report = with_counterfactuals(report, driven, options, on_progress)
    return report
