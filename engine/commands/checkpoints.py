"""`engine checkpoints list|show|verify`: what checkpoints a data directory holds and whether they verify.
The console script registers `add_checkpoints_parser` and `run_checkpoints`; the store is imported only
when the command runs, so building the parser stays cheap."""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal, TextIO

from engine.commands.arguments import Subparsers

if TYPE_CHECKING:
    from engine.checkpoints.models import CheckpointEntry
    from engine.checkpoints.store import CheckpointStore

EXIT_OK, EXIT_BROKEN = 0, 1
SPEC_HELP = (
    "'latest', <run id> (its newest), <run id>/<seq> or <run id>/<folder>, or a checkpoint's folder path"
)


def _common(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--data-dir", type=Path, default=Path("."), help="where checkpoints/ is (default: here)"
    )
    command.add_argument("--json", action="store_true", help="print JSON instead of text")


def register(commands: Subparsers) -> None:
    checkpoints = commands.add_parser(
        "checkpoints",
        help="list, show and verify the checkpoints of runs",
        description="Checkpoints are in DATA_DIR/checkpoints/<run id>/<seq>-<reason>/: JSON parts, the "
        "emulator's save state, a manifest with each part's size and sha256, and manifest.sha256, the seal "
        "holding the manifest's own sha256. Verifying checks the manifest against its seal and every part "
        "against the manifest.",
    )
    actions = checkpoints.add_subparsers(dest="action", metavar="ACTION", required=True)
    listing = actions.add_parser("list", help="newest first", description="Checkpoints, newest first.")
    listing.add_argument("--run", metavar="RUN_ID", help="only this run's")
    _common(listing)
    show = actions.add_parser(
        "show", help="one checkpoint's manifest and parts", description="A checkpoint's manifest and parts."
    )
    show.add_argument("spec", metavar="SPEC", help=SPEC_HELP)
    _common(show)
    verify = actions.add_parser(
        "verify",
        help="check checkpoints against their manifests",
        description="Check one checkpoint, or every one: its manifest against the seal, every part against "
        "the manifest. Exit code 1 if any is broken.",
    )
    verify.add_argument("spec", metavar="SPEC", nargs="?", help=f"{SPEC_HELP} (default: every checkpoint)")
    _common(verify)
    checkpoints.set_defaults(handler=execute)


def _list(store: CheckpointStore, args: CheckpointsOptions, out: TextIO) -> int:
    from engine.checkpoints import render

    entries = store.entries(args.run)
    if args.json_out:
        render.write_json({"root": str(store.root), "checkpoints": [render.as_json(e) for e in entries]}, out)
    elif not entries:
        out.write(f"no checkpoints in {store.root}\n")
    else:
        out.write("\n".join(render.list_line(entry) for entry in entries) + "\n")
    return EXIT_OK


def _entry(store: CheckpointStore, spec: str) -> CheckpointEntry:
    return store.entry(store.resolve(spec))


def _show(store: CheckpointStore, args: CheckpointsOptions, out: TextIO) -> int:
    from engine.checkpoints import render

    entry = _entry(store, args.spec or "latest")
    if args.json_out:
        render.write_json(render.as_json(entry), out)
    else:
        out.write(render.show_block(entry) + "\n")
    return EXIT_OK


def _verify(store: CheckpointStore, args: CheckpointsOptions, out: TextIO) -> int:
    from engine.checkpoints import render

    entries = [_entry(store, args.spec)] if args.spec is not None else store.entries()
    if args.json_out:
        ok = all(entry.ok for entry in entries)
        render.write_json({"ok": ok, "checkpoints": [render.as_json(e) for e in entries]}, out)
    elif not entries:
        out.write(f"no checkpoints in {store.root}\n")
    else:
        out.write(render.verify_lines(entries) + "\n")
    return EXIT_OK if all(entry.ok for entry in entries) else EXIT_BROKEN


ACTIONS = {"list": _list, "show": _show, "verify": _verify}


@dataclass(frozen=True)
class CheckpointsOptions:
    action: Literal["list", "show", "verify"]
    data_dir: Path
    run: str | None
    spec: str | None
    json_out: bool

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> CheckpointsOptions:
        return cls(action=args.action, data_dir=args.data_dir, run=getattr(args, "run", None),
                   spec=getattr(args, "spec", None), json_out=args.json)  # fmt: skip


def execute(args: argparse.Namespace) -> int:
    from engine.checkpoints.store import CheckpointStore

    options = CheckpointsOptions.from_args(args)
    store = CheckpointStore(options.data_dir / "checkpoints")
    return ACTIONS[options.action](store, options, sys.stdout)
