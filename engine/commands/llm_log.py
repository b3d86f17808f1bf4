"""`engine llm-log`: the latest model calls of a run, readable."""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

from engine.commands.arguments import Subparsers, add_data_dir, positive


@dataclass(frozen=True)
class LlmLogOptions:
    data_dir: Path
    run: str | None
    last: int
    full: bool
    as_json: bool


def register(commands: Subparsers) -> None:
    llm_log = commands.add_parser(
        "llm-log",
        help="show the latest model calls of a run",
        description="Print the latest entries of runs/<run id>/llm.jsonl: role, tier, model, tokens, cost, "
        "latency, circuit breaker state, validation result, and the start of each prompt and answer "
        "(API keys are redacted when the log is written).",
    )
    add_data_dir(llm_log, "the run's data directory")
    llm_log.add_argument("--run", metavar="RUN_ID", help="which run (default: the newest)")
    llm_log.add_argument("-n", "--last", type=positive, default=20, help="how many entries (default 20)")
    llm_log.add_argument("--full", action="store_true", help="whole prompts and answers, not previews")
    llm_log.add_argument("--json", action="store_true", help="print the entries as JSON lines")
    llm_log.set_defaults(handler=execute)


def execute(args: argparse.Namespace) -> int:
    from engine.llm.logview import show_llm_log

    options = LlmLogOptions(data_dir=args.data_dir, run=args.run, last=args.last, full=args.full,
                            as_json=args.json)  # fmt: skip
    return show_llm_log(
        options.data_dir, options.run, options.last, options.full, options.as_json, sys.stdout
    )
