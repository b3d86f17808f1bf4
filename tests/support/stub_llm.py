"""A local HTTP server that answers like the Anthropic Messages API and OpenAI Chat Completions.

The real SDK clients talk to it over loopback, so a test exercises everything down to the bytes on the
wire: request building, headers, timeouts, status handling and (with strict validation) the response
shape. What it answers is decided by a responder, a function from the request to a `StubReply`:

    with StubLLMServer(script(StubReply(status=429), StubReply(text='{"move": 1}'))) as server:
        tier = ModelTierConfig(provider="anthropic", model="m", base_url=server.anthropic_base_url)
        client = build_client(tier, "key", strict=True)

`server.requests` keeps every request, and `server.errors` whatever the responder raised.
"""

from __future__ import annotations

import itertools
import json
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal

Wire = Literal["anthropic", "openai"]

PATHS: dict[str, Wire] = {"/v1/messages": "anthropic", "/v1/chat/completions": "openai"}

ANTHROPIC_ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
    529: "overloaded_error",
}
OPENAI_ERROR_TYPES = {
    400: "invalid_request_error",
    401: "invalid_request_error",
    403: "invalid_request_error",
    404: "invalid_request_error",
    422: "invalid_request_error",
    429: "rate_limit_exceeded",
}


@dataclass(frozen=True)
class StubRequest:
    """One request as the server saw it. Header names are lower-cased."""

    wire: Wire
    body: dict[str, Any]
    headers: dict[str, str]
    path: str

    @property
    def system_text(self) -> str:
        if self.wire == "anthropic":
            return _joined_text(self.body.get("system", ""))
        system = [m for m in self.body.get("messages", []) if m.get("role") in ("system", "developer")]
        return "\n".join(_joined_text(message.get("content", "")) for message in system)

    @property
    def last_user_text(self) -> str:
        users = [m for m in self.body.get("messages", []) if m.get("role") == "user"]
        return _joined_text(users[-1].get("content", "")) if users else ""

    @property
    def image_count(self) -> int:
        return len(self.images_base64)

    @property
    def images_base64(self) -> list[str]:
        """The base64 data of every image in every message, in order."""
        return [data for part in self._parts() if (data := _image_data(self.wire, part)) is not None]

    def _parts(self) -> Iterator[dict[str, Any]]:
        for message in self.body.get("messages", []):
            content = message.get("content")
            if isinstance(content, list):
                yield from (part for part in content if isinstance(part, dict))


@dataclass(frozen=True)
class StubReply:
    """What to answer. A non-200 status sends the provider's error body, with `text` as its message."""

    text: str = ""
    status: int = 200
    input_tokens: int = 10
    output_tokens: int = 5
    delay_s: float = 0.0
    # Sent as is, with the status, instead of a well-formed body.
    raw_body: bytes | None = None
    headers: dict[str, str] = field(default_factory=dict)


Responder = Callable[[StubRequest], StubReply]


def always(reply: StubReply) -> Responder:
    return lambda _request: reply


def script(*replies: StubReply) -> Responder:
    """Replies in order, then the last one for ever."""
    if not replies:
        raise ValueError("script needs at least one reply")
    lock = threading.Lock()
    counter = itertools.count()

    def respond(_request: StubRequest) -> StubReply:
        with lock:
            index = next(counter)
        return replies[min(index, len(replies) - 1)]

    return respond


class StubLLMServer:
    def __init__(self, responder: Responder | None = None) -> None:
        self._lock = threading.Lock()
        self._responder = responder or always(StubReply(text="ok"))
        self._requests: list[StubRequest] = []
        self._errors: list[BaseException] = []
        self._ids = itertools.count(1)
        # Set on stop, so replies still sleeping out a delay end at once.
        self._stopping = threading.Event()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    @property
    def responder(self) -> Responder:
        with self._lock:
            return self._responder

    @responder.setter
    def responder(self, responder: Responder) -> None:
        with self._lock:
            self._responder = responder

    @property
    def requests(self) -> list[StubRequest]:
        """A copy of every request received so far, oldest first."""
        with self._lock:
            return list(self._requests)

    @property
    def errors(self) -> list[BaseException]:
        """What the responder raised: those requests got a 500 naming the error, so check this is empty."""
        with self._lock:
            return list(self._errors)

    @property
    def port(self) -> int:
        if self._server is None:
            raise RuntimeError("the stub server is not running")
        return int(self._server.server_address[1])

    @property
    def anthropic_base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def openai_base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> StubLLMServer:
        if self._server is not None:
            raise RuntimeError("the stub server is already running")
        self._stopping.clear()
        self._server = _Server(("127.0.0.1", 0), _Handler, self)
        # A short poll interval: shutdown() waits for the serving loop to notice.
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        server, thread = self._server, self._thread
        if server is None:
            return
        self._stopping.set()
        server.shutdown()
        server.server_close()
        if thread is not None:
            thread.join(timeout=5)
        self._server = self._thread = None

    def __enter__(self) -> StubLLMServer:
        return self.start()

    def __exit__(self, *_exc: object) -> None:
        self.stop()

    def _record(self, request: StubRequest) -> Responder:
        with self._lock:
            self._requests.append(request)
            return self._responder

    def _answer(self, request: StubRequest) -> tuple[int, bytes, dict[str, str]]:
        responder = self._record(request)
        try:
            reply = responder(request)
        except Exception as exc:
            with self._lock:
                self._errors.append(exc)
            reply = StubReply(status=500, text=f"stub responder raised {exc!r}")
        if reply.delay_s > 0:
            self._stopping.wait(reply.delay_s)
        headers = {"Content-Type": "application/json", **reply.headers}
        if reply.raw_body is not None:
            return reply.status, reply.raw_body, headers
        if reply.status != 200:
            return reply.status, _error_body(request.wire, reply), headers
        return 200, _success_body(request, reply, next(self._ids)), headers


