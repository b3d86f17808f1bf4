"""Traces of the decision cycle: one trace per cycle, a child span per role call, errors on the span.

Every test builds its own provider; none reads or sets OpenTelemetry's global one.
"""

from __future__ import annotations

import io
import json
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from opentelemetry import trace
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import StatusCode

from engine.actors.handles import LocalHandle
from engine.config import ConfigError, TelemetryConfig, config_from_mapping
from engine.telemetry import Telemetry
from engine.telemetry.tracing import (
    ATTR_BATTLE_ID,
    ATTR_DECISION,
    ATTR_KIND,
    ATTR_METHOD,
    ATTR_MODE,
    ATTR_ROLE,
    CYCLE_SPAN,
    TracedHandle,
    Tracing,
    build_tracer_provider,
    continued,
    cycle_span,
    trace_carrier,
)
from tests.support.otlp import collector_on_loopback


class BrokenRole(RuntimeError):
    pass


class FakeEmulator:
    def __init__(self) -> None:
        self.frame_number = 0
        self.closed = False

    def frame(self) -> int:
        self.frame_number += 10
        return self.frame_number

    def execute(self, action: str) -> str:
        return f"did {action}"

    def explode(self) -> None:
        raise BrokenRole("the emulator fell over")

    def close(self) -> None:
        self.closed = True


class FakeVision:
    def perceive(self, frame: int) -> dict[str, int]:
        return {"frame": frame}


class FakeTactician:
    def choose(self, perception: dict[str, int]) -> str:
        return "tackle" if perception["frame"] % 20 else "growl"


class FakeReflection:
    def receive(self, record: str) -> None:
        raise BrokenRole("a notification that fails is only logged")


@pytest.fixture
def exporter() -> InMemorySpanExporter:
    return InMemorySpanExporter()


@pytest.fixture
def tracing(exporter: InMemorySpanExporter) -> Tracing:
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    return Tracing(provider)


@pytest.fixture
def roles(tracing: Tracing) -> dict[str, Any]:
    targets = {"emulator": FakeEmulator(), "vision": FakeVision(), "tactician": FakeTactician(),
               "reflection": FakeReflection()}  # fmt: skip
    return {role: tracing.wrap(LocalHandle(role, target)) for role, target in targets.items()}


def fake_cycle(roles: dict[str, Any]) -> str:
    """The conductor's shape: look (emulator → vision), choose (tactician), act (emulator)."""
    perception = roles["vision"].call.perceive(roles["emulator"].call.frame())
    choice = roles["tactician"].call.choose(perception)
    return roles["emulator"].call.execute(choice)


def by_trace(spans: tuple[ReadableSpan, ...]) -> dict[int, list[ReadableSpan]]:
    traces: dict[int, list[ReadableSpan]] = {}
    for span in spans:
        assert span.context is not None
        traces.setdefault(span.context.trace_id, []).append(span)
    return traces


def root_of(spans: list[ReadableSpan]) -> ReadableSpan:
    (root,) = [span for span in spans if span.parent is None]
    return root


def test_one_trace_per_cycle_with_a_child_span_per_role_call(
    tracing: Tracing, roles: dict[str, Any], exporter: InMemorySpanExporter
) -> None:
    with tracing.cycle("overworld", decision=1):
        assert fake_cycle(roles) == "did tackle"
    with tracing.cycle("battle", decision=2, battle_id="run-b001"):
        assert fake_cycle(roles) == "did growl"

    traces = list(by_trace(exporter.get_finished_spans()).values())
    assert len(traces) == 2
    for spans, kind, decision in zip(traces, ("overworld", "battle"), (1, 2), strict=True):
        root = root_of(spans)
        assert root.name == CYCLE_SPAN
        assert root.attributes is not None
        assert root.attributes[ATTR_KIND] == kind
        assert root.attributes[ATTR_DECISION] == decision
        children = sorted((span for span in spans if span is not root), key=lambda span: span.start_time or 0)
        assert [span.name for span in children] == [
            "emulator.frame", "vision.perceive", "tactician.choose", "emulator.execute"
        ]  # fmt: skip
        for child in children:
            assert child.parent is not None and root.context is not None
            assert child.parent.span_id == root.context.span_id
            assert child.attributes is not None
            role, method = child.name.split(".")
            assert (child.attributes[ATTR_ROLE], child.attributes[ATTR_METHOD]) == (role, method)
            assert child.attributes[ATTR_MODE] == "call"
            assert child.status.status_code is StatusCode.UNSET
    battle_root = root_of(traces[1])
    assert battle_root.attributes is not None and battle_root.attributes[ATTR_BATTLE_ID] == "run-b001"
    assert ATTR_BATTLE_ID not in (root_of(traces[0]).attributes or {})


