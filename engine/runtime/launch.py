"""From parsed `engine run` arguments to a finished run and its exit code.

`--local` runs every role in this process; otherwise the roles are Ray actors, on the cluster at
`--address` (`auto`: the one `ray start --head` started on this machine) or on a private instance started
for this run. Same flags, same files, same summary either way.
"""

from __future__ import annotations

import logging
import os
import time
from pathlib import Path

from engine.config import EngineConfig
from engine.emulator.rom import check_rom_file
from engine.emulator.session import check_state_file
from engine.errors import UserInputError
from engine.files import write_json_atomic
from engine.frozen import Frozen
from engine.harness.levels import LEVEL_WORDS, presses_buttons
from engine.layout import RunPaths, new_run_id
from engine.llm.gateway import describe_tiers, live_tiers, secrets_from
from engine.runtime.logs import attach_run_logs, detach_run_logs
from engine.runtime.options import RunOptions
from engine.runtime.resume import ResumePoint, find_resume_point
from engine.runtime.signals import TRAP, StopRequest, signal_exit_code, signal_of
from engine.runtime.summary import SIGNAL_STOPS, RunSummary, summary_from_files

log = logging.getLogger("engine.run")


class RunRequest(Frozen):
    """What `engine run` was asked to do, checked and typed before anything starts."""

    rom: Path
    state: Path | None = None
    local: bool = False
    address: str | None = None  # None with local False: a private Ray instance for this run
    max_battles: int | None = None
    max_decisions: int | None = None
    until: str | None = None
    watch: tuple[str, int] | None = None
    summary: Path | None = None
    data_dir: Path = Path(".")
    seed: int = 0
    resume: str | None = None


EXIT_OK, EXIT_FAILED, EXIT_INTERRUPTED = 0, 1, 130


def _check_inputs(request: RunRequest, config: EngineConfig) -> None:
    """Refuse bad input before anything is created or emulated: a typo never costs a long run its summary,
    and a rejected cartridge or save state leaves no run folder behind."""
    if request.state is not None and request.resume is not None:
        raise UserInputError("--state and --resume both say where to start: give one of them")
    if request.watch is not None:
        # Checked here, in this process: on Ray the page is served by the conductor actor, where a taken
        # port would only show as the actor failing to start.
        from engine.runtime.live import check_can_listen

        check_can_listen(*request.watch)
    if request.summary is not None and not request.summary.parent.resolve().is_dir():
        folder = request.summary.parent
        raise UserInputError(f"--summary {request.summary}: the folder {folder} does not exist")
    check_rom_file(request.rom)
    if request.state is not None:
        check_state_file(request.rom, request.state, config.emulator)


def exit_code(summary: RunSummary) -> int:
    """0 stopped as asked, 1 failed, 128 + the signal's number when a signal stopped it (130 Ctrl-C)."""
    if summary.stopped == "error":
        return EXIT_FAILED
    if summary.signal is not None:
        return signal_exit_code(summary.signal)
    if summary.stopped == "interrupted":
        return EXIT_INTERRUPTED
    return EXIT_OK


def _play(
    config: EngineConfig, options: RunOptions, paths: RunPaths, local: bool, stop: StopRequest
) -> RunSummary:
    # API keys come only from this process's environment, by the names the model tiers configure.
    secrets = secrets_from(config.models, os.environ)
    log.info("%s", describe_tiers(config.models, secrets))
    log.info("harness: %s (%s)", config.harness.level, LEVEL_WORDS[config.harness.level])
    if local:
        from engine.runtime.local import run_local

        return run_local(config, options, paths, secrets=secrets, stop=stop)
    from engine.runtime.ray_run import run_on_ray

    return run_on_ray(config, options, paths, secrets=secrets, stop=stop)


def _stopped_before_playing(paths: RunPaths, stop: StopRequest, started: float) -> RunSummary:
    """A signal while the run started (Ray coming up, the actors or the emulator being made): nothing was
    played in this process, so the summary is what the run's files say (a resumed run's earlier part)."""
    signal = stop.signal or TRAP.raised or "SIGINT"
    log.info("%s (%s) before the run began playing", SIGNAL_STOPS[signal], signal)
    summary = summary_from_files(paths, SIGNAL_STOPS[signal], None, started, signal)
    write_json_atomic(paths.summary, summary.model_dump(mode="json"))
    return summary