class _Server(ThreadingHTTPServer):
    # Handler threads may be sleeping out a delay for a client that gave up: never wait for them.
    daemon_threads = True
    block_on_close = False

    def __init__(self, address: tuple[str, int], handler: type[_Handler], stub: StubLLMServer) -> None:
        self.stub = stub
        super().__init__(address, handler)

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A client that timed out closes its socket mid-reply: expected here, not worth a traceback.
        if not isinstance(sys.exc_info()[1], ConnectionError | TimeoutError):
            super().handle_error(request, client_address)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as the SDKs' connection pools expect
    # Headers and body go out in two writes; with Nagle's algorithm and the client's delayed ACK the
    # second waits ~40 ms, which would be measured as the engine's overhead.
    disable_nagle_algorithm = True
    # Idle keep-alive connections end after this long instead of holding a thread for ever.
    timeout = 5.0
    server: _Server

    def do_POST(self) -> None:
        wire = PATHS.get(self.path.split("?", 1)[0])
        body = self._read_json()
        if wire is None or body is None:
            reason = "unknown path" if wire is None else "body is not a JSON object"
            self._send(404 if wire is None else 400, json.dumps({"error": reason}).encode(), {})
            return
        headers = {name.lower(): value for name, value in self.headers.items()}
        request = StubRequest(wire=wire, body=body, headers=headers, path=self.path)
        self._send(*self.server.stub._answer(request))

    def _read_json(self) -> dict[str, Any] | None:
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        try:
            body = json.loads(raw or b"null")
        except ValueError:
            return None
        return body if isinstance(body, dict) else None

    def _send(self, status: int, body: bytes, headers: dict[str, str]) -> None:
        try:
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        except OSError:
            self.close_connection = True

    def log_message(self, format: str, *args: Any) -> None:
        pass


def _success_body(request: StubRequest, reply: StubReply, serial: int) -> bytes:
    model = request.body.get("model", "stub-model")
    if request.wire == "anthropic":
        body: dict[str, Any] = {
            "id": f"msg_stub{serial:08d}",
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": [{"type": "text", "text": reply.text}],
            "stop_reason": "end_turn",
            "stop_sequence": None,
            "usage": {"input_tokens": reply.input_tokens, "output_tokens": reply.output_tokens},
        }
    else:
        body = {
            "id": f"chatcmpl-stub{serial:08d}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": model,
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": reply.text, "refusal": None},
                    "finish_reason": "stop",
                    "logprobs": None,
                }
            ],
            "usage": {
                "prompt_tokens": reply.input_tokens,
                "completion_tokens": reply.output_tokens,
                "total_tokens": reply.input_tokens + reply.output_tokens,
            },
        }
    return json.dumps(body).encode()


def _error_body(wire: Wire, reply: StubReply) -> bytes:
    message = reply.text or f"stub error {reply.status}"
    if wire == "anthropic":
        kind = ANTHROPIC_ERROR_TYPES.get(reply.status, "api_error")
        return json.dumps({"type": "error", "error": {"type": kind, "message": message}}).encode()
    kind = OPENAI_ERROR_TYPES.get(reply.status, "server_error")
    return json.dumps({"error": {"message": message, "type": kind, "param": None, "code": None}}).encode()


def _joined_text(content: object) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = [
            part.get("text", "") for part in content if isinstance(part, dict) and part.get("type") == "text"
        ]
        return "\n".join(texts)
    return ""


def _image_data(wire: Wire, part: dict[str, Any]) -> str | None:
    if wire == "anthropic" and part.get("type") == "image":
        return str(part.get("source", {}).get("data", ""))
    if wire == "openai" and part.get("type") == "image_url":
        url = str(part.get("image_url", {}).get("url", ""))
        return url.split(";base64,", 1)[1] if ";base64," in url else url
    return None
