"""The one place that decides local vs Ray: the same role classes, as plain objects or inside actor shells.

On Ray every role is a named actor, `<run id>/<role>` in the configured namespace, so another process
(`engine status`, the dashboard) can find the run's structure by name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Literal

from engine.actors.handles import LocalHandle, RoleHandle
from engine.actors.roles import Roles
from engine.checkpointer.role import Checkpointer, CheckpointSources
from engine.checkpoints.store import CheckpointStore
from engine.config import (
    CheckpointConfig,
    ConfigError,
    EmulatorConfig,
    EngineConfig,
    PlayerConfig,
    Tier,
    config_hash,
)
from engine.game.cartridge import Game
from engine.game.tables import game_data
from engine.harness.levels import presses_buttons
from engine.layout import RunPaths
from engine.llm.gateway import ModelGateway
from engine.llm.port import GatewayPort
from engine.mechanics.role import EmulatorRole
from engine.memory.port import MemoryPort
from engine.memory.service import LessonMemory
from engine.observer.journey import Observer
from engine.procedural.memory import ProceduralMemory
from engine.procedural.scope import scope_for
from engine.reflection.inbox import Reflection, Replayer
from engine.strategist.strategist import Strategist
from engine.tactician.buttons import ButtonPlayer
from engine.tactician.tactician import Tactician
from engine.team.planner import TeamPlanner
from engine.telemetry.metrics import RunMetrics
from engine.telemetry.tracing import Tracing
from engine.vision.perceiver import Vision
from engine.world.world import world_of

Mode = Literal["local", "ray"]
CHECKPOINT_SOURCES = ("emulator", "observer", "strategist", "tactician", "gateway", "memory")
# Anything built like EmulatorRole(rom, emulator config, player config) with its verbs: tests inject fakes.
EmulatorFactory = Callable[[Path, EmulatorConfig, PlayerConfig], Any]


def actor_name(run_id: str, role: str) -> str:
    return f"{run_id}/{role}"


@dataclass(frozen=True)
class RoleBuild:
    """What the roles are built from, besides the config: one run's cartridge, seed, files and keys."""

    rom: Path
    run_id: str
    seed: int = 0
    paths: RunPaths | None = None  # None (tests of the wiring): no call log, no lessons, no checkpoints
    secrets: Mapping[str, str] = field(default_factory=dict)  # API keys the model tiers name
    # Counterfactual replays of a lost battle for Reflection (built by the runtime, which may use replay/).
    replays: Replayer | None = None


class RomInHand:
    """The cartridge's bytes, for roles built in this process."""

    def __init__(self, data: bytes | None) -> None:
        self.data = data

    def __call__(self) -> bytes | None:
        return self.data


class StoredRom:
    """The cartridge's bytes in Ray's object store, fetched wherever a role is built or re-built. The
    driver keeps the reference for the whole run (RayHandle.kept): bytes passed straight to an actor's
    constructor are freed once it is created, and a re-created actor would then fail to start
    (ray-project/ray#53727)."""

    def __init__(self, ref: Any) -> None:
        self.ref = ref

    def __call__(self) -> bytes | None:
        import ray

        data: bytes | None = ray.get(self.ref)
        return data


RomSource = Callable[[], bytes | None]


def _deciders(
    config: EngineConfig,
    build: RoleBuild,
    game: Game,
    gateway: GatewayPort,
    memory: MemoryPort,
    rom: RomSource,
) -> dict[str, Callable[[], object]]:
    """The roles after the emulator and the services, as zero-argument constructors (Vision needs the game
    the emulator found in the cartridge header; the deciding roles reach models through the gateway and
    lessons through memory; the tactician and the strategist read the cartridge's maps where they run, from
    the ROM's bytes shipped with them, since an actor on another machine cannot open the user's file)."""
    routing = config.routing
    return {
        "vision": partial(Vision, game, rom),  # the font, for reading the screen from pixels
        "observer": Observer,
        "strategist": partial(_strategist, config, gateway, memory, rom),
        "tactician": partial(_tactician, build, config, gateway, memory, rom),
        "reflection": partial(Reflection, routing, gateway, memory, build.replays),
    }


