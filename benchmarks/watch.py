"""What the live page costs a run: `engine run --local --until beat_brock` from power-on, three ways.

    .venv/bin/python -m benchmarks.watch --rom ROM [--rounds 2]

1. no `--watch`; 2. `--watch` with no one looking; 3. `--watch` with a page open (a client that follows
`/events` and fetches `/screen.png` at each event, as the page does). Printed: emulated frames per wall
second of the whole run (frames and wall time from its summary.json), the median over the rounds, and how
many views the client received. Run from the repository root.
"""

from __future__ import annotations

import argparse
import json
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ENGINE = str(Path(sys.executable).parent / "engine")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def follow(port: int, seen: list[int], stop: threading.Event) -> None:
    """The page's traffic: the event stream, and the screen after each view."""
    deadline = time.monotonic() + 60
    while not stop.is_set() and time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/events", timeout=30) as stream:
                for line in stream:
                    if stop.is_set():
                        return
                    if line.startswith(b"data: "):
                        seen.append(json.loads(line[6:])["version"])
                        urllib.request.urlopen(f"http://127.0.0.1:{port}/screen.png", timeout=5).read()
        except OSError:
            time.sleep(0.05)  # the run has not opened the page yet, or has ended


def play(rom: Path, mode: str) -> tuple[float, int]:
    with tempfile.TemporaryDirectory() as data:
        command = [ENGINE, "run", "--rom", str(rom), "--local", "--data-dir", data, "--until", "beat_brock"]
        port = free_port()
        if mode != "off":
            command += ["--watch", str(port)]
        seen: list[int] = []
        stop = threading.Event()
        client = threading.Thread(target=follow, args=(port, seen, stop), daemon=True)
        if mode == "page":
            client.start()
        subprocess.run(command, check=True, capture_output=True)
        stop.set()
        summary = json.loads(next(Path(data, "runs").iterdir()).joinpath("summary.json").read_text())
    return summary["frames"] / summary["wall_seconds"], len(seen)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rom", type=Path, required=True)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    for mode, label in (
        ("off", "no --watch"),
        ("idle", "--watch, no page open"),
        ("page", "--watch, page open"),
    ):
        rates, views = [], []
        for _ in range(args.rounds):
            rate, seen = play(args.rom, mode)
            rates.append(rate)
            views.append(seen)
        print(f"{label:<24} {statistics.median(rates):>9,.0f} frames/s  (views received: {views})")


if __name__ == "__main__":
    main()