def _run(config: EngineConfig, request: RunRequest, point: ResumePoint | None, stop: StopRequest) -> int:
    if point is not None:
        paths = RunPaths(data_dir=point.data_dir, run_id=point.run_id)
    else:
        paths = RunPaths(data_dir=request.data_dir, run_id=new_run_id())
    paths.create()
    handlers = attach_run_logs(paths.log, config.logging.level)
    try:
        if point is not None:
            for skipped in point.skipped:
                log.warning("checkpoint %s failed verification: using the previous one", skipped)
            log.info("run %s resumes from checkpoint %s (%s, %d decisions)", paths.run_id,
                     point.manifest.name, point.manifest.reason, point.manifest.decisions)  # fmt: skip
        log.info("run %s: data in %s", paths.run_id, paths.run_dir)
        options = RunOptions(
            rom=request.rom,
            state=request.state,
            max_battles=request.max_battles,
            max_decisions=request.max_decisions,
            until=request.until,
            watch=request.watch,
            seed=request.seed,
            screenshots=config.llm.screenshots,
            paced=config.emulator.speed > 0,
            resume=str(point.path) if point is not None else None,
            resume_skipped=point.skipped if point is not None else (),
            checkpoint_every_decisions=config.checkpoint.every_decisions,
            keep_battle_states=config.checkpoint.keep_battle_states,
            max_recoveries=config.runtime.max_recoveries,
            recovery_timeout=config.runtime.recovery_timeout_seconds,
            harness=config.harness,
        )
        started = time.monotonic()
        stop.stage = "starting"
        try:
            # A signal while connecting to Ray was only noted: the run stops before it begins.
            summary = None if stop.signal is not None else _play(config, options, paths, request.local, stop)
        except KeyboardInterrupt as exc:  # stopped while starting (Ray may re-raise it as a plain one)
            stop.ask(signal_of(exc))
            summary = None
        if summary is None:
            summary = _stopped_before_playing(paths, stop, started)
        stop.stage = "stopping"
        if request.summary is not None:
            write_json_atomic(request.summary, summary.model_dump(mode="json"))
        log.info(
            "run %s %s: %d battles, %d decisions, %d frames, %.1f s",
            summary.run_id,
            _ending(summary),
            len(summary.battles),
            summary.decisions,
            summary.frames,
            summary.wall_seconds,
        )
        return exit_code(summary)
    finally:
        detach_run_logs(handlers)


def _ending(summary: RunSummary) -> str:
    if summary.error:
        return "failed"
    return f"stopped by {summary.signal}" if summary.signal is not None else "done"


def _check_harness(config: EngineConfig) -> None:
    """The levels where the model presses the buttons cannot fall back to anything but a no-op: without a
    model they would only wait, so they do not start."""
    level = config.harness.level
    if presses_buttons(level) and not live_tiers(config.models, secrets_from(config.models, os.environ)):
        raise UserInputError(
            f"harness level {level} needs a model to press the buttons: set the key its models.acting "
            "tier names (ANTHROPIC_API_KEY by default), or point models.acting at a local server"
        )


def run_engine(config: EngineConfig, request: RunRequest) -> int:
    _check_inputs(request, config)
    _check_harness(config)
    # Chosen and checked before Ray starts: a wrong cartridge or a broken checkpoint costs one line.
    point = None
    if request.resume is not None:
        point = find_resume_point(request.resume, request.data_dir, request.rom, config)
    # From here a signal stops the run cleanly (engine.runtime.signals); before, it is one line.
    with TRAP.running(StopRequest(), config.runtime.stop_grace_seconds) as stop:
        if request.local:
            return _run(config, request, point, stop)
        from engine.runtime.cluster import ray_connection

        stop.stage = "connecting"
        # Connected before the run's folder exists: a wrong --address leaves nothing behind.
        with ray_connection(request.address, config.runtime.namespace):
            return _run(config, request, point, stop)
