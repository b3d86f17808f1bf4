"""The MCP server on the official SDK's `MCPServer`: one game, the tools of one harness level, served over
stdio (one client: the process that started us) or streamable HTTP on this machine.

One game per server process. Over stdio that is one game per session, as a client starts a server of
its own. Over HTTP every client that connects plays the same game, one call at a time: start one
server per agent (on another port) for a game each.
"""

from __future__ import annotations

import logging
import socket
from collections.abc import Callable
from typing import Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp_types import CallToolResult, InputRequiredResult, ToolAnnotations
from pydantic import ValidationError

from engine import __version__
from engine.config import HarnessLevel
from engine.harness.levels import LEVEL_WORDS
from engine.mcp_server.tools import GameTools

log = logging.getLogger(__name__)

LOOPBACK = "127.0.0.1"
HTTP_PATH = "/mcp"
BACKLOG = 64
# Looking changes nothing in the game (a screenshot renders a frame, which the game does not notice).
READ_ONLY = frozenset({"observe", "screenshot", "legal_actions", "objectives", "milestones", "save_state"})


def instructions(level: HarnessLevel) -> str:
    return (
        f"Pokémon Red/Blue on an emulator, played at the harness level '{level}' ({LEVEL_WORDS[level]}). "
        "One game for this server: call observe (or screenshot) to see it, then act. "
        + (
            "Only the screen is yours to see: observe reads it from its pixels."
            if level == "vision"
            else "Positions are (x, y) squares on the map; press_buttons moves one square per direction."
        )
    )


class GameServer(MCPServer[Any]):
    """The SDK's server, but arguments of the wrong shape are told in one line ("act: action_id: Field
    required") rather than the SDK's multi-line dump of pydantic's report."""

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> CallToolResult | InputRequiredResult:
        try:
            return await super().call_tool(name, arguments, context)
        except UnexpectedToolError:
            raise
        except ToolError as exc:
            if isinstance(exc.__cause__, ValidationError):
                raise ToolError(one_line(name, exc.__cause__)) from exc.__cause__
            raise


def one_line(tool: str, error: ValidationError) -> str:
    """Each wrong argument as `name: what is wrong`, the values left out (they are the caller's data)."""
    wrong = ("; ".join(f"{'.'.join(str(part) for part in item['loc']) or 'arguments'}: {item['msg']}"
                       for item in error.errors(include_url=False, include_input=False)))  # fmt: skip
    return f"{tool}: {' '.join(wrong.split())}"


def build_server(tools: GameTools) -> MCPServer[Any]:
    server: MCPServer[Any] = GameServer(
        name="pokemon-engine",
        title="Pokémon Red/Blue",
        instructions=instructions(tools.level),
        version=__version__,
        log_level="WARNING",
    )
    for name, function in tools.tool_functions().items():
        hints = ToolAnnotations(read_only_hint=name in READ_ONLY, open_world_hint=False)
        server.add_tool(function, name=name, annotations=hints, structured_output=False)
    return server


async def serve_stdio(server: MCPServer[Any]) -> None:
    """Until the client closes our stdin."""
    await server.run_stdio_async()


async def serve_http(server: MCPServer[Any], port: int, on_ready: Callable[[str], None]) -> None:
    """On 127.0.0.1 only (`port` 0: any free one); `on_ready` is told the URL once it listens."""
    import uvicorn

    listening = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listening.bind((LOOPBACK, port))
    except OSError as exc:
        listening.close()
        raise OSError(f"cannot listen on {LOOPBACK}:{port}: {exc.strerror}") from exc
    listening.listen(BACKLOG)  # from here a client is queued, not refused, while the server starts
    app = server.streamable_http_app(streamable_http_path=HTTP_PATH, host=LOOPBACK)
    config = uvicorn.Config(app, log_level="warning", lifespan="on")
    url = f"http://{LOOPBACK}:{listening.getsockname()[1]}{HTTP_PATH}"
    web = uvicorn.Server(config)
    on_ready(url)
    await web.serve(sockets=[listening])
