"""A run's splits against its personal best, as the live page, `/api/state` and `engine stats` show them.

Times are on the game clock: frames since the run's start (power-on, or the save state's load), at the
Game Boy's 59.7275 frames a second, so a run's splits do not depend on how fast the machine played them.
The wall seconds are beside them. The runtime works the table out (engine/runtime/splits.py); this module
only holds it and writes its times as words, the way the page's script does.
"""

from __future__ import annotations

from engine.frozen import Frozen

GAME_FPS = 4_194_304 / 70_224  # the Game Boy's clock over the cycles of one frame: 59.7275 frames a second


class SplitRow(Frozen):
    """One milestone the run reached itself."""

    name: str
    title: str
    number: int  # among the Orak benchmark's twelve, 0 for the story's later objectives
    frame: int  # the game clock at the split
    segment_frames: int  # since the run's previous split, or its start
    seconds: float  # wall seconds at the split
    segment_seconds: float
    delta_frames: int | None = None  # this split minus the personal best's at the same milestone
    gold: bool = False  # the segment beat the best of every earlier comparable run
    best_segment_frames: int | None = None  # that best; None when no earlier run played the segment


class SplitAhead(Frozen):
    """A milestone the personal best reached and this run has not (yet)."""

    name: str
    title: str
    number: int
    pb_frame: int


class SplitRunning(Frozen):
    """The segment under way while the run plays."""

    name: str | None  # the milestone expected next: the PB's next one, else the objective pursued
    title: str
    frame: int  # the game clock now
    segment_frames: int  # since the last split
    delta_frames: int | None = None  # once the clock is past the PB's split of `name`: how far behind


class SplitsTable(Frozen):
    start: str  # where the run began, in words
    comparison: str | None = None  # the personal best's run id; None: no earlier comparable run
    comparable_runs: int = 0  # earlier runs of the same cartridge from the same start
    pb_name: str | None = None  # the personal best's furthest milestone and its frame
    pb_frame: int | None = None
    rows: tuple[SplitRow, ...] = ()
    running: SplitRunning | None = None
    ahead: tuple[SplitAhead, ...] = ()
    at_start: tuple[str, ...] = ()  # titles of milestones the start had done: never compared
    sum_of_best_frames: int | None = None  # the fastest chain of best segments to `sum_of_best_to`
    sum_of_best_to: str | None = None


def clock(frames: int) -> str:
    """A game-clock time as h:mm:ss, whole seconds counted as a timer counts them (rounded down)."""
    whole = int(max(0, frames) / GAME_FPS)
    return f"{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}"


def delta_words(frames: int) -> str:
    """A difference against the personal best in tenths of a second, signed: "-12.3", "+1:02.5", "0.0"."""
    tenths = round(abs(frames) / GAME_FPS * 10)
    sign = "" if tenths == 0 else ("-" if frames < 0 else "+")
    seconds, tenth = divmod(tenths, 10)
    if seconds < 60:
        return f"{sign}{seconds}.{tenth}"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{sign}{minutes}:{seconds:02d}.{tenth}"
    return f"{sign}{minutes // 60}:{minutes % 60:02d}:{seconds:02d}.{tenth}"
