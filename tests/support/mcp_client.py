"""`engine mcp` as its clients meet it: spawned over stdio by the SDK's client, or started over HTTP in a
process of its own and connected to with the SDK's streamable HTTP client."""

from __future__ import annotations

import base64
import re
import struct
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, StdioServerParameters
from mcp_types import CallToolResult, ImageContent, TextContent

from tests.conftest import REPO_ROOT

START_SECONDS = 120.0  # guards against hanging only: a server starts in a few seconds
CALL_SECONDS = 120.0
READY = re.compile(r"serving \S+ at (http://\S+) ")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

Session = Callable[[Client], Awaitable[None]]


def engine_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "engine.cli", "mcp", *args]


def stdio_server(*args: str) -> StdioServerParameters:
    command = engine_command(*args)
    return StdioServerParameters(command=command[0], args=command[1:], cwd=REPO_ROOT)


def play_over_stdio(session: Session, *args: str) -> None:
    """`session` with a client of `engine mcp ARGS` over stdio (the client starts the server)."""

    async def main() -> None:
        with anyio.fail_after(START_SECONDS + CALL_SECONDS):
            async with Client(stdio_server(*args), read_timeout_seconds=CALL_SECONDS) as client:
                await session(client)

    anyio.run(main)


@contextmanager
def http_server(tmp_path: Path, *args: str) -> Iterator[str]:
    """`engine mcp ARGS --transport http --port 0` in a process of its own; yields its URL once it
    listens, and stops it (SIGTERM) afterwards."""
    stderr_path = tmp_path / "server-stderr.txt"
    command = engine_command(*args, "--transport", "http", "--port", "0")
    with stderr_path.open("wb") as stderr:
        process = subprocess.Popen(command, cwd=REPO_ROOT, stdin=subprocess.DEVNULL,
                                   stdout=subprocess.DEVNULL, stderr=stderr)  # fmt: skip
    try:
        yield _wait_for_url(process, stderr_path)
    finally:
        process.terminate()
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _wait_for_url(process: subprocess.Popen[bytes], stderr_path: Path) -> str:
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        found = READY.search(stderr_path.read_text(encoding="utf-8", errors="replace"))
        if found is not None:
            return found.group(1)
        if process.poll() is not None:
            raise AssertionError(f"the server ended early:\n{stderr_path.read_text(errors='replace')}")
        time.sleep(0.05)
    raise AssertionError(f"the server never listened:\n{stderr_path.read_text(errors='replace')}")


def play_over_http(url: str, session: Session) -> None:
    async def main() -> None:
        with anyio.fail_after(START_SECONDS + CALL_SECONDS):
            async with Client(url, read_timeout_seconds=CALL_SECONDS) as client:
                await session(client)

    anyio.run(main)


async def tool_names(client: Client) -> list[str]:
    return [tool.name for tool in (await client.list_tools()).tools]


def text_of(result: CallToolResult) -> str:
    return "\n".join(block.text for block in result.content if isinstance(block, TextContent))


def structured(result: CallToolResult) -> dict[str, Any]:
    assert not result.is_error, text_of(result)
    assert isinstance(result.structured_content, dict)
    return result.structured_content


def png_of(result: CallToolResult) -> bytes:
    """The PNG a screenshot answered with."""
    assert not result.is_error, text_of(result)
    (image,) = result.content
    assert isinstance(image, ImageContent) and image.mime_type == "image/png"
    return base64.b64decode(image.data)


def png_size(png: bytes) -> tuple[int, int]:
    """(width, height) from the PNG's IHDR chunk."""
    assert png.startswith(PNG_SIGNATURE)
    width, height = struct.unpack(">II", png[16:24])
    return width, height
