"""The arena's report as words for the terminal, and as flat rows for CSV, JSON Lines or Parquet."""

from __future__ import annotations

import math
from typing import Any

from engine.arena.cell import CellResult
from engine.arena.report import ArenaReport, Row, fallbacks, reached, tokens, won
from engine.arena.statistics import Interval


def _spread(value: Interval, places: int = 1) -> str:
    if math.isnan(value.mean):
        return "-"
    if value.n < 2:
        return f"{value.mean:.{places}f}"
    return f"{value.mean:.{places}f} [{value.low:.{places}f}, {value.high:.{places}f}]"


def as_text(report: ArenaReport) -> str:
    lines = ["config × start: runs; milestones reached (mean [95% interval]); battles won; decisions; "
             "wall s; tokens; cost $; fallbacks; lessons"]  # fmt: skip
    for row in report.rows:
        lines.append(_row_line(row))
        for figure in row.milestone_figures:
            lines.append(f"    {figure.name}: {figure.reached}/{row.runs} runs, {figure.seconds:.1f} s, "
                         f"{figure.frames:,.0f} frames, {figure.decisions:.0f} decisions")  # fmt: skip
    if report.comparisons:
        lines.append("differences (a − b; paired on the same starts and seeds where both played them):")
    for diff in report.comparisons:
        kind = "paired sign-flip" if diff.paired else "label shuffle"
        exact = "exact" if diff.exact else "estimated"
        lines.append(f"  {diff.measure}: {diff.a} − {diff.b} = {diff.mean:+.3f} "
                     f"[{diff.low:+.3f}, {diff.high:+.3f}], p = {diff.p_value:.3f} "
                     f"({kind}, {exact}, n = {diff.n})")  # fmt: skip
    return "\n".join(lines)


def _row_line(row: Row) -> str:
    failed = f" ({row.failed} failed)" if row.failed else ""
    replayed = f", {row.replayed} played again after a lost node" if row.replayed else ""
    return (f"{row.config} × {row.start}: {row.runs} runs{failed}{replayed}; milestones "
            f"{_spread(row.milestones, 2)}; won {_spread(row.battles_won)}; decisions "
            f"{_spread(row.decisions, 0)}; {_spread(row.wall_seconds)} s; tokens {_spread(row.tokens, 0)}; "
            f"${_spread(row.cost_usd, 4)}; fallbacks {_spread(row.fallbacks)}; lessons "
            f"{_spread(row.lessons_stored)}")  # fmt: skip


def cell_rows(results: list[CellResult]) -> list[dict[str, Any]]:
    """One flat row per played cell, for `--format` csv, jsonl or parquet."""
    rows = []
    for result in sorted(results, key=lambda r: r.cell.key):
        summary = result.summary
        row: dict[str, Any] = {
            "cell": result.cell.key, "config": result.cell.entrant, "start": result.cell.start,
            "seed": result.cell.seed, "run_id": summary.run_id, "node": result.node,
            "attempts": result.attempts, "stopped": summary.stopped, "error": summary.error,
            "milestones": len(reached(summary)), "battles": len(summary.battles), "battles_won": won(summary),
            "decisions": summary.decisions, "frames": summary.frames, "wall_seconds": summary.wall_seconds,
            "llm_calls": summary.llm_calls, "tokens": tokens(summary), "cost_usd": summary.cost_usd,
            "fallbacks": fallbacks(summary), "lessons_stored": result.lessons_stored,
            "harness": summary.harness,
        }  # fmt: skip
        for split in summary.milestones:
            if not split.at_start:
                row[f"{split.name}.seconds"] = split.seconds
                row[f"{split.name}.frames"] = split.frame
                row[f"{split.name}.decisions"] = split.decision
        rows.append(row)
    return rows
