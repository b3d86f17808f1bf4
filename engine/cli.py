"""The `engine` console script."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Sequence
from pathlib import Path

from engine import __version__
from engine.arguments import non_negative, positive
from engine.checkpoints.command import add_checkpoints_parser, run_checkpoints
from engine.errors import EngineError, UserInputError
from engine.replay.command import add_replay_parser, run_replay
from engine.runtime.logs import terminal_handler

log = logging.getLogger("engine")


def _existing_dir(value: str) -> Path:
    path = Path(value)
    if not path.is_dir():
        raise argparse.ArgumentTypeError(f"not a directory: {value}")
    return path


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="engine",
        description="An actor-model engine that plays Pokémon Red/Blue on the PyBoy emulator. "
        "Bring your own cartridge image (ROM).",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    inspect = commands.add_parser(
        "inspect",
        help="print the decoded game state as JSON",
        description="Decode the game state (decision point, party, battle, overworld, progress, bag and "
        "on-screen text) and print it as JSON on stdout. Reads a ROM plus optional save state, or a RAM "
        "capture folder (wram.bin, hram.bin, tilemaps.bin, io.json).",
    )
    source = inspect.add_mutually_exclusive_group(required=True)
    source.add_argument("--rom", type=Path, help="cartridge image of Pokémon Red or Blue")
    source.add_argument(
        "--capture", type=_existing_dir, help="a RAM/tile-map capture folder instead of a ROM"
    )
    inspect.add_argument("--state", type=Path, help="PyBoy save state made with the same ROM")
    inspect.add_argument(
        "--frames",
        type=non_negative,
        default=0,
        help="frames to run before decoding (default 0; a fresh boot needs ~300 to show anything)",
    )
    inspect.add_argument("--config", type=Path, help="YAML config overlaying configs/default.yaml")
    _add_run_parser(commands)
    _add_status_parser(commands)
    _add_llm_log_parser(commands)
    _add_lessons_parser(commands)
    _add_reflect_parser(commands)
    add_replay_parser(commands)
    add_checkpoints_parser(commands)
    return parser


def _add_run_parser(commands: argparse._SubParsersAction) -> None:
    run = commands.add_parser(
        "run",
        help="play the game: battles with the battle policy, exploring in between",
        description="Play from power-on (or from --state): new game and names, then battles whenever they "
        "happen and exploration in between. Progress goes to stderr and runs/<run id>/run.log; the summary "
        "JSON to runs/<run id>/summary.json (and --summary FILE). Ctrl-C stops cleanly.",
    )
    run.add_argument("--rom", type=Path, required=True, help="cartridge image of Pokémon Red or Blue")
    run.add_argument("--state", type=Path, help="PyBoy save state made with the same ROM")
    run.add_argument("--config", type=Path, help="YAML config overlaying configs/default.yaml")
    where = run.add_mutually_exclusive_group()
    where.add_argument("--local", action="store_true", help="run every role in this process")
    where.add_argument(
        "--address",
        metavar="ADDR",
        help="run the roles as actors on the Ray cluster at ADDR ('auto': the one `ray start --head` "
        "started on this machine); without --address or --local, on a private Ray instance for this run",
    )
    run.add_argument("--max-battles", type=positive, help="stop once this many battles have ended")
    run.add_argument("--max-decisions", type=positive, help="stop after this many decisions")
    run.add_argument("--summary", type=Path, help="also write the summary JSON to this file")
    run.add_argument(
        "--data-dir",
        type=Path,
        default=Path("."),
        help="holds checkpoints/, runs/<run id>/ and memory/ (default: the current directory)",
    )
    run.add_argument("--seed", type=non_negative, default=0, help="seed of the exploring walk (default 0)")
    run.add_argument(
        "--resume",
        metavar="CHECKPOINT",
        help="carry on a run from a checkpoint: 'latest' (the newest under --data-dir that verifies), a "
        "checkpoint folder, or RUN_ID[/SEQ] (see `engine checkpoints list`); the run id, its logs, "
        "memory and summary carry on, and --max-battles/--max-decisions count over the whole run",
    )


def _add_status_parser(commands: argparse._SubParsersAction) -> None:
    status = commands.add_parser(
        "status",
        help="print the state of the engine running on a Ray cluster",
        description="Ask the live conductor(s) in the namespace for their run: run id, state, current "
        "battle or map, decisions, frames, last checkpoint tick and each role's health. Exit code 1 "
        "when no engine is running.",
    )
    status.add_argument(
        "--address",
        metavar="ADDR",
        default="auto",
        help="the Ray cluster to ask (default 'auto': the one running on this machine)",
    )
    status.add_argument(
        "--namespace", metavar="NS", help="Ray namespace of the runs (default: from the config)"
    )
    status.add_argument("--config", type=Path, help="YAML config overlaying configs/default.yaml")
    status.add_argument("--json", action="store_true", help="print JSON instead of text")


def _add_llm_log_parser(commands: argparse._SubParsersAction) -> None:
    llm_log = commands.add_parser(
        "llm-log",
        help="show the latest model calls of a run",
        description="Print the latest entries of runs/<run id>/llm.jsonl: role, tier, model, tokens, cost, "
        "latency, circuit breaker state, validation result, and the start of each prompt and answer "
        "(API keys are redacted when the log is written).",
    )
    llm_log.add_argument(
        "--data-dir", type=Path, default=Path("."), help="the run's data directory (default: here)"
    )
    llm_log.add_argument("--run", metavar="RUN_ID", help="which run (default: the newest)")
    llm_log.add_argument("-n", "--last", type=positive, default=20, help="how many entries (default 20)")
    llm_log.add_argument("--full", action="store_true", help="whole prompts and answers, not previews")
    llm_log.add_argument("--json", action="store_true", help="print the entries as JSON lines")


def _memory_source(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--data-dir", type=Path, default=Path("."), help="whose memory/ and runs/ (default: here)"
    )
    command.add_argument(
        "--address",
        metavar="ADDR",
        help="ask the engine running on this Ray cluster instead ('auto': the one on this machine); "
        "needed while that engine has the data directory's memory open",
    )
    command.add_argument("--config", type=Path, help="YAML config overlaying configs/default.yaml")
    command.add_argument("--json", action="store_true", help="print a JSON report on stdout")


def _add_lessons_parser(commands: argparse._SubParsersAction) -> None:
    lessons = commands.add_parser(
        "lessons",
        help="show the lessons learned from battles",
        description="Show lesson memory: kind, confidence now (after decay with play time) and as "
        "stored, evidence (battles), structured keys, measured numbers and text.",
    )
    actions = lessons.add_subparsers(dest="action", metavar="ACTION", required=True)
    listing = actions.add_parser("list", help="newest first", description="Lessons, newest first.")
    listing.add_argument(
        "--kind",
        choices=["type_matchup", "move", "opponent", "resource", "sequence"],
        help="only this kind",
    )
    listing.add_argument("-n", "--last", type=positive, default=50, help="how many (default 50)")
    _memory_source(listing)
    search = actions.add_parser(
        "search", help="by relevance to a text", description="Lessons ranked by relevance to QUERY."
    )
    search.add_argument("query", help='e.g. "SQUIRTLE vs ONIX ROCK GROUND"')
    search.add_argument("-n", "--last", type=positive, default=10, help="how many (default 10)")
    _memory_source(search)


def _add_reflect_parser(commands: argparse._SubParsersAction) -> None:
    reflect = commands.add_parser(
        "reflect",
        help="re-run reflection on a stored battle",
        description="Run the five reflection phases (failure detection, forensics, insight synthesis, "
        "validation, memory) on a logged battle and print what was accepted and rejected and why. "
        "Standalone it uses the data directory's memory and the configured model tiers (keys from the "
        "environment); with --address the running engine's Reflection actor does it.",
    )
    reflect.add_argument(
        "--battle", required=True, metavar="ID", help="battle id, e.g. 20261122-101500-3fa9-b002"
    )
    _memory_source(reflect)


def _inspect(args: argparse.Namespace) -> int:
    from engine.config import load_config
    from engine.game.capture import load_capture
    from engine.game.ram import RED_BLUE
    from engine.game.state import decode_state

    if args.capture is not None:
        if args.state is not None:
            raise UserInputError("--state needs --rom, not --capture")
        state = decode_state(load_capture(args.capture), RED_BLUE)
    else:
        from engine.emulator.session import open_session

        config = load_config(args.config)
        with open_session(args.rom, config.emulator) as session:
            if args.state is not None:
                session.load_state_file(args.state)
            session.tick(args.frames)
            state = decode_state(session.memory_image(), session.ram_map)
    json.dump(state.model_dump(mode="json"), sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


def _run(args: argparse.Namespace) -> int:
    from engine.config import load_config
    from engine.runtime.launch import run_engine

    config = load_config(args.config)
    return run_engine(config, args)


def _status(args: argparse.Namespace) -> int:
    from engine.config import load_config
    from engine.runtime.status import engine_status

    return engine_status(load_config(args.config), args)


def _llm_log(args: argparse.Namespace) -> int:
    from engine.llm.logview import show_llm_log

    return show_llm_log(args.data_dir, args.run, args.last, args.full, args.json, sys.stdout)


def _lessons(args: argparse.Namespace) -> int:
    from engine.config import load_config
    from engine.runtime.lessons_command import lessons_command

    return lessons_command(load_config(args.config), args)


def _reflect(args: argparse.Namespace) -> int:
    from engine.config import load_config
    from engine.runtime.reflect_command import reflect_command

    return reflect_command(load_config(args.config), args)


COMMANDS = {
    "inspect": _inspect,
    "run": _run,
    "status": _status,
    "llm-log": _llm_log,
    "lessons": _lessons,
    "reflect": _reflect,
    "replay": run_replay,
    "checkpoints": run_checkpoints,
}


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO, handlers=[terminal_handler()])
    try:
        return COMMANDS[args.command](args)
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
    except KeyboardInterrupt:
        print("engine: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
