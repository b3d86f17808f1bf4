"""`engine run --local`: every role as a plain object in this process, driven by the same conductor."""

from __future__ import annotations

from engine.actors.handles import LocalHandle
from engine.config import EngineConfig
from engine.emulator.role import EmulatorRole
from engine.observer.journey import Observer
from engine.reflection.inbox import Reflection
from engine.resilience.checkpointer import Checkpointer
from engine.runtime.conductor import Conductor, Roles, RunOptions
from engine.runtime.layout import RunPaths
from engine.runtime.summary import RunSummary
from engine.strategist.strategist import Strategist
from engine.tactician.tactician import Tactician
from engine.telemetry import Telemetry
from engine.vision.perceiver import Vision


def local_roles(config: EngineConfig, options: RunOptions) -> Roles:
    emulator = EmulatorRole(options.rom, config.emulator, config.player)
    return Roles(
        emulator=LocalHandle("emulator", emulator),
        vision=LocalHandle("vision", Vision(emulator.session.game)),
        observer=LocalHandle("observer", Observer()),
        strategist=LocalHandle("strategist", Strategist()),
        tactician=LocalHandle("tactician", Tactician(seed=options.seed)),
        reflection=LocalHandle("reflection", Reflection()),
        checkpoint=LocalHandle("checkpoint", Checkpointer(config.checkpoint.interval_seconds)),
    )


def run_local(
    config: EngineConfig, options: RunOptions, paths: RunPaths, telemetry: Telemetry | None = None
) -> RunSummary:
    roles = local_roles(config, options)
    telemetry = telemetry or Telemetry.from_config(config.telemetry, paths.run_id)
    try:
        return Conductor(roles, options, paths, telemetry).run()
    finally:
        telemetry.shutdown()
        for handle in roles.all():
            handle.close()
