"""`engine run` on Ray: the seven role actors plus the conductor in its own named actor, driven from here.

The driver only starts the actors, waits for the conductor's `run()` (a `RunSummary`) and ends every actor
afterwards. The conductor lives in an actor, not in the driver, so `engine status` in another process can
ask it by name (`<run id>/conductor`) while it plays. A signal here (Ctrl-C, SIGTERM, SIGHUP: see
engine.runtime.signals) asks the conductor to stop at the next cycle boundary, which writes the final
checkpoint and the summary as in-process; a second signal, or a cycle still running after the grace,
gives up waiting: the conductor is ended, the newest checkpoint stays the one to resume, and the summary
is rebuilt from the run's files.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from typing import Any

import ray
from ray.exceptions import GetTimeoutError

from engine.actors.errors import RoleDiedError
from engine.actors.factory import EmulatorFactory, actor_name, build_roles
from engine.actors.ray_handles import close_all, resolve
from engine.actors.roles import Roles
from engine.config import EngineConfig
from engine.files import write_json_atomic
from engine.layout import RunPaths
from engine.mechanics.role import EmulatorRole
from engine.runtime.options import RunOptions
from engine.runtime.signals import SignalName, StopRequest, StopSignal, signal_of, trapped
from engine.runtime.summary import SIGNAL_STOPS, RunSummary, StopReason, summary_from_files

log = logging.getLogger("engine.run")
STOP_GRACE_SECONDS = 30.0  # without a signal trap (Python's own Ctrl-C): one cycle is far shorter
# Once the conductor is past its last cycle it writes the final checkpoint and the summary: seconds.
STOP_WRITE_SECONDS = 30.0
PHASE_SECONDS = 5.0  # the conductor answers `phase` from a thread of its own
ENDING_PHASES = ("stopping", "stopped", "failed")
POLL_SECONDS = 0.5
RESTART_WAIT_SECONDS = 120.0  # how long a conductor actor Ray is re-creating may take to answer again
RESTART_POLL_SECONDS = 1.0
# Ray forwards the conductor's stderr by polling its log file every 0.1 s: waiting this long after the run
# lets its last lines reach the terminal before the driver's own closing line.
LOG_SETTLE_SECONDS = 0.3
# After a stop signal the process has seconds left (SIGKILL follows SIGTERM by ~10 s under docker and
# systemd): idle actors shut down in milliseconds, a busy one (an abandoned cycle) is killed sooner.
STOPPED_SHUTDOWN_SECONDS = 3.0


def start_conductor(config: EngineConfig, options: RunOptions, paths: RunPaths, roles: Roles) -> Any:
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    from engine.runtime.conductor_actor import ConductorActor

    # It writes the run's files under --data-dir on this machine: keep it here.
    here = NodeAffinitySchedulingStrategy(ray.get_runtime_context().get_node_id(), soft=False)
    # Restartable like the roles: a re-created conductor resumes from the run's latest checkpoint.
    conductor: Any = ConductorActor  # Ray's stubs type the decorated class as the class itself
    return conductor.options(
        name=actor_name(paths.run_id, "conductor"),
        namespace=config.runtime.namespace,
        scheduling_strategy=here,
        max_restarts=config.runtime.max_restarts,
        max_task_retries=0,
    ).remote(roles, options, paths, config.logging, config.telemetry)


class _Waiting:
    """What the driver does while it waits for the conductor: pass a stop asked by a signal on to it, and
    note when the conductor is past its last cycle (the grace then no longer runs: it is writing its
    checkpoint and summary, which may take up to STOP_WRITE_SECONDS)."""

    def __init__(self, conductor: Any, stop: StopRequest) -> None:
        self.conductor = conductor
        self.stop = stop
        self.told = False
        self.writing_since = 0.0

    def poll(self) -> None:
        signal = self.stop.signal
        if signal is None:
            return
        if not self.told:
            self.conductor.request_stop.remote(signal)
            self.told = True
        elif self.stop.stage == "running" and _phase(self.conductor) in ENDING_PHASES:
            self.stop.stage = "stopping"
            self.writing_since = time.monotonic()
        elif self.stop.stage == "stopping" and time.monotonic() - self.writing_since > STOP_WRITE_SECONDS:
            raise StopSignal(signal)


def _phase(conductor: Any) -> str:
    try:
        return str(ray.get(conductor.phase.remote(), timeout=PHASE_SECONDS))
    except Exception:  # it will tell next time, or the grace runs out
        return "running"


def _wait(
    ref: ray.ObjectRef[Any], timeout: float | None = None, waiting: _Waiting | None = None
) -> RunSummary:
    """Wait in short slices so a signal is seen promptly whatever ray.get does with signals."""
    deadline = None if timeout is None else time.monotonic() + timeout
    while not ray.wait([ref], timeout=POLL_SECONDS)[0]:
        if deadline is not None and time.monotonic() > deadline:
            raise GetTimeoutError(f"no answer within {timeout:.0f} s")
        if waiting is not None:
            waiting.poll()
    summary: RunSummary = resolve(ref, "conductor")
    time.sleep(LOG_SETTLE_SECONDS)
    return summary


def _give_up(
    conductor: Any,
    paths: RunPaths,
    stopped: StopReason,
    error: str | None,
    started: float,
    signal: SignalName | None = None,
) -> RunSummary:
    ray.kill(conductor, no_restart=True)  # it must not write a summary of its own after ours
    summary = summary_from_files(paths, stopped, error, started, signal)
    write_json_atomic(paths.summary, summary.model_dump(mode="json"))
    return summary


def _run_to_the_end(
    conductor: Any, restarts: int, asked: list[ray.ObjectRef[Any]], stop: StopRequest
) -> RunSummary:
    """The conductor's run; if its actor dies, Ray re-creates it and it resumes from the latest
    checkpoint, so the run is asked again (up to `restarts` deaths). `asked` gets each run call. While Ray
    is still re-creating the actor (a slow machine, a cold worker) the call is refused at once: that is
    waited out, up to RESTART_WAIT_SECONDS, and is not a death."""
    deaths = 0
    waiting_since: float | None = None
    while True:
        asked.append(conductor.run.remote())
        try:
            # A conductor re-created after a death is told about a stop asked before it again.
            return _wait(asked[-1], waiting=_Waiting(conductor, stop))
        except RoleDiedError as exc:
            if _still_restarting(exc):
                waiting_since = waiting_since if waiting_since is not None else time.monotonic()
                if time.monotonic() - waiting_since > RESTART_WAIT_SECONDS:
                    raise
                time.sleep(RESTART_POLL_SECONDS)
                continue
            waiting_since = None
            if deaths == restarts:
                raise
            deaths += 1
            log.error("%s: it resumes from the run's latest checkpoint once restarted", exc)


def _still_restarting(exc: RoleDiedError) -> bool:
    return "is restarting" in str(exc)


def play(conductor: Any, paths: RunPaths, restarts: int = 0, stop: StopRequest | None = None) -> RunSummary:
    """The conductor's run to its end. `stop` is the run's, given signals by the trap; without one (a
    caller on another thread, a test) Python's own Ctrl-C asks the conductor to stop; a second gives up."""
    started = time.monotonic()
    stop = stop or StopRequest()
    stop.stage = "running"
    asked: list[ray.ObjectRef[Any]] = []
    try:
        return _run_to_the_end(conductor, restarts, asked, stop)
    except RoleDiedError as exc:
        log.error("run failed: %s", exc)
        return _give_up(conductor, paths, "error", str(exc), started)
    except KeyboardInterrupt as exc:
        if trapped(exc):  # a second signal, or the cycle still running after the grace
            log.info("not waiting for the conductor: summary rebuilt from the run's files")
            signal = signal_of(exc)
            return _give_up(conductor, paths, SIGNAL_STOPS[signal], None, started, signal)
        log.info("interrupted: asking the conductor to stop after this cycle (Ctrl-C again to stop now)")
        return _stop_after_ctrl_c(conductor, paths, asked[-1], started)
    finally:
        stop.stage = "stopping"


