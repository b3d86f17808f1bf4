"""OpenTelemetry traces of the decision cycle: one trace per cycle, one child span per role call.

The provider is built once from `TelemetryConfig` and handed down inside a `Tracing`; nothing here sets
OpenTelemetry's global tracer provider. The global can be set only once per process, so setting it would
make a second run in the same process (every test, a restarted conductor) silently keep the first run's
exporter. Code that wants our provider asks for it: the Anthropic SDK takes
`open_telemetry={"tracer_provider": tracing.provider}`.

Spans are opened on the caller's side, in the conductor's process, around each `RoleHandle` call: a call's
span measures the whole round trip (queueing, serialisation, the method itself), which is what the cycle
costs. The trace context still crosses into actors, as a W3C `traceparent` carried with each Ray call
(`trace_carrier` on the caller's side, `continued` in the actor shell): Ray's own propagation needs
`ray.init(_tracing_startup_hook=...)`, which is ignored when attaching to a running cluster. So a model
call the tactician's actor asks the gateway's actor for is a span in the decision's trace.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Generic, Literal, TextIO, TypeVar, cast

from opentelemetry import context as otel_context
from opentelemetry import trace
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import SpanProcessor, TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, ConsoleSpanExporter, SimpleSpanProcessor
from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator

from engine.config import TelemetryConfig

if TYPE_CHECKING:  # only a type here; engine.actors may import Ray, which --local should never pay for
    from engine.actors.handles import RoleHandle

SERVICE_NAME = "pokemon-engine"
INSTRUMENTATION = "engine.runtime"
CYCLE_SPAN = "decision_cycle"

# Attribute keys, namespaced as OpenTelemetry asks of attributes outside its semantic conventions.
ATTR_ROLE = "engine.role"
ATTR_METHOD = "engine.method"
ATTR_MODE = "engine.call_mode"  # "call" waits for the answer, "tell" only sends
ATTR_KIND = "engine.cycle.kind"
ATTR_DECISION = "engine.decision"
ATTR_BATTLE_ID = "engine.battle_id"
ATTR_RUN_ID = "engine.run_id"

CycleKind = Literal["battle", "overworld"]
TraceCarrier = dict[str, str]
# An instance of our own, not OpenTelemetry's global propagator, which an application may have replaced.
_PROPAGATOR = TraceContextTextMapPropagator()
Port = TypeVar("Port")


def trace_carrier() -> TraceCarrier | None:
    """The current span's context as W3C headers to send along with a call, or None outside any span
    (tracing off costs one check)."""
    if not trace.get_current_span().get_span_context().is_valid:
        return None
    carrier: TraceCarrier = {}
    _PROPAGATOR.inject(carrier)
    return carrier


@contextmanager
def continued(carrier: TraceCarrier | None) -> Iterator[None]:
    """Run the block inside the caller's trace context (from `trace_carrier`), if one came along."""
    if not carrier:
        yield
        return
    token = otel_context.attach(_PROPAGATOR.extract(carrier))
    try:
        yield
    finally:
        otel_context.detach(token)


def _processor(config: TelemetryConfig, stream: TextIO | None) -> SpanProcessor:
    if config.exporter == "console":
        # Synchronous, so spans come out in order between the log lines they belong to; console is for
        # looking at a short run, not for speed.
        return SimpleSpanProcessor(ConsoleSpanExporter(out=stream if stream is not None else sys.stderr))
    # Imported here: the gRPC stack costs ~0.1 s to import and only the otlp exporter needs it.
    from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter

    # A gRPC channel connects on its first export, not here: building never touches the network. Batched,
    # so a slow or absent collector costs the game loop nothing; spans a dead collector refuses are dropped.
    # `insecure` is left to the exporter: it follows the endpoint's scheme (http plain, https TLS).
    exporter = OTLPSpanExporter(endpoint=config.otlp_endpoint, timeout=config.otlp_timeout_seconds)
    return BatchSpanProcessor(exporter)


def build_tracer_provider(
    config: TelemetryConfig, *, stream: TextIO | None = None, run_id: str | None = None
) -> trace.TracerProvider:
    """The run's provider: a no-op one for `none`, else an SDK provider exporting to the console (`stream`,
    stderr by default) or to the OTLP collector at `config.otlp_endpoint` (gRPC)."""
    if config.exporter == "none":
        return trace.NoOpTracerProvider()
    attributes: dict[str, str] = {"service.name": SERVICE_NAME}
    if run_id is not None:
        attributes[ATTR_RUN_ID] = run_id
    provider = TracerProvider(resource=Resource.create(attributes))
    provider.add_span_processor(_processor(config, stream))
    return provider


