"""`engine plain-state`: the save state inside a state file the engine wrote, as plain PyBoy loads it.

The engine packs the states it keeps (battle starts, `engine goto --save-state`, checkpoints) with zlib,
which PyBoy's own `load_state` cannot read; this writes the same machine unpacked. Only the file is read:
no cartridge is needed.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

from engine.commands.arguments import Subparsers

CHECKPOINT_STATE = "emulator.state"  # a checkpoint folder's save state


@dataclass(frozen=True)
class PlainStateOptions:
    source: Path
    out: Path

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> PlainStateOptions:
        source: Path = args.state
        if source.is_dir():  # a checkpoint folder: its emulator's state
            source = source / CHECKPOINT_STATE
        return cls(source=source, out=args.out)


def register(commands: Subparsers) -> None:
    plain = commands.add_parser(
        "plain-state",
        help="write a save state the engine made as one plain PyBoy loads",
        description="The engine keeps its save states compressed (a battle's start, engine goto "
        "--save-state, a checkpoint's emulator.state), which plain PyBoy cannot load. This writes the same "
        "state uncompressed: PyBoy.load_state reads it, and so does the engine (a state that named its "
        "cartridge still does). A state that is plain already is written as it is.",
    )
    plain.add_argument(
        "state", type=Path, metavar="FILE",
        help="a state file the engine wrote, e.g. runs/<run id>/battles/<battle id>.state, or a checkpoint "
        "folder (its emulator.state)",
    )  # fmt: skip
    plain.add_argument("--out", type=Path, required=True, help="where to write the plain PyBoy state")
    plain.set_defaults(handler=execute)


def execute(args: argparse.Namespace) -> int:
    return write_plain(PlainStateOptions.from_args(args))


def write_plain(options: PlainStateOptions) -> int:
    from engine.emulator.state_file import is_packed, plain, read_state
    from engine.files import write_bytes_atomic

    data = _read(options.source)
    machine = plain(data)
    write_bytes_atomic(options.out, machine)
    made_with = read_state(data).made_with
    was = "compressed" if is_packed(_body(data)) else "plain already"
    names = f", naming {made_with.title}" if made_with is not None else ""
    print(f"{options.out}: {len(machine):,} bytes, a plain PyBoy save state ({options.source.name} was "
          f"{was}{names})", file=sys.stderr)  # fmt: skip
    return 0


def _body(data: bytes) -> bytes:
    from engine.emulator.state_file import unseal

    return unseal(data).machine


def _read(path: Path) -> bytes:
    from engine.emulator.errors import SaveStateError
    from engine.emulator.state_file import missing_state

    try:
        data = path.read_bytes()
    except FileNotFoundError as exc:
        raise SaveStateError(missing_state(path)) from exc
    except OSError as exc:
        raise SaveStateError(f"cannot read save state {path}: {exc.strerror or exc}") from exc
    if not data:
        raise SaveStateError(f"the save state {path} is empty")
    return data
