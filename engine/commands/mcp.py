"""`engine mcp`: the game as Model Context Protocol tools for an agent outside the engine (docs/mcp.md)."""

from __future__ import annotations

import argparse
from pathlib import Path

from engine.commands.arguments import Subparsers, add_config, port_number

DEFAULT_PORT = 8000
# engine.config's HarnessLevel, spelled out: building the parser imports no pydantic (`engine --help`
# stays instant).
LEVELS = ("engine", "decisions", "buttons", "vision")


def register(commands: Subparsers) -> None:
    mcp = commands.add_parser(
        "mcp",
        help="serve one game as MCP tools (stdio or HTTP) for an agent outside the engine",
        description="Serve one game of Pokémon Red or Blue as Model Context Protocol tools: observe, "
        "screenshot and press_buttons at every harness level; at decisions and engine also goto, talk, "
        "legal_actions, act, objectives, milestones, save_state and load_state. Over stdio the client "
        "starts this command; over HTTP it listens on 127.0.0.1 only. docs/mcp.md has the tools and how "
        "to connect an agent.",
    )
    mcp.add_argument("--rom", type=Path, required=True, help="cartridge image of Pokémon Red or Blue")
    mcp.add_argument("--state", type=Path, help="PyBoy save state made with the same ROM (default: power-on)")
    mcp.add_argument(
        "--harness", choices=LEVELS, default="decisions",
        help="which tools the agent gets (default decisions; docs/harness.md describes the levels)",
    )  # fmt: skip
    mcp.add_argument(
        "--transport", choices=("stdio", "http"), default="stdio",
        help="stdio (the client runs this command) or streamable HTTP (default stdio)",
    )  # fmt: skip
    mcp.add_argument(
        "--port", type=port_number, default=DEFAULT_PORT,
        help=f"with --transport http: the port on 127.0.0.1 (default {DEFAULT_PORT}; 0: any free one)",
    )  # fmt: skip
    add_config(mcp)
    mcp.set_defaults(handler=execute)


def execute(args: argparse.Namespace) -> int:
    from engine.config import load_config
    from engine.emulator.rom import check_rom_file
    from engine.emulator.session import check_state_file
    from engine.mcp_server.app import ServeOptions, serve_game

    config = load_config(args.config)
    check_rom_file(args.rom)  # a bad cartridge or state: one line and exit 2, before anything is served
    if args.state is not None:
        check_state_file(args.rom, args.state, config.emulator)
    state = args.state.read_bytes() if args.state is not None else None
    options = ServeOptions(rom=args.rom, state=state, level=args.harness, transport=args.transport,
                           port=args.port, config=config)  # fmt: skip
    serve_game(options)
    return 0
