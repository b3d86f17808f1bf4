"""`engine arena`: several configurations played on the same starts and seeds across a Ray cluster, and
compared."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from engine.commands.arguments import Subparsers, objective_name, positive, watch_address

DEFAULT_SEEDS = 3
DEFAULT_BUDGET = 3600.0


def budget_seconds(value: str) -> float:
    try:
        number = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {value}") from None
    if not 0 < number <= 7 * 24 * 3600:
        raise argparse.ArgumentTypeError(f"must be more than 0 and at most a week: {value}")
    return number


def register(commands: Subparsers) -> None:
    arena = commands.add_parser(
        "arena",
        help="play configs × starts × seeds across a Ray cluster and compare the configs",
        description="Every config is played from every start (each --state, and power-on with --power-on "
        "or when no state is given) with seeds 0..N-1 (seed n idles n·37 frames before the first input: "
        "another draw of the game's random numbers). Each run is one Ray task that plays all its roles "
        "on one node; a run whose node is lost is played again elsewhere. Each result is written to "
        "OUT/cells/ as it ends, and the same command run again plays only the cells still missing. At "
        "the end: a table per config × start (means with 95% intervals), the configs compared pair by "
        "pair (a permutation test), OUT/report.json, OUT/cells.{csv,jsonl,parquet} and OUT/plots/.",
    )
    arena.add_argument("--rom", type=Path, required=True, help="cartridge image of Pokémon Red or Blue")
    arena.add_argument(
        "--config",
        dest="configs",
        type=Path,
        action="append",
        required=True,
        metavar="FILE",
        help="a config to play (YAML, as engine run --config); give 1 or more",
    )
    arena.add_argument(
        "--state",
        dest="states",
        type=Path,
        action="append",
        default=[],
        metavar="FILE",
        help="a save state to start from (give any number)",
    )
    arena.add_argument("--power-on", action="store_true", help="also start from power-on")
    arena.add_argument(
        "--seeds",
        type=positive,
        default=DEFAULT_SEEDS,
        metavar="N",
        help=f"runs per config and start (default {DEFAULT_SEEDS})",
    )
    arena.add_argument(
        "--until",
        metavar="NAME",
        type=objective_name,
        help="each run stops once this story objective is reached",
    )
    arena.add_argument("--max-decisions", type=positive, metavar="N", help="each run stops after N decisions")
    arena.add_argument(
        "--budget",
        type=budget_seconds,
        default=DEFAULT_BUDGET,
        metavar="SECONDS",
        help=f"each run stops after this much wall time (default {DEFAULT_BUDGET:.0f})",
    )
    arena.add_argument(
        "--address",
        metavar="ADDR",
        help="the Ray cluster ('auto': the one `ray start --head` started here); without "
        "it, a private Ray instance on this machine",
    )
    arena.add_argument("--out", type=Path, default=Path("arena"), help="the arena's folder (default: arena)")
    arena.add_argument(
        "--shared-memory",
        metavar="HOST:PORT",
        type=watch_address,
        help="every run keeps its lessons on this Chroma server (`chroma run`) instead of "
        "its own memory, to learn across runs",
    )
    arena.add_argument("--no-plots", action="store_true", help="skip the PNG charts")
    arena.add_argument("--json", action="store_true", help="print the report as JSON instead of text")
    arena.set_defaults(handler=execute)


def execute(args: argparse.Namespace) -> int:
    from engine.arena.matrix import Limits
    from engine.arena.runner import ArenaRequest, plan_arena, play_arena
    from engine.arena.text import as_text
    from engine.runtime.cluster import ray_connection

    request = ArenaRequest(
        rom=args.rom, configs=tuple(args.configs), states=tuple(args.states), power_on=args.power_on,
        seeds=args.seeds, out=args.out, shared_memory=args.shared_memory, plots=not args.no_plots,
        limits=Limits(until=args.until, max_decisions=args.max_decisions, budget_seconds=args.budget),
    )  # fmt: skip
    # Checked before Ray starts: a wrong input is one line, and the folder tells what was played before.
    plan = plan_arena(request)
    namespace = plan.entrants[0].config.runtime.namespace
    with ray_connection(args.address, namespace):
        outcome = play_arena(plan)
    if args.json:
        print(json.dumps(outcome.report.model_dump(mode="json"), indent=1))
    else:
        print(as_text(outcome.report))
    print(f"arena: {len(outcome.results)} cells in {args.out} ({outcome.skipped} from before), "
          f"{len(outcome.failures)} failed", file=sys.stderr)  # fmt: skip
    return 1 if outcome.failures else 0