def test_what_is_learnt_during_a_cycle_can_be_added_to_its_span(
    tracing: Tracing, roles: dict[str, Any], exporter: InMemorySpanExporter
) -> None:
    with tracing.cycle("battle", decision=7) as span:
        fake_cycle(roles)
        span.set_attribute(ATTR_BATTLE_ID, "run-b002")
    root = root_of(list(exporter.get_finished_spans()))
    assert root.attributes is not None and root.attributes[ATTR_BATTLE_ID] == "run-b002"


def test_a_call_that_raises_leaves_an_error_status_and_an_exception_event(
    tracing: Tracing, roles: dict[str, Any], exporter: InMemorySpanExporter
) -> None:
    with pytest.raises(BrokenRole), tracing.cycle("battle", decision=3):
        roles["emulator"].call.frame()
        roles["emulator"].call.explode()

    spans = {span.name: span for span in exporter.get_finished_spans()}
    failed = spans["emulator.explode"]
    assert failed.status.status_code is StatusCode.ERROR
    assert "the emulator fell over" in (failed.status.description or "")
    (event,) = [event for event in failed.events if event.name == "exception"]
    assert event.attributes is not None
    assert event.attributes["exception.type"].endswith("BrokenRole")
    assert event.attributes["exception.message"] == "the emulator fell over"
    assert spans["emulator.frame"].status.status_code is StatusCode.UNSET
    # The error passed through the cycle, so its root says so too.
    assert spans[CYCLE_SPAN].status.status_code is StatusCode.ERROR


def test_a_tell_gets_a_span_and_a_swallowed_failure_is_not_an_error(
    tracing: Tracing, roles: dict[str, Any], exporter: InMemorySpanExporter
) -> None:
    with tracing.cycle("battle", decision=4):
        roles["reflection"].tell.receive("battle 1")
    (told,) = [span for span in exporter.get_finished_spans() if span.name == "reflection.receive"]
    assert told.attributes is not None and told.attributes[ATTR_MODE] == "tell"
    assert told.status.status_code is StatusCode.UNSET  # LocalHandle.tell logs and carries on


def test_calls_outside_a_cycle_are_traces_of_their_own(
    tracing: Tracing, roles: dict[str, Any], exporter: InMemorySpanExporter
) -> None:
    roles["emulator"].call.frame()
    roles["emulator"].call.frame()
    spans = exporter.get_finished_spans()
    assert len(by_trace(spans)) == 2
    assert all(span.parent is None for span in spans)


def test_a_cycle_is_never_nested_in_an_enclosing_span(
    tracing: Tracing, roles: dict[str, Any], exporter: InMemorySpanExporter
) -> None:
    with tracing.tracer.start_as_current_span("run"), tracing.cycle("overworld", decision=1):
        roles["emulator"].call.frame()
    spans = {span.name: span for span in exporter.get_finished_spans()}
    assert spans[CYCLE_SPAN].parent is None
    assert len(by_trace(tuple(spans.values()))) == 2


def test_the_wrapper_forwards_close_and_whatever_else_the_handle_has(tracing: Tracing) -> None:
    emulator = FakeEmulator()
    local = LocalHandle("emulator", emulator)
    traced = TracedHandle(local, tracing.tracer)
    assert traced.role == "emulator"
    assert traced.target is emulator  # not in the protocol: reached through the wrapped handle
    traced.close()
    assert emulator.closed


def test_cycle_span_works_with_any_tracer(exporter: InMemorySpanExporter) -> None:
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracer = provider.get_tracer("test")
    handle = TracedHandle(LocalHandle("vision", FakeVision()), tracer)
    with cycle_span(tracer, "overworld", 9):
        handle.call.perceive(3)
    names = sorted(span.name for span in exporter.get_finished_spans())
    assert names == [CYCLE_SPAN, "vision.perceive"]


# -- exporters from the configuration ---------------------------------------------------------------------
def test_none_exports_nothing_and_leaves_handles_as_they_are() -> None:
    global_before = trace.get_tracer_provider()
    tracing = Tracing.from_config(TelemetryConfig(exporter="none"))
    assert not tracing.enabled
    assert isinstance(tracing.provider, trace.NoOpTracerProvider)
    handle = LocalHandle("vision", FakeVision())
    assert tracing.wrap(handle) is handle
    with tracing.cycle("overworld", decision=1) as span:
        assert not span.is_recording()
        span.set_attribute(ATTR_BATTLE_ID, "ignored")
    tracing.shutdown()
    assert trace.get_tracer_provider() is global_before


def json_objects(text: str) -> list[dict[str, Any]]:
    """The console exporter writes one indented JSON object per span, one after the other."""
    decoder, objects, position = json.JSONDecoder(), [], 0
    while position < len(text):
        if text[position].isspace():
            position += 1
            continue
        found, position = decoder.raw_decode(text, position)
        objects.append(found)
    return objects


