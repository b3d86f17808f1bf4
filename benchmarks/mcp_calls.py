"""Time per MCP tool call of `engine mcp`, over stdio and over HTTP, with the SDK's own client.

    .venv/bin/python -m benchmarks.mcp_calls --rom ROM [--state FILE] [--rounds 20] [--transcript]

The server starts at the decisions level (from power-on when no state is given: the engine plays the
intro before serving, which is not timed). Each round calls observe, screenshot, press_buttons (B, which
changes nothing in the overworld) and goto, alternating between the two floors of the player's house (a
state elsewhere walks there first). Prints, per transport and tool, the median and the slowest call in
milliseconds as the client sees them (the round trip and the game's work), and "start": from starting
the server's process to the client's first answer. With --transcript it prints
instead one short session over stdio as an agent would see it, for docs/mcp.md.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, StdioServerParameters
from mcp_types import CallToolResult, ImageContent, TextContent

FLOORS = ("REDS_HOUSE_1F", "REDS_HOUSE_2F")
TOOLS = ("observe", "screenshot", "press_buttons", "goto")
READY = re.compile(r"serving \S+ at (http://\S+) ")
START_SECONDS = 120.0

Session = Callable[[Client], Awaitable[None]]


def server_args(rom: Path, state: Path | None) -> list[str]:
    return ["mcp", "--rom", str(rom), "--harness", "decisions", *(["--state", str(state)] if state else [])]


def over_stdio(args: list[str], session: Session) -> None:
    params = StdioServerParameters(command=sys.executable, args=["-m", "engine.cli", *args])

    async def main() -> None:
        async with Client(params) as client:
            await session(client)

    anyio.run(main)


def over_http(args: list[str], session: Session) -> None:
    command = [sys.executable, "-m", "engine.cli", *args, "--transport", "http", "--port", "0"]
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True)  # fmt: skip
    try:
        url = _url(process)

        async def main() -> None:
            async with Client(url) as client:
                await session(client)

        anyio.run(main)
    finally:
        process.terminate()
        process.wait(30)


def _url(process: subprocess.Popen[str]) -> str:
    assert process.stderr is not None
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        line = process.stderr.readline()
        found = READY.search(line)
        if found is not None:
            return found.group(1)
        if not line and process.poll() is not None:
            raise SystemExit("the HTTP server ended before it listened")
    raise SystemExit("the HTTP server never listened")


async def call(client: Client, name: str, arguments: dict[str, Any]) -> CallToolResult:
    result = await client.call_tool(name, arguments)
    if result.is_error:
        raise SystemExit(f"{name} failed: {words(result)}")
    return result


def words(result: CallToolResult) -> str:
    parts = []
    for block in result.content:
        if isinstance(block, TextContent):
            parts.append(block.text)
        elif isinstance(block, ImageContent):
            parts.append(f"[{block.mime_type} image, {len(block.data) * 3 // 4} bytes]")
    return "\n".join(parts)


def timing(rounds: int, times: dict[str, list[float]], began: float) -> Session:
    async def session(client: Client) -> None:
        times["start"].append(1000 * (time.perf_counter() - began))  # the process started, the game opened
        where = (await call(client, "observe", {})).structured_content or {}
        if where.get("map") not in FLOORS:
            await call(client, "goto", {"place": FLOORS[1]})
        arguments = {"observe": {}, "screenshot": {}, "press_buttons": {"buttons": ["b"]}}
        for number in range(rounds):
            for tool in TOOLS:
                given = arguments.get(tool) or {"place": FLOORS[number % 2]}
                started = time.perf_counter()
                await call(client, tool, given)
                times[tool].append(1000 * (time.perf_counter() - started))

    return session


async def transcript(client: Client) -> None:
    """One short session, printed as the agent sees it."""
    steps: list[tuple[str, dict[str, Any]]] = [
        ("observe", {}),
        ("screenshot", {"scale": 1}),
        ("press_buttons", {"buttons": ["down", "down"]}),
        ("goto", {"place": "PALLET_TOWN"}),
        ("observe", {}),
    ]
    for name, arguments in steps:
        print(f"> {name} {arguments}")
        print(words(await call(client, name, arguments)))
        print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rom", type=Path, default=os.environ.get("POKEMON_ROM"))
    parser.add_argument("--state", type=Path, help="a save state to start from (default: power-on)")
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--transcript", action="store_true", help="print one short session instead")
    args = parser.parse_args()
    if args.rom is None:
        parser.error("give --rom or set POKEMON_ROM")
    command = server_args(args.rom, args.state)
    if args.transcript:
        over_stdio(command, transcript)
        return
    print(f"{args.rounds} rounds a transport; milliseconds per call as the client sees it")
    print(f"{'transport':<10}{'tool':<15}{'median':>8}{'slowest':>9}")
    for name, transport in (("stdio", over_stdio), ("http", over_http)):
        times: dict[str, list[float]] = {tool: [] for tool in ("start", *TOOLS)}
        transport(command, timing(args.rounds, times, time.perf_counter()))
        for tool in ("start", *TOOLS):
            print(f"{name:<10}{tool:<15}{statistics.median(times[tool]):>8.1f}{max(times[tool]):>9.1f}")


if __name__ == "__main__":
    main()
