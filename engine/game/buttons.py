"""The Game Boy's eight buttons."""

from __future__ import annotations

from enum import StrEnum


class Button(StrEnum):
    A = "a"
    B = "b"
    START = "start"
    SELECT = "select"
    UP = "up"
    DOWN = "down"
    LEFT = "left"
    RIGHT = "right"
