"""`engine run` on Ray: the seven role actors plus the conductor in its own named actor, driven from here.

The driver only starts the actors, waits for the conductor's `run()` (a `RunSummary`) and ends every actor
afterwards. The conductor lives in an actor, not in the driver, so `engine status` in another process can
ask it by name (`<run id>/conductor`) while it plays. Ctrl-C here asks the conductor to stop at the next
cycle boundary, which writes the summary as in-process; a second Ctrl-C (or a conductor that does not
answer in time) gives up waiting and the summary is rebuilt from the run's files.
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
from engine.battles.errors import BattleLogError
from engine.battles.files import read_battle_log
from engine.battles.models import BattleSummary
from engine.config import EngineConfig
from engine.files import write_json_atomic
from engine.layout import RunPaths
from engine.mechanics.role import EmulatorRole
from engine.runtime.decision_log import read_decisions
from engine.runtime.options import RunOptions
from engine.runtime.summary import RunSummary, StopReason

log = logging.getLogger("engine.run")
STOP_GRACE_SECONDS = 30.0  # one cycle (a battle turn, a walk step) is far shorter
POLL_SECONDS = 0.5
RESTART_WAIT_SECONDS = 120.0  # how long a conductor actor Ray is re-creating may take to answer again
RESTART_POLL_SECONDS = 1.0
# Ray forwards the conductor's stderr by polling its log file every 0.1 s: waiting this long after the run
# lets its last lines reach the terminal before the driver's own closing line.
LOG_SETTLE_SECONDS = 0.3


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


def _wait(ref: ray.ObjectRef[Any], timeout: float | None = None) -> RunSummary:
    """Wait in short slices so Ctrl-C is seen promptly whatever ray.get does with signals."""
    deadline = None if timeout is None else time.monotonic() + timeout
    while not ray.wait([ref], timeout=POLL_SECONDS)[0]:
        if deadline is not None and time.monotonic() > deadline:
            raise GetTimeoutError(f"no answer within {timeout:.0f} s")
    summary: RunSummary = resolve(ref, "conductor")
    time.sleep(LOG_SETTLE_SECONDS)
    return summary


def _summary_from_files(
    paths: RunPaths, stopped: StopReason, error: str | None, started: float
) -> RunSummary:
    """Best effort when the conductor cannot write the summary: what its files say was played."""
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
    return RunSummary(
        run_id=paths.run_id,
        game="?",
        stopped=stopped,
        error=error,
        battles=tuple(battles),
        decisions=len(kinds),
        overworld_steps=steps,
        llm_calls=0,
        cost_usd=0.0,
        frames=0,
        wall_seconds=round(time.monotonic() - started, 3),
    )


def _give_up(
    conductor: Any, paths: RunPaths, stopped: StopReason, error: str | None, started: float
) -> RunSummary:
    ray.kill(conductor, no_restart=True)  # it must not write a summary of its own after ours
    summary = _summary_from_files(paths, stopped, error, started)
    write_json_atomic(paths.summary, summary.model_dump(mode="json"))
    return summary


def _run_to_the_end(conductor: Any, restarts: int, asked: list[ray.ObjectRef[Any]]) -> RunSummary:
    """The conductor's run; if its actor dies, Ray re-creates it and it resumes from the latest
    checkpoint, so the run is asked again (up to `restarts` deaths). `asked` gets each run call. While Ray
    is still re-creating the actor (a slow machine, a cold worker) the call is refused at once: that is
    waited out, up to RESTART_WAIT_SECONDS, and is not a death."""
    deaths = 0
    waiting_since: float | None = None
    while True:
        asked.append(conductor.run.remote())
        try:
            return _wait(asked[-1])
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


def play(conductor: Any, paths: RunPaths, restarts: int = 0) -> RunSummary:
    started = time.monotonic()
    asked: list[ray.ObjectRef[Any]] = []
    try:
        return _run_to_the_end(conductor, restarts, asked)
    except RoleDiedError as exc:
        log.error("run failed: %s", exc)
        return _give_up(conductor, paths, "error", str(exc), started)
    except KeyboardInterrupt:
        log.info("interrupted: asking the conductor to stop after this cycle (Ctrl-C again to stop now)")
    try:
        conductor.request_stop.remote()
        return _wait(asked[-1], STOP_GRACE_SECONDS)
    except (KeyboardInterrupt, GetTimeoutError, RoleDiedError):
        log.info("not waiting for the conductor: summary rebuilt from the run's files")
        return _give_up(conductor, paths, "interrupted", None, started)


def run_on_ray(
    config: EngineConfig,
    options: RunOptions,
    paths: RunPaths,
    emulator_factory: EmulatorFactory = EmulatorRole,
    *,
    secrets: Mapping[str, str] | None = None,
) -> RunSummary:
    """Needs a Ray connection (engine.runtime.cluster). Every actor of the run is gone when this returns.
    `secrets` (API keys read from this process's environment) go to the gateway actor as an argument: the
    actor's own environment is the cluster's, not the shell's that launched the run."""
    roles = build_roles(config, options.role_build(paths, secrets), "ray", emulator_factory)
    conductor = None
    try:
        conductor = start_conductor(config, options, paths, roles)
        log.info("actors started in namespace %s: %s/{conductor,%s}", config.runtime.namespace, paths.run_id,
                 ",".join(handle.role for handle in roles.all()))  # fmt: skip
        return play(conductor, paths, config.runtime.max_restarts)
    finally:
        if conductor is not None:
            ray.kill(conductor, no_restart=True)
        close_all(roles)