def test_console_writes_every_span_to_the_given_stream() -> None:
    stream = io.StringIO()
    tracing = Tracing.from_config(TelemetryConfig(exporter="console"), stream=stream, run_id="run-7")
    emulator = tracing.wrap(LocalHandle("emulator", FakeEmulator()))
    with tracing.cycle("overworld", decision=1):
        emulator.call.frame()
    tracing.shutdown()
    spans = json_objects(stream.getvalue())
    assert [span["name"] for span in spans] == ["emulator.frame", CYCLE_SPAN]
    assert spans[0]["parent_id"] == spans[1]["context"]["span_id"]
    assert spans[1]["resource"]["attributes"]["engine.run_id"] == "run-7"
    assert spans[1]["resource"]["attributes"]["service.name"] == "pokemon-engine"


def test_console_defaults_to_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    tracing = Tracing.from_config(TelemetryConfig(exporter="console"))
    with tracing.cycle("battle", decision=1):
        pass
    tracing.shutdown()
    captured = capsys.readouterr()
    assert CYCLE_SPAN in captured.err and CYCLE_SPAN not in captured.out


@pytest.fixture
def listener() -> Iterator[socket.socket]:
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.bind(("127.0.0.1", 0))
    server.listen(4)
    server.setblocking(False)
    yield server
    server.close()


def test_otlp_points_at_the_endpoint_and_does_not_connect_when_built(listener: socket.socket) -> None:
    port = listener.getsockname()[1]
    config = TelemetryConfig(
        exporter="otlp", otlp_endpoint=f"http://127.0.0.1:{port}", otlp_timeout_seconds=2
    )
    provider = build_tracer_provider(config)
    processors = provider._active_span_processor._span_processors  # type: ignore[attr-defined]
    (processor,) = processors
    exporter = processor.span_exporter
    assert type(exporter).__name__ == "OTLPSpanExporter"
    assert exporter._endpoint == f"127.0.0.1:{port}"
    assert exporter._timeout == 2
    time.sleep(0.3)  # a connection made by the build would be waiting in the listener's queue by now
    with pytest.raises(BlockingIOError):
        listener.accept()
    provider.shutdown()  # nothing batched, so nothing is sent
    with pytest.raises(BlockingIOError):
        listener.accept()


def test_the_trace_context_travels_with_a_call_to_another_thread(
    tracing: Tracing, exporter: InMemorySpanExporter
) -> None:
    assert trace_carrier() is None  # outside any span: nothing to send
    with tracing.cycle("battle", decision=1) as cycle:
        carrier = trace_carrier()
    assert carrier is not None and set(carrier) == {"traceparent"}

    def in_the_actor() -> None:  # as a Ray actor's thread would: no context of its own
        with continued(carrier), tracing.tracer.start_as_current_span("gateway.ask"):
            pass
        with tracing.tracer.start_as_current_span("unrelated"):
            pass

    worker = threading.Thread(target=in_the_actor)
    worker.start()
    worker.join()
    spans = {span.name: span for span in exporter.get_finished_spans()}
    asked, unrelated = spans["gateway.ask"], spans["unrelated"]
    assert asked.context.trace_id == cycle.get_span_context().trace_id
    assert asked.parent is not None and asked.parent.span_id == cycle.get_span_context().span_id
    assert unrelated.parent is None  # the context was detached after the call


def test_otlp_delivers_the_cycle_to_a_collector_on_loopback() -> None:
    with collector_on_loopback() as collector:
        config = TelemetryConfig(exporter="otlp", otlp_endpoint=collector.endpoint)
        telemetry = Telemetry.from_config(config, run_id="run-otlp")
        emulator = telemetry.tracing.wrap(LocalHandle("emulator", FakeEmulator()))
        with telemetry.tracing.cycle("battle", decision=1, battle_id="run-otlp-b001"):
            emulator.call.frame()
        telemetry.shutdown()  # flushes the batch
    assert sorted(span.name for span in collector.spans()) == [CYCLE_SPAN, "emulator.frame"]


@pytest.mark.parametrize(
    "endpoint", ["localhost:4317", "grpc://localhost:4317", "http://host:4317/v1/traces"]
)
def test_an_endpoint_needs_an_http_or_https_scheme_and_nothing_after_the_port(endpoint: str) -> None:
    with pytest.raises(ConfigError, match=r"telemetry\.otlp_endpoint"):
        config_from_mapping({"telemetry": {"otlp_endpoint": endpoint}})


def test_a_tls_endpoint_is_accepted() -> None:
    config = config_from_mapping(
        {"telemetry": {"exporter": "otlp", "otlp_endpoint": "https://collector:4317"}}
    )
    assert config.telemetry.otlp_endpoint == "https://collector:4317"
