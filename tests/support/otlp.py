"""An OTLP/gRPC trace collector on loopback for tests: it keeps every span it is sent."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent import futures
from contextlib import contextmanager
from typing import Any

import grpc
from opentelemetry.proto.collector.trace.v1 import trace_service_pb2, trace_service_pb2_grpc


class Collector(trace_service_pb2_grpc.TraceServiceServicer):
    def __init__(self) -> None:
        self.requests: list[trace_service_pb2.ExportTraceServiceRequest] = []
        self.endpoint = ""

    def Export(self, request: Any, context: Any) -> trace_service_pb2.ExportTraceServiceResponse:
        self.requests.append(request)
        return trace_service_pb2.ExportTraceServiceResponse()

    def spans(self) -> list[Any]:
        """Every span received, as OTLP protobuf spans."""
        return [span for request in self.requests for resource in request.resource_spans
                for scope in resource.scope_spans for span in scope.spans]  # fmt: skip


def attributes(span: Any) -> dict[str, Any]:
    """An OTLP span's attributes as plain values."""
    found: dict[str, Any] = {}
    for pair in span.attributes:
        value = pair.value
        found[pair.key] = getattr(value, value.WhichOneof("value")) if value.WhichOneof("value") else None
    return found


@contextmanager
def collector_on_loopback() -> Iterator[Collector]:
    collector = Collector()
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
    trace_service_pb2_grpc.add_TraceServiceServicer_to_server(collector, server)
    port = server.add_insecure_port("127.0.0.1:0")
    collector.endpoint = f"http://127.0.0.1:{port}"
    server.start()
    try:
        yield collector
    finally:
        server.stop(grace=None)
