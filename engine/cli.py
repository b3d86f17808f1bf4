"""The `engine` console script: one parser per subcommand (engine/commands/), errors as one line."""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence

from engine import __version__
from engine.commands import (
    arena,
    checkpoints,
    export,
    goto,
    inspect,
    lessons,
    llm_log,
    mcp,
    minimap,
    plain_state,
    reflect,
    replay,
    run,
    stats,
    status,
    story,
    watch,
)
from engine.errors import EngineError, UserInputError
from engine.runtime.logs import terminal_handler
from engine.runtime.signals import STOP_WORDS, TRAP, signal_exit_code, signal_of

log = logging.getLogger("engine")
SUBCOMMANDS = (
    inspect,
    run,
    goto,
    minimap,
    status,
    llm_log,
    lessons,
    reflect,
    replay,
    checkpoints,
    plain_state,
    story,
    export,
    stats,
    watch,
    arena,
    mcp,
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="engine",
        description="An actor-model engine that plays Pokémon Red/Blue on the PyBoy emulator. "
        "Bring your own cartridge image (ROM).",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for subcommand in SUBCOMMANDS:
        subcommand.register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO, handlers=[terminal_handler()])
    # SIGTERM and SIGHUP end every command as Ctrl-C does (and Ctrl-C works even where the shell that
    # started us ignored it); `engine run` stops cleanly on them (engine.runtime.signals).
    with TRAP.installed():
        return _handle(args)


def _handle(args: argparse.Namespace) -> int:
    try:
        code: int = args.handler(args)
        return code
    except UserInputError as exc:
        print(f"engine: error: {exc}", file=sys.stderr)
        return 2
    except EngineError as exc:
        # Not the user's input but no bug either (a Chroma server that is down, a cluster that went
        # away): one line, like every other message of ours.
        print(f"engine: error: {exc}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        # The reader went away (e.g. `engine inspect ... | head`): not an error of ours.
        sys.stderr.close()
        return 0
    except KeyboardInterrupt as exc:
        signal = signal_of(exc)
        print(f"engine: {STOP_WORDS[signal]}", file=sys.stderr)
        return signal_exit_code(signal)


if __name__ == "__main__":
    raise SystemExit(main())