def _tactician(
    build: RoleBuild, config: EngineConfig, gateway: GatewayPort, memory: MemoryPort, rom: RomSource
) -> Tactician:
    lookahead = config.models.rule_based.battle == "search"
    keep = known_species(config.team.keep_unevolved)
    team = TeamPlanner(keep, stones=config.team.stones, swaps=config.team.swaps)
    buttons = ButtonPlayer(gateway, _procedural(config, build), config.harness.tier)
    return Tactician(build.seed, config.routing, gateway, memory, world=world_of(rom()), lookahead=lookahead,
                     stuck_legs=config.story.stuck_legs, keep_unevolved=keep, team=team, buttons=buttons,
                     ask_always=_asked_always(config))  # fmt: skip


def _strategist(config: EngineConfig, gateway: GatewayPort, memory: MemoryPort, rom: RomSource) -> Strategist:
    return Strategist(config.routing, gateway, memory, world=world_of(rom()), aim=config.story.aim,
                      ask_always=_asked_always(config))  # fmt: skip


def _procedural(config: EngineConfig, build: RoleBuild) -> ProceduralMemory | None:
    """The model's notes and skills, for the levels where it presses the buttons (made where the
    tactician runs: on Ray the tactician is kept on this node then, beside the data directory)."""
    harness = config.harness
    if build.paths is None or not presses_buttons(harness.level) or not (harness.notes or harness.skills):
        return None
    return ProceduralMemory.for_config(build.paths.procedural, harness, config.models)


def _asked_always(config: EngineConfig) -> Tier | None:
    """The decisions level asks every decision of the harness's tier; other levels follow the routing."""
    return config.harness.tier if config.harness.level == "decisions" else None


def _rom_bytes(path: Path) -> bytes | None:
    """The cartridge's bytes; None where there is no file (the scripted emulator of the tests)."""
    try:
        return path.read_bytes()
    except OSError:
        return None


def _checkpointer(
    config: CheckpointConfig, run_id: str, digest: str, root: Path | None, sources: CheckpointSources
) -> Checkpointer:
    # Its metrics are made where it runs: Ray's metric objects belong to the process that records them.
    # Without a data directory (tests of the wiring) nothing is kept, as with lessons.
    store = CheckpointStore(root, keep=config.keep) if root is not None else None
    return Checkpointer(config, run_id, digest, store, sources, metrics=RunMetrics(run_id))


def _checkpoint_builder(
    config: EngineConfig, build: RoleBuild, handles: Mapping[str, RoleHandle[Any]]
) -> Callable[[], Checkpointer]:
    """The Checkpoint role pulls snapshots from (and pushes them back to) the roles it is given."""
    root = build.paths.checkpoints if build.paths is not None else None
    sources = checkpoint_sources(handles)
    return partial(_checkpointer, config.checkpoint, build.run_id, config_hash(config), root, sources)


def checkpoint_sources(handles: Mapping[str, RoleHandle[Any]]) -> CheckpointSources:
    """The roles a Checkpoint role snapshots, through their handles' typed interfaces."""
    return CheckpointSources(**{role: handles[role].call for role in CHECKPOINT_SOURCES})


def _gateway(
    config: EngineConfig, secrets: dict[str, str], log_path: Path | None, run_id: str
) -> ModelGateway:
    # Its tracer provider too is made where it runs: a model call's span is exported from that process,
    # in the trace of the decision that asked (the context comes along with each Ray call).
    tracing = Tracing.from_config(config.telemetry, run_id=run_id)
    return ModelGateway(config.models, config.llm, secrets, log_path=log_path, metrics=RunMetrics(run_id),
                        tracing=tracing)  # fmt: skip


def _services(config: EngineConfig, build: RoleBuild) -> dict[str, Callable[[], object]]:
    log_path = build.paths.llm_log if build.paths is not None else None
    memory_dir = build.paths.memory if build.paths is not None else None
    return {
        "gateway": partial(_gateway, config, dict(build.secrets), log_path, build.run_id),
        "memory": partial(_memory, config, memory_dir, build.run_id),
    }


def _memory(config: EngineConfig, directory: Path | None, run_id: str) -> LessonMemory:
    # Made where the role runs, as the gateway's: the lessons it stores and recalls count for this run.
    # Kept per (harness level, model): one level's lessons never reach another's run.
    scope = scope_for(config.harness, config.models)
    return LessonMemory(config.memory, directory, metrics=RunMetrics(run_id), scope=scope)


