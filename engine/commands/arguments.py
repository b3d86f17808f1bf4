"""Argument types and options shared by the subcommands (argparse `type=` callables and common flags)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

Subparsers = Any  # argparse's private _SubParsersAction


def non_negative(value: str) -> int:
    try:
        number = int(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"not a whole number: {value}") from exc
    if number < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more: {value}")
    return number


def positive(value: str) -> int:
    number = non_negative(value)
    if number == 0:
        raise argparse.ArgumentTypeError(f"must be 1 or more: {value}")
    return number


def objective_name(value: str) -> str:
    """A story objective's name as objectives.json spells it (e.g. beat_brock)."""
    import difflib

    from engine.story.graph import story_graph

    names = [objective.name for objective in story_graph().objectives]
    key = value.strip().lower().replace("-", "_").replace(" ", "_")
    if key in names:
        return key
    near = difflib.get_close_matches(key, names, n=3, cutoff=0.5)
    hint = f"did you mean {', '.join(near)}?" if near else f"one of {', '.join(names)}"
    raise argparse.ArgumentTypeError(f"no story objective called {value!r} ({hint})")


def speed_factor(value: str) -> float:
    """A multiple of the Game Boy's speed: more than 0, at most 100."""
    try:
        number = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {value}") from None
    if not 0 < number <= 100:
        raise argparse.ArgumentTypeError(f"must be more than 0 and at most 100: {value}")
    return number


def port_number(value: str) -> int:
    """A TCP port, 0 to 65535 (0: any free one)."""
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {value}") from None
    if not 0 <= number <= 65535:
        raise argparse.ArgumentTypeError(f"no such port: {number}")
    return number


def watch_address(value: str) -> tuple[str, int]:
    """[HOST:]PORT for the live page; the host defaults to 127.0.0.1 (this machine only)."""
    host, _, port = value.rpartition(":")
    try:
        number = port_number(port)
    except argparse.ArgumentTypeError as exc:
        raise argparse.ArgumentTypeError(f"not [HOST:]PORT: {value} ({exc})") from None
    return (host.strip("[]") or "127.0.0.1", number)


def existing_dir(value: str) -> Path:
    path = Path(value)
    if not path.is_dir():
        raise argparse.ArgumentTypeError(f"not a directory: {value}")
    return path


def add_config(command: argparse.ArgumentParser) -> None:
    command.add_argument("--config", type=Path, help="YAML config overlaying configs/default.yaml")


def add_data_dir(command: argparse.ArgumentParser, what: str) -> None:
    command.add_argument("--data-dir", type=Path, default=Path("."), help=f"{what} (default: here)")


def add_json(command: argparse.ArgumentParser, what: str = "print JSON instead of text") -> None:
    command.add_argument("--json", action="store_true", help=what)


def add_address(command: argparse.ArgumentParser, help_text: str, default: str | None = None) -> None:
    command.add_argument("--address", metavar="ADDR", default=default, help=help_text)
