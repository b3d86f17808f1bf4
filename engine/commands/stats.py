"""`engine stats`: a run's numbers (or every run's), as words, as JSON, or as PNG charts."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from engine.commands.arguments import Subparsers


def register(commands: Subparsers) -> None:
    stats = commands.add_parser(
        "stats",
        help="a run's numbers: battles, speed, model calls and cost, tiers, lessons, milestone splits",
        description="Count what runs did, from their files under the data directory: battles won and lost "
        "by type, decisions a minute, frames a second, model calls, tokens and cost an hour and a battle, "
        "the tiers that decided, fallbacks and step-downs, lessons stored and recalled, learning velocity "
        "(the change in win rate between the last 10 battles of a type and the 10 before) and milestone "
        "splits, each against the personal best (the best earlier run of the same cartridge from the same "
        "start). Decisions a rollback undid are not counted.",
    )
    stats.add_argument("--data-dir", type=Path, default=Path("."), help="the runs' data directory")
    which = stats.add_mutually_exclusive_group()
    which.add_argument("--run", metavar="RUN_ID", help="which run (default: the newest)")
    which.add_argument("--all", action="store_true", help="every run, each and together")
    stats.add_argument("--json", action="store_true", help="print JSON instead of words")
    stats.add_argument(
        "--splits",
        action="store_true",
        help="only the splits table: each milestone's game-clock time, segment, delta against the personal "
        "best, gold segments, the sum of best, and the wall time",
    )
    stats.add_argument("--plot", type=Path, metavar="DIR", help="also write PNG charts into DIR")
    stats.set_defaults(handler=execute)


def execute(args: argparse.Namespace) -> int:
    from engine.llm.logview import run_dir
    from engine.runtime.stats_report import as_json, as_text, gather, runs_in, splits_json, splits_text

    dirs = runs_in(args.data_dir) if args.all else [run_dir(args.data_dir, args.run)]
    runs = gather(dirs)
    if args.splits:
        print(json.dumps(splits_json(runs), indent=1) if args.json else splits_text(runs))
    else:
        print(json.dumps(as_json(runs), indent=1) if args.json else as_text(runs))
    if args.plot is not None:
        from engine.runtime.plots import write_charts

        for path in write_charts(runs, args.plot):
            print(f"chart written: {path}", file=sys.stderr)
    return 0
