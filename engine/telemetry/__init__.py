"""Telemetry of a run: OpenTelemetry traces of the decision cycle and metrics exported through Ray.

`Telemetry.from_config(config.telemetry, run_id)` is built once by the launcher in the process that runs
the conductor and handed to it; `Telemetry.disabled()` is what a conductor gets when nobody asked.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TextIO

from engine.config import TelemetryConfig
from engine.telemetry.metrics import RunMetrics
from engine.telemetry.tracing import TracedHandle, Tracing, build_tracer_provider, cycle_span

__all__ = ["RunMetrics", "Telemetry", "TracedHandle", "Tracing", "build_tracer_provider", "cycle_span"]


@dataclass(frozen=True)
class Telemetry:
    tracing: Tracing = field(default_factory=Tracing.disabled)
    metrics: RunMetrics = field(default_factory=lambda: RunMetrics(export=False))

    @classmethod
    def from_config(cls, config: TelemetryConfig, run_id: str, *, stream: TextIO | None = None) -> Telemetry:
        """Traces as configured; metrics exported to Ray if Ray is initialised in this process."""
        return cls(Tracing.from_config(config, stream=stream, run_id=run_id), RunMetrics(run_id))

    @classmethod
    def disabled(cls) -> Telemetry:
        return cls()

    def shutdown(self) -> None:
        self.tracing.shutdown()