def call_timeout(config: EngineConfig, role: str) -> float:
    """How long one call to `role` may take on Ray. A paced run's emulator gets as much again per 1/speed:
    at speed 1 a walk or the intro takes the game's own time (a minute of walking is 3,600 frames)."""
    base = config.runtime.call_timeout_seconds
    speed = config.emulator.speed
    return base + base / speed if role == "emulator" and speed > 0 else base


def build_roles(
    config: EngineConfig, build: RoleBuild, mode: Mode, emulator_factory: EmulatorFactory = EmulatorRole
) -> Roles:
    """The seven roles and the two services, ready: on Ray each actor has answered once, so a role that
    cannot start (a bad ROM) raises its typed error here, before any run begins. On Ray, the caller must
    have connected."""
    make_emulator = partial(emulator_factory, build.rom, config.emulator, config.player)
    if mode == "ray":
        return _ray_roles(config, build, make_emulator)
    emulator = make_emulator()
    local: dict[str, RoleHandle[Any]] = {"emulator": LocalHandle("emulator", emulator)}
    local |= {name: LocalHandle(name, make()) for name, make in _services(config, build).items()}
    game = Game(emulator.game_name())
    rom = RomInHand(_rom_bytes(build.rom))
    deciders = _deciders(config, build, game, local["gateway"].call, local["memory"].call, rom)
    local |= {role: LocalHandle(role, make()) for role, make in deciders.items()}
    local["checkpoint"] = LocalHandle("checkpoint", _checkpoint_builder(config, build, local)())
    return Roles(**local)


def _ray_roles(config: EngineConfig, build: RoleBuild, make_emulator: Callable[[], object]) -> Roles:
    import ray
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    from engine.actors.ray_handles import RayHandle, resolve
    from engine.actors.shells import ROLE_SHELLS

    def spawn(role: str, make: Callable[[], object], **placement: Any) -> RayHandle[Any]:
        # Ray re-creates a dead actor (running `make` again); the conductor then rolls the roles back to
        # the latest checkpoint. No call is retried: verbs that run frames are not idempotent.
        shell = ROLE_SHELLS[role].options(
            name=actor_name(build.run_id, role), namespace=config.runtime.namespace,
            max_restarts=config.runtime.max_restarts, max_task_retries=0, **placement,
        )  # fmt: skip
        return RayHandle(role, shell.remote(make), call_timeout(config, role))

    # The emulator opens the ROM by the path the user gave on this machine, the gateway writes the call
    # log and memory the lessons under the data directory here: keep them on this node.
    here = NodeAffinitySchedulingStrategy(ray.get_runtime_context().get_node_id(), soft=False)
    handles: dict[str, RayHandle[Any]] = {
        "emulator": spawn("emulator", make_emulator, scheduling_strategy=here)
    }
    try:
        for service, make in _services(config, build).items():
            handles[service] = spawn(service, make, scheduling_strategy=here)
        game = Game(handles["emulator"].call.game_name())
        data = _rom_bytes(build.rom)
        stored = ray.put(data)
        rom = StoredRom(stored)
        deciders = _deciders(config, build, game, handles["gateway"].call, handles["memory"].call, rom)
        for role, make in deciders.items():
            # A tactician that keeps the model's notes and skills writes them under the data directory.
            near = {"scheduling_strategy": here} if role == "tactician" and presses_buttons(
                config.harness.level) else {}  # fmt: skip
            handles[role] = spawn(role, make, **near)
            handles[role].kept = (stored,)
        # It writes under the data directory here.
        handles["checkpoint"] = spawn(
            "checkpoint", _checkpoint_builder(config, build, handles), scheduling_strategy=here
        )
        for role, handle in handles.items():
            resolve(handle.actor.call.remote("report"), role)
    except BaseException:
        for handle in handles.values():
            ray.kill(handle.actor, no_restart=True)
        raise
    return Roles(**handles)


def known_species(names: tuple[str, ...]) -> frozenset[str]:
    """The config's species names, each checked against the species table."""
    table = game_data().species_by_name
    unknown = [name for name in names if name not in table]
    if unknown:
        raise ConfigError(f"team.keep_unevolved: no species named {', '.join(unknown)}")
    return frozenset(names)
