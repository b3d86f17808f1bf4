"""The one place that decides local vs Ray: the same role classes, as plain objects or inside actor shells.

On Ray every role is a named actor, `<run id>/<role>` in the configured namespace, so another process
(`engine status`, the dashboard) can find the run's structure by name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from pathlib import Path
from typing import Any, Literal

from engine.actors.handles import LocalHandle, RoleHandle
from engine.checkpoints.store import CheckpointStore
from engine.config import (
    CheckpointConfig,
    EmulatorConfig,
    EngineConfig,
    LLMConfig,
    ModelsConfig,
    PlayerConfig,
    config_hash,
)
from engine.emulator.role import EmulatorRole
from engine.emulator.rom import Game
from engine.llm.gateway import ModelGateway
from engine.memory.service import LessonMemory
from engine.observer.journey import Observer
from engine.reflection.inbox import Reflection
from engine.resilience.checkpointer import Checkpointer
from engine.runtime.conductor import Roles, RunOptions
from engine.runtime.layout import RunPaths
from engine.strategist.strategist import Strategist
from engine.tactician.tactician import Tactician
from engine.telemetry.metrics import RunMetrics
from engine.vision.perceiver import Vision

Mode = Literal["local", "ray"]
CHECKPOINT_SOURCES = ("emulator", "observer", "strategist", "tactician", "gateway", "memory")
ROLE_NAMES = (
    "emulator", "vision", "observer", "strategist", "tactician", "reflection", "checkpoint", "gateway",
    "memory",
)  # fmt: skip
# Anything built like EmulatorRole(rom, emulator config, player config) with its verbs: tests inject fakes.
EmulatorFactory = Callable[[Path, EmulatorConfig, PlayerConfig], Any]


def actor_name(run_id: str, role: str) -> str:
    return f"{run_id}/{role}"


def _builders(
    config: EngineConfig,
    options: RunOptions,
    run_id: str,
    game: Game,
    services: Mapping[str, RoleHandle],
) -> dict[str, Callable[[], object]]:
    """The roles after the emulator and the services, as zero-argument constructors (Vision needs the game
    the emulator found in the cartridge header; the deciding roles reach models through the gateway and
    lessons through memory)."""
    routing = config.routing
    gateway, memory = services["gateway"], services["memory"]
    return {
        "vision": partial(Vision, game),
        "observer": Observer,
        "strategist": partial(Strategist, routing, gateway, memory),
        "tactician": partial(Tactician, options.seed, routing, gateway, memory),
        "reflection": partial(Reflection, routing, gateway, memory),
    }


def _checkpoint_builder(
    config: EngineConfig, run_id: str, paths: RunPaths | None, sources: Mapping[str, RoleHandle]
) -> Callable[[], Checkpointer]:
    """The Checkpoint role pulls snapshots from (and pushes them back to) the roles it is given."""
    root = paths.checkpoints if paths is not None else None
    wanted = {role: sources[role] for role in CHECKPOINT_SOURCES}
    return partial(_checkpointer, config.checkpoint, run_id, config_hash(config), root, wanted)


def _checkpointer(
    config: CheckpointConfig, run_id: str, digest: str, root: Path | None, sources: Mapping[str, RoleHandle]
) -> Checkpointer:
    # Its metrics are made where it runs: Ray's metric objects belong to the process that records them.
    # Without a data directory (tests of the wiring) nothing is kept, as with lessons.
    store = CheckpointStore(root, keep=config.keep) if root is not None else None
    return Checkpointer(config, run_id, digest, store, sources, metrics=RunMetrics(run_id))


def _gateway_builder(
    config: EngineConfig, run_id: str, paths: RunPaths | None, secrets: Mapping[str, str]
) -> Callable[[], ModelGateway]:
    log_path = paths.llm_log if paths is not None else None
    return partial(_gateway, config.models, config.llm, dict(secrets), log_path, run_id)


def _gateway(
    models: ModelsConfig, llm: LLMConfig, secrets: dict[str, str], log_path: Path | None, run_id: str
) -> ModelGateway:
    return ModelGateway(models, llm, secrets, log_path=log_path, metrics=RunMetrics(run_id))


def build_roles(
    config: EngineConfig,
    options: RunOptions,
    run_id: str,
    mode: Mode,
    emulator_factory: EmulatorFactory = EmulatorRole,
    *,
    paths: RunPaths | None = None,
    secrets: Mapping[str, str] | None = None,
) -> Roles:
    """The seven roles and the model gateway, ready: on Ray each actor has answered once, so a role that
    cannot start (a bad ROM) raises its typed error here, before any run begins. On Ray, the caller must
    have connected. `secrets` are the API keys the model tiers name (none: every decision is rule-based);
    `paths` gives the gateway its call log."""
    make_emulator = partial(emulator_factory, options.rom, config.emulator, config.player)
    make_gateway = _gateway_builder(config, run_id, paths, secrets or {})
    # Without a data directory (tests of the wiring) nothing is remembered.
    make_memory = partial(LessonMemory, config.memory, paths.memory if paths is not None else None)
    if mode == "local":
        emulator = make_emulator()
        local: dict[str, RoleHandle] = {"emulator": LocalHandle("emulator", emulator)}
        local["gateway"] = LocalHandle("gateway", make_gateway())
        local["memory"] = LocalHandle("memory", make_memory())
        builders = _builders(config, options, run_id, Game(emulator.game_name()), local)
        local |= {role: LocalHandle(role, build()) for role, build in builders.items()}
        local["checkpoint"] = LocalHandle("checkpoint", _checkpoint_builder(config, run_id, paths, local)())
        return Roles(**local)
    return _ray_roles(
        config, options, run_id, make_emulator, {"gateway": make_gateway, "memory": make_memory}, paths
    )


def _ray_roles(
    config: EngineConfig,
    options: RunOptions,
    run_id: str,
    make_emulator: Callable[[], object],
    make_services: Mapping[str, Callable[[], object]],
    paths: RunPaths | None,
) -> Roles:
    import ray
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    from engine.actors.ray_handles import RayHandle, resolve
    from engine.actors.shells import ROLE_SHELLS

    def spawn(role: str, build: Callable[[], object], **placement: Any) -> RayHandle:
        # Ray re-creates a dead actor (running `build` again); the conductor then rolls the roles back to
        # the latest checkpoint. No call is retried: verbs that run frames are not idempotent.
        shell = ROLE_SHELLS[role].options(
            name=actor_name(run_id, role), namespace=config.runtime.namespace,
            max_restarts=config.runtime.max_restarts, max_task_retries=0, **placement,
        )  # fmt: skip
        return RayHandle(role, shell.remote(build))

    # The emulator opens the ROM by the path the user gave on this machine, the gateway writes the call
    # log and memory the lessons under the data directory here: keep them on this node.
    here = NodeAffinitySchedulingStrategy(ray.get_runtime_context().get_node_id(), soft=False)
    handles: dict[str, RayHandle] = {"emulator": spawn("emulator", make_emulator, scheduling_strategy=here)}
    try:
        for service, make in make_services.items():
            handles[service] = spawn(service, make, scheduling_strategy=here)
        game = Game(handles["emulator"].call("game_name"))
        for role, build in _builders(config, options, run_id, game, handles).items():
            handles[role] = spawn(role, build)
        # It writes under the data directory here.
        make_checkpointer = _checkpoint_builder(config, run_id, paths, handles)
        handles["checkpoint"] = spawn("checkpoint", make_checkpointer, scheduling_strategy=here)
        for role, handle in handles.items():
            resolve(handle.actor.call.remote("report"), role)
    except BaseException:
        for handle in handles.values():
            ray.kill(handle.actor, no_restart=True)
        raise
    return Roles(**handles)
