"""`engine mcp` from its options to a serving server: the game opened, its tools on the server, the
transport run until the client leaves (stdio) or the process is stopped (HTTP), the game closed."""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import anyio

from engine.config import EngineConfig, HarnessLevel
from engine.harness.levels import presses_buttons
from engine.mcp_server.server import build_server, serve_http, serve_stdio
from engine.mcp_server.tools import GameTools
from engine.mcp_server.worker import GameWorker
from engine.play.session import GameSession

log = logging.getLogger(__name__)
# The SDK tells of every session and every failed call at INFO; the client has the failures already.
SDK_LOG_LEVEL = logging.WARNING

Transport = Literal["stdio", "http"]
# A verb looks at its own deadline (the config's call_timeout_seconds) only where the game can stop
# cleanly, between two legs of a walk: the call itself is given this much longer before it is answered
# with a timeout.
GRACE_SECONDS = 30.0


@dataclass(frozen=True)
class ServeOptions:
    rom: Path
    state: bytes | None
    level: HarnessLevel
    transport: Transport
    port: int
    config: EngineConfig


def serve_game(options: ServeOptions) -> None:
    """Open the game and serve it. At the engine and decisions levels the game is first brought to where
    the player can walk (the intro from power-on, the options from a save state), as `engine run` does;
    at buttons and vision it is left as the state has it, for the agent's own buttons."""
    logging.getLogger("mcp").setLevel(SDK_LOG_LEVEL)
    start = not presses_buttons(options.level)
    game = GameSession.open(options.rom, options.state, options.config, start=start)
    worker = GameWorker(options.config.runtime.call_timeout_seconds + GRACE_SECONDS)
    try:
        tools = GameTools(game, worker, options.level, options.config.harness.screen_scale)
        tools.keep_start()
        server = build_server(tools)
        if options.transport == "stdio":
            log.info("engine mcp: serving %s over stdio (harness %s)", game.role.game_name(), options.level)
            anyio.run(serve_stdio, server)
        else:
            anyio.run(serve_http, server, options.port, _announce(game, options.level))
    finally:
        worker.close(game.close)


def _announce(game: GameSession, level: HarnessLevel) -> Callable[[str], None]:
    def ready(url: str) -> None:
        # A line of its own on stderr, for a person and for scripts waiting for the server.
        print(f"engine mcp: serving {game.role.game_name()} at {url} (harness {level})", file=sys.stderr,
              flush=True)  # fmt: skip

    return ready
