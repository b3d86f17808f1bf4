"""The live page's server: the standard library's threading HTTP server, nothing fetched from elsewhere.

/              the page (package data: watch/page.html), which listens to /events
/events        server-sent events: the view as JSON each time the run publishes one
/api/state     the newest view as JSON
/screen.png    the newest game screen, 160 x 144
"""

from __future__ import annotations

import json
import logging
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources

from engine.watch.view import LiveBoard, LiveView

log = logging.getLogger("engine.watch")
EVENT_WAIT_SECONDS = 10.0  # an SSE stream sends a comment this often when nothing changed (keep-alive)
LOOPBACK = ("127.0.0.1", "localhost", "::1")


def page_html() -> bytes:
    return resources.files("engine.watch").joinpath("page.html").read_bytes()


class WatchServer:
    """Serves one board on (host, port) from a daemon thread; port 0 picks a free one."""

    def __init__(self, board: LiveBoard, host: str = "127.0.0.1", port: int = 0) -> None:
        self.board = board
        handler = type("Handler", (_Handler,), {"board": board, "page": page_html()})
        self.httpd = ThreadingHTTPServer((host, port), handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, name="watch-server", daemon=True)

    @property
    def url(self) -> str:
        host, port = self.httpd.server_address[:2]
        shown = host.decode() if isinstance(host, bytes) else host
        return f"http://{shown}:{port}/"

    def start(self) -> WatchServer:
        self.thread.start()
        return self

    def stop(self) -> None:
        # shutdown() waits for serve_forever to end: on a server never started it would wait for ever.
        if self.thread.is_alive():
            self.httpd.shutdown()
        self.httpd.server_close()


class _Handler(BaseHTTPRequestHandler):
    board: LiveBoard
    page: bytes

    def do_GET(self) -> None:
        path = self.path.split("?", 1)[0]
        if path == "/":
            self._send(200, "text/html; charset=utf-8", self.page)
        elif path == "/api/state":
            self._send(200, "application/json", self._state_json(self.board.fresh()))
        elif path == "/screen.png":
            _, _, screen = self.board.fresh()
            self._send(200 if screen else 404, "image/png", screen)
        elif path == "/events":
            self._stream()
        else:
            self._send(404, "text/plain", b"not found")

    def _state_json(self, latest: tuple[int, LiveView | None, bytes] | None = None) -> bytes:
        version, view, _ = latest or self.board.latest()
        body = {"version": version, "view": view.model_dump(mode="json") if view is not None else None}
        return json.dumps(body).encode()

    def _send(self, status: int, kind: str, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def _stream(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        seen = -1
        self.board.streaming(opened=True)
        try:
            while True:
                version = self.board.wait_newer(seen, EVENT_WAIT_SECONDS)
                if version == seen:
                    self.wfile.write(b": still here\n\n")
                else:
                    seen = version
                    self.wfile.write(b"data: " + self._state_json() + b"\n\n")
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            return  # the page was closed
        finally:
            self.board.streaming(opened=False)

    def log_message(self, format: str, *args: object) -> None:
        log.debug("watch: " + format, *args)
