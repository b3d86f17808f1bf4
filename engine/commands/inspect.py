"""`engine inspect`: the decoded game state as JSON, from a cartridge (and a save state) or a capture; or,
with --from-screen, what the screen reader reads from the screen's pixels alone."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from engine.commands.arguments import Subparsers, add_config, existing_dir, non_negative
from engine.errors import UserInputError

if TYPE_CHECKING:
    from engine.emulator.session import EmulatorSession
    from engine.game.models import GameState
    from engine.vision.screen.reading import ScreenReading


Looked = TypeVar("Looked")


@dataclass(frozen=True)
class InspectOptions:
    rom: Path | None
    capture: Path | None
    state: Path | None
    frames: int
    config: Path | None
    from_screen: bool = False
    json: bool = False

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> InspectOptions:
        if args.capture is not None and args.state is not None:
            raise UserInputError("--state needs --rom, not --capture")
        if args.capture is not None and args.from_screen:
            raise UserInputError("--from-screen needs --rom: a capture has no pixels")
        return cls(
            rom=args.rom,
            capture=args.capture,
            state=args.state,
            frames=args.frames,
            config=args.config,
            from_screen=args.from_screen,
            json=args.json,
        )


def register(commands: Subparsers) -> None:
    inspect = commands.add_parser(
        "inspect",
        help="print the decoded game state as JSON",
        description="Decode the game state (decision point, party, battle, overworld, progress, bag and "
        "on-screen text) and print it as JSON on stdout. Reads a ROM plus optional save state, or a RAM "
        "capture folder (wram.bin, hram.bin, tilemaps.bin, io.json).",
    )
    source = inspect.add_mutually_exclusive_group(required=True)
    source.add_argument("--rom", type=Path, help="cartridge image of Pokémon Red or Blue")
    source.add_argument("--capture", type=existing_dir, help="a RAM/tile-map capture folder instead of a ROM")
    inspect.add_argument("--state", type=Path, help="PyBoy save state made with the same ROM")
    inspect.add_argument(
        "--frames",
        type=non_negative,
        default=0,
        help="frames to run before decoding (default 0; a fresh boot needs ~300 to show anything)",
    )
    inspect.add_argument(
        "--from-screen",
        action="store_true",
        help="read the screen from its pixels alone (the pure-vision reader): screen kind, text, menu, HP",
    )
    inspect.add_argument("--json", action="store_true", help="with --from-screen: JSON instead of plain text")
    add_config(inspect)
    inspect.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    options = InspectOptions.from_args(args)
    if options.from_screen:
        reading = _with_session(options, _read_screen)
        if options.json:
            sys.stdout.write(json.dumps(reading.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n")
        else:
            sys.stdout.write(reading.as_text() + "\n")
        return 0
    state = _from_capture(options) if options.capture is not None else _from_rom(options)
    json.dump(state.model_dump(mode="json"), sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


def _from_capture(options: InspectOptions) -> GameState:
    from engine.game.capture import load_capture
    from engine.game.ram import RED_BLUE
    from engine.game.state import decode_state

    assert options.capture is not None
    return decode_state(load_capture(options.capture), RED_BLUE)


def _from_rom(options: InspectOptions) -> GameState:
    from engine.game.state import decode_state

    return _with_session(options, lambda session: decode_state(session.memory_image(), session.ram_map))


def _read_screen(session: EmulatorSession) -> ScreenReading:
    """The screen as `EmulatorRole.screenshot` gives it (a rendered frame, as PNG), read from pixels. The
    second frame rendered: PyBoy draws the window a line high in the first frame it renders (its window
    line counter is reset only by drawing a frame's last line)."""
    from engine.emulator.png import encode_png
    from engine.vision.screen.reader import ScreenReader

    session.render_frame()
    return ScreenReader.from_rom(session.rom_bytes).read(encode_png(session.render_frame()))


def _with_session(options: InspectOptions, look: Callable[[EmulatorSession], Looked]) -> Looked:
    from engine.config import load_config
    from engine.emulator.session import open_session

    assert options.rom is not None
    config = load_config(options.config)
    with open_session(options.rom, config.emulator) as session:
        if options.state is not None:
            session.load_state_file(options.state)
        session.tick(options.frames)
        return look(session)
