"""`engine run`: play the game (the engine's main job)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from engine.commands.arguments import (
    Subparsers,
    add_config,
    non_negative,
    objective_name,
    positive,
    speed_factor,
    watch_address,
)

if TYPE_CHECKING:
    from engine.config import EngineConfig


def register(commands: Subparsers) -> None:
    run = commands.add_parser(
        "run",
        help="play the game: battles with the battle policy, exploring in between",
        description="Play from power-on (or from --state): new game and names, then battles whenever they "
        "happen and exploration in between. Progress goes to stderr and runs/<run id>/run.log; the summary "
        "JSON to runs/<run id>/summary.json (and --summary FILE). Ctrl-C stops cleanly.",
    )
    run.add_argument("--rom", type=Path, required=True, help="cartridge image of Pokémon Red or Blue")
    run.add_argument("--state", type=Path, help="PyBoy save state made with the same ROM")
    add_config(run)
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
    run.add_argument(
        "--until",
        metavar="NAME",
        type=objective_name,
        help="stop once this story objective is reached (a milestone such as beat_brock; the names are "
        "in `engine story`)",
    )
    run.add_argument(
        "--watch",
        metavar="[HOST:]PORT",
        type=watch_address,
        help="serve a live page of the run (screen, objective, decisions, party, milestones) at "
        "http://HOST:PORT/ (host 127.0.0.1 unless given; 0 picks a free port)",
    )
    run.add_argument(
        "--speed",
        metavar="N",
        type=speed_factor,
        help="play at N times the Game Boy's speed (1: real time, for streams; default: as fast as it goes)",
    )
    run.add_argument(
        "--harness",
        choices=("engine", "decisions", "buttons", "vision"),
        help="how much the models decide (harness.level; default engine): decisions asks them every "
        "decision, buttons and vision let them press the buttons (docs/harness.md)",
    )
    run.add_argument("--window", action="store_true", help="open PyBoy's own window (needs a display)")
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
    run.set_defaults(handler=execute)


def execute(args: argparse.Namespace) -> int:
    from engine.config import load_config
    from engine.runtime.launch import RunRequest, run_engine

    request = RunRequest(
        rom=args.rom, state=args.state, local=args.local, address=args.address, max_battles=args.max_battles,
        max_decisions=args.max_decisions, summary=args.summary, data_dir=args.data_dir, seed=args.seed,
        resume=args.resume, until=args.until, watch=args.watch,
    )  # fmt: skip
    config = _aimed(load_config(args.config), args.until)
    screen = {"speed": args.speed, "window": True if args.window else None}
    changes = {key: value for key, value in screen.items() if value is not None}
    if changes:  # the flags win over the config file's emulator section
        config = config.model_copy(update={"emulator": config.emulator.model_copy(update=changes)})
    if args.harness is not None:
        config = config.model_copy(
            update={"harness": config.harness.model_copy(update={"level": args.harness})}
        )
    return run_engine(config, request)


def _aimed(config: EngineConfig, until: str | None) -> EngineConfig:
    """The config with the run's aim: the config file's, checked, or else where `--until` stops it."""
    from engine.config import ConfigError

    aim = config.story.aim
    if aim is not None:
        try:
            objective_name(aim)
        except argparse.ArgumentTypeError as error:
            raise ConfigError(f"story.aim: {error}") from error
        return config
    if until is None:
        return config
    return config.model_copy(update={"story": config.story.model_copy(update={"aim": until})})