def _stop_after_ctrl_c(
    conductor: Any, paths: RunPaths, ref: ray.ObjectRef[Any], started: float
) -> RunSummary:
    try:
        conductor.request_stop.remote("SIGINT")
        return _wait(ref, STOP_GRACE_SECONDS)
    except (KeyboardInterrupt, GetTimeoutError, RoleDiedError):
        log.info("not waiting for the conductor: summary rebuilt from the run's files")
        return _give_up(conductor, paths, "interrupted", None, started, "SIGINT")


def run_on_ray(
    config: EngineConfig,
    options: RunOptions,
    paths: RunPaths,
    emulator_factory: EmulatorFactory = EmulatorRole,
    *,
    secrets: Mapping[str, str] | None = None,
    stop: StopRequest | None = None,
) -> RunSummary:
    """Needs a Ray connection (engine.runtime.cluster). Every actor of the run is gone when this returns.
    `secrets` (API keys read from this process's environment) go to the gateway actor as an argument: the
    actor's own environment is the cluster's, not the shell's that launched the run. `stop`: the run's
    stop request, which the signal trap fills (engine.runtime.signals)."""
    roles = build_roles(config, options.role_build(paths, secrets, config), "ray", emulator_factory)
    conductor = None
    try:
        conductor = start_conductor(config, options, paths, roles)
        log.info("actors started in namespace %s: %s/{conductor,%s}", config.runtime.namespace, paths.run_id,
                 ",".join(handle.role for handle in roles.all()))  # fmt: skip
        return play(conductor, paths, config.runtime.max_restarts, stop)
    finally:
        if conductor is not None:
            ray.kill(conductor, no_restart=True)
        if stop is not None and stop.signal is not None:
            close_all(roles, STOPPED_SHUTDOWN_SECONDS)
        else:
            close_all(roles)
