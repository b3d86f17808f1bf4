"""`engine run --local`: every role as a plain object in this process, driven by the same conductor."""

from __future__ import annotations

from collections.abc import Mapping

from engine.actors.factory import EmulatorFactory, build_roles
from engine.actors.heap import start_up_frozen
from engine.config import EngineConfig
from engine.layout import RunPaths
from engine.mechanics.role import EmulatorRole
from engine.runtime.conductor import Conductor
from engine.runtime.options import RunOptions
from engine.runtime.signals import StopRequest
from engine.runtime.summary import RunSummary
from engine.telemetry import Telemetry


def run_local(
    config: EngineConfig,
    options: RunOptions,
    paths: RunPaths,
    telemetry: Telemetry | None = None,
    *,
    emulator_factory: EmulatorFactory = EmulatorRole,
    secrets: Mapping[str, str] | None = None,
    stop: StopRequest | None = None,
) -> RunSummary:
    """`stop`: the run's stop request, which the signal trap fills (engine.runtime.signals)."""
    roles = build_roles(config, options.role_build(paths, secrets, config), "local", emulator_factory)
    telemetry = telemetry or Telemetry.from_config(config.telemetry, paths.run_id)
    conductor = Conductor(roles, options, paths, telemetry, stop)
    try:
        with start_up_frozen():
            return conductor.run()
    finally:
        conductor.stop_watching()
        telemetry.shutdown()
        for handle in roles.all():
            handle.close()
