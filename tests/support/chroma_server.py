"""`chroma run` as the README starts it, on a free port of this machine, for the length of a block."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

START_SECONDS = 60.0


@contextmanager
def running_chroma(folder: Path) -> Iterator[tuple[str, int]]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    chroma = Path(sys.executable).parent / "chroma"
    server = subprocess.Popen(
        [str(chroma), "run", "--path", str(folder), "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + START_SECONDS
        while not _answers(port):
            if time.monotonic() > deadline or server.poll() is not None:
                raise RuntimeError(f"chroma run did not answer on port {port} within {START_SECONDS:.0f} s")
            time.sleep(0.2)
        yield ("127.0.0.1", port)
    finally:
        server.terminate()
        server.wait(timeout=30)


def _answers(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v2/heartbeat", timeout=2):
            return True
    except OSError:
        return False
