"""One boss fight as the next run reads it: the bar it was trained for, the forecast it was entered on,
whether it was won, and what the stretch that led to it cost in game clock and levels."""

from __future__ import annotations

from pydantic import Field

from engine.experience.errors import ExperienceError
from engine.frozen import Frozen


class FightOutcome(Frozen):
    """`key` is the plan's bar key (a boss's trainer class, or the gauntlet's); `forecast` the chance the
    plan read for the team healed when the fight began (for the gauntlet, all five rooms in a row);
    `stretch_seconds` the game clock from the first look at the boss's objective to the fight's end;
    `levels_gained` the strongest member's levels over that stretch."""

    key: str = Field(min_length=1)
    forecast: float = Field(ge=0.0, le=1.0)
    won: bool
    level: int = Field(ge=1, le=100)
    stretch_seconds: int = Field(default=0, ge=0)
    levels_gained: int = Field(default=0, ge=0)

    def words(self) -> str:
        result = "won" if self.won else "lost"
        minutes = self.stretch_seconds // 60
        stretch = f"the stretch before it: {minutes} min of game clock, {self.levels_gained} levels"
        return f"{self.key}: {result} at a forecast of {self.forecast:.0%} with L{self.level} ({stretch})"


def clock_seconds(play_time: str) -> int:
    """The game's clock as RAM shows it ("H:MM:SS", or "H:MM") in seconds."""
    parts = play_time.strip().split(":")
    if not 2 <= len(parts) <= 3 or not all(part.isdigit() for part in parts):
        raise ExperienceError(f"the game clock {play_time!r} is not H:MM or H:MM:SS")
    hours, minutes, *seconds = (int(part) for part in parts)
    return hours * 3600 + minutes * 60 + (seconds[0] if seconds else 0)
