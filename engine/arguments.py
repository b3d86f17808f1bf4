"""Argument types shared by the console script's commands (argparse `type=` callables)."""

from __future__ import annotations

import argparse


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
