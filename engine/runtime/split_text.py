"""A splits table as text, for `engine stats`: a timer's columns, one milestone a line."""

from __future__ import annotations

from engine.watch.splits import SplitRow, SplitsTable, clock, delta_words

GOLD = "*"


def splits_lines(table: SplitsTable, indent: str = "  ") -> list[str]:
    lines = [indent + _heading(table)]
    if table.rows:
        lines.append(f"{indent}{'#':>3} {'milestone':<22} {'game time':>9} {'segment':>8} {'+/-':>9}  "
                     f"{'wall':>8}")  # fmt: skip
        lines += [indent + _row(row) for row in table.rows]
    else:
        lines.append(f"{indent}no milestone reached by the run itself")
    if table.sum_of_best_frames is not None:
        gold = f"; {GOLD} a gold segment" if any(row.gold for row in table.rows) else ""
        lines.append(f"{indent}sum of best {clock(table.sum_of_best_frames)} to {table.sum_of_best_to}{gold}")
    if table.ahead:
        missed = ", ".join(f"{ahead.name} ({clock(ahead.pb_frame)})" for ahead in table.ahead)
        lines.append(f"{indent}reached by the personal best, not by this run: {missed}")
    if table.at_start:
        lines.append(f"{indent}done at the start, not compared: {', '.join(table.at_start)}")
    return lines


def _heading(table: SplitsTable) -> str:
    heading = f"splits from {table.start} (game clock)"
    if table.comparison is None:
        return f"{heading}: no earlier run of this cartridge from this start"
    runs = f"{table.comparable_runs} earlier run{'s' if table.comparable_runs != 1 else ''}"
    best = f"{table.pb_name} at {clock(table.pb_frame or 0)}"
    return f"{heading} against the personal best {table.comparison} ({best}; {runs})"


def _row(row: SplitRow) -> str:
    number = str(row.number) if row.number else "-"
    delta = delta_words(row.delta_frames) if row.delta_frames is not None else ""
    mark = GOLD if row.gold else " "
    times = f"{clock(row.frame):>9} {clock(row.segment_frames):>8} {delta:>9}{mark}"
    return f"{number:>3} {row.name:<22} {times} {row.seconds:>7.1f}s"
