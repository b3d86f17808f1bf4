"""`engine export`: a run's decisions, battles or model calls as CSV, JSON Lines or Parquet."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from engine.commands.arguments import Subparsers


def register(commands: Subparsers) -> None:
    export = commands.add_parser(
        "export",
        help="write a run's decisions, battles or model calls as CSV, JSON Lines or Parquet",
        description="Write one table of a run: its decisions (those a rollback undid left out), its "
        "battles (each battle log's summary) or its model calls (llm.jsonl), nested fields flattened with "
        "dots. To standard output, or to --out FILE.",
    )
    export.add_argument("--format", choices=("csv", "jsonl", "parquet"), default="csv")
    export.add_argument("--what", choices=("decisions", "battles", "llm"), default="decisions")
    export.add_argument("--data-dir", type=Path, default=Path("."), help="the runs' data directory")
    export.add_argument("--run", metavar="RUN_ID", help="which run (default: the newest)")
    export.add_argument("--out", type=Path, help="write here instead of standard output")
    export.set_defaults(handler=execute)


def execute(args: argparse.Namespace) -> int:
    from engine.files import write_bytes_atomic
    from engine.llm.logview import run_dir
    from engine.runtime.export import encode, rows

    table = rows(run_dir(args.data_dir, args.run), args.what)
    data = encode(table, args.format)
    if args.out is not None:
        write_bytes_atomic(args.out, data)
        print(f"{len(table)} {args.what} written to {args.out}", file=sys.stderr)
    elif args.format == "parquet":
        sys.stdout.buffer.write(data)
    else:
        sys.stdout.write(data.decode())
    return 0
