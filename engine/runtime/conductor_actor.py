"""The conductor as a named Ray actor (`<run id>/conductor`), so that `engine status` in another process
can ask it while it plays, and so that Ray re-creates it (it then resumes from the latest checkpoint)."""

from __future__ import annotations

from dataclasses import replace

import ray

from engine.actors.ray_handles import drain_notifications
from engine.actors.roles import Roles
from engine.config import LoggingConfig, TelemetryConfig
from engine.layout import RunPaths
from engine.messages import Phase, RunStatus
from engine.runtime.conductor import Conductor
from engine.runtime.live import LivePublisher
from engine.runtime.logs import attach_run_logs
from engine.runtime.options import LATEST, RunOptions
from engine.runtime.signals import SignalName
from engine.runtime.summary import RunSummary
from engine.telemetry import Telemetry
from engine.watch.view import LiveFeed


# Threaded (max_concurrency): `status`, `phase` and `request_stop` answer from other threads while `run` is
# busy.
@ray.remote(num_cpus=0, max_concurrency=4)  # type: ignore[call-overload]  # not in Ray's stubs
class ConductorActor:
    def __init__(
        self,
        roles: Roles,
        options: RunOptions,
        paths: RunPaths,
        logs: LoggingConfig,
        telemetry: TelemetryConfig,
    ) -> None:
        # Its progress lines go to stderr (Ray forwards them to the driver's terminal) and to run.log.
        self.handlers = attach_run_logs(paths.log, logs.level, to_stderr=True)
        if ray.get_runtime_context().was_current_actor_reconstructed:
            # Ray re-created this actor after the first one died: carry on from the latest checkpoint.
            options = replace(options, resume=LATEST, resume_reason="the conductor actor was re-created")
        self.telemetry = Telemetry.from_config(telemetry, paths.run_id)  # built where the conductor runs
        self.roles = roles  # the Ray handles themselves (the conductor may wrap them for tracing)
        self.conductor = Conductor(roles, options, paths, self.telemetry)
        if self.conductor.live is None:  # `engine watch` may ask for the page's views: made on demand
            self.conductor.live = LivePublisher(options.rom)

    def run(self) -> RunSummary:
        try:
            return self.conductor.run()
        finally:
            drain_notifications(self.roles)
            self.telemetry.shutdown()

    def status(self) -> RunStatus:
        return self.conductor.status()

    def live_view(self) -> LiveFeed:
        """The newest view of the run and its screen, for `engine watch`; asking keeps views coming."""
        assert self.conductor.live is not None
        version, view, screen = self.conductor.live.wanted()
        return LiveFeed(version=version, view=view, screen=screen)

    def request_stop(self, signal: SignalName = "SIGINT") -> None:
        """The driver was sent `signal`: stop at the next cycle boundary."""
        self.conductor.request_stop(signal)

    def phase(self) -> Phase:
        """Where the run is (the driver's grace stops running once it is past its last cycle); answered
        from another thread without asking any role, however busy they are."""
        return self.conductor.phase