class TracedHandle(Generic[Port]):
    """A role handle that opens a span `<role>.<method>` around each call to the handle it wraps.

    Inside `cycle_span` the span is a child of the cycle's root span (the current context); outside it
    (start-up, status, shutdown) each call is a trace of its own. A call that raises leaves an ERROR status
    and an `exception` event on its span and on every enclosing one it passes through.
    """

    def __init__(self, handle: RoleHandle[Port], tracer: trace.Tracer) -> None:
        self.inner = handle
        self.role = handle.role
        self.tracer = tracer

    @property
    def call(self) -> Port:
        return cast(Port, _TracedVerbs(self, self.inner.call, "call"))

    @property
    def tell(self) -> Port:
        # The span covers sending only: the answer, if any, is never waited for.
        return cast(Port, _TracedVerbs(self, self.inner.tell, "tell"))

    def close(self) -> None:
        self.inner.close()

    def incarnation(self) -> str:
        return self.inner.incarnation()

    def __getattr__(self, name: str) -> Any:
        # Anything beyond the protocol (a Ray handle's actor, say) is the wrapped handle's. Read through
        # __dict__ so that a half-built object (copy, pickle) raises AttributeError instead of recursing.
        inner = self.__dict__.get("inner")
        if inner is None:
            raise AttributeError(name)
        return getattr(inner, name)


class _TracedVerbs:
    def __init__(self, handle: TracedHandle[Any], verbs: Any, mode: str) -> None:
        self._handle, self._verbs, self._mode = handle, verbs, mode

    def __getattr__(self, verb: str) -> Any:
        if verb.startswith("_"):
            raise AttributeError(verb)
        target = getattr(self._verbs, verb)
        handle, mode = self._handle, self._mode

        def traced(*args: Any) -> Any:
            attributes = {ATTR_ROLE: handle.role, ATTR_METHOD: verb, ATTR_MODE: mode}
            with handle.tracer.start_as_current_span(f"{handle.role}.{verb}", attributes=attributes):
                return target(*args)

        return traced


@contextmanager
def cycle_span(
    tracer: trace.Tracer, kind: CycleKind, decision: int, battle_id: str | None = None
) -> Iterator[trace.Span]:
    """The root span `decision_cycle` of one cycle; role calls made inside nest under it.

    `decision` is the number the cycle's decision gets (decisions so far + 1). The span is yielded so that
    what is learnt during the cycle (the battle id of a battle that started in it) can be added with
    `span.set_attribute(ATTR_BATTLE_ID, ...)`. A new root context is used on purpose: a cycle never
    belongs to an enclosing trace, so each cycle is one trace.
    """
    attributes: dict[str, str | int] = {ATTR_KIND: kind, ATTR_DECISION: decision}
    if battle_id is not None:
        attributes[ATTR_BATTLE_ID] = battle_id
    with tracer.start_as_current_span(CYCLE_SPAN, context=trace.set_span_in_context(trace.INVALID_SPAN),
                                      attributes=attributes) as span:  # fmt: skip
        yield span


class Tracing:
    """The run's tracer and the provider behind it: built once at launch, passed to the conductor.

    With the `none` exporter, `wrap` returns handles unchanged and `cycle` opens nothing, so a run without
    tracing pays one attribute check per cycle.
    """

    def __init__(self, provider: trace.TracerProvider) -> None:
        self.provider = provider
        self.enabled = not isinstance(provider, trace.NoOpTracerProvider)
        self.tracer = provider.get_tracer(INSTRUMENTATION)

    @classmethod
    def from_config(
        cls, config: TelemetryConfig, *, stream: TextIO | None = None, run_id: str | None = None
    ) -> Tracing:
        return cls(build_tracer_provider(config, stream=stream, run_id=run_id))

    @classmethod
    def disabled(cls) -> Tracing:
        return cls(trace.NoOpTracerProvider())

    def wrap(self, handle: RoleHandle[Port]) -> RoleHandle[Port]:
        return TracedHandle(handle, self.tracer) if self.enabled else handle

    @contextmanager
    def cycle(self, kind: CycleKind, decision: int, battle_id: str | None = None) -> Iterator[trace.Span]:
        if not self.enabled:
            yield trace.INVALID_SPAN
            return
        with cycle_span(self.tracer, kind, decision, battle_id) as span:
            yield span

    def shutdown(self) -> None:
        """Export what is still batched and stop the exporter; bounded by the exporter's timeout."""
        shutdown = getattr(self.provider, "shutdown", None)
        if shutdown is not None:
            shutdown()
