"""The arena's table: per config × start, what its seeds reached, and the configs compared.

Each row sums the cells of one (config, start): milestones reached (those the run reached itself, not
the ones its start had already done) as a mean with a 95% interval, the wall seconds, frames and
decisions to each milestone (the mean over the runs that reached it, with how many did), battles won,
tokens, cost, fallbacks and lessons stored. Every pair of configs is then compared on milestones reached,
battles won and cost, pair by pair on the same starts and seeds where both played them.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

from engine.arena.cell import CellResult
from engine.arena.statistics import Difference, Interval, interval, paired_difference, unpaired_difference
from engine.frozen import Frozen
from engine.runtime.summary import RunSummary


class MilestoneFigures(Frozen):
    name: str
    reached: int  # runs that reached it
    seconds: float
    frames: float
    decisions: float


class Row(Frozen):
    config: str
    start: str
    runs: int
    failed: int
    milestones: Interval
    milestone_figures: tuple[MilestoneFigures, ...]
    battles_won: Interval
    battles_lost: Interval
    decisions: Interval
    wall_seconds: Interval
    tokens: Interval
    cost_usd: Interval
    fallbacks: Interval
    lessons_stored: Interval
    replayed: int  # cells played again after their node was lost
    stopped: dict[str, int]


class ArenaReport(Frozen):
    rows: tuple[Row, ...]
    comparisons: tuple[Difference, ...]


def reached(summary: RunSummary) -> list[str]:
    return [split.name for split in summary.milestones if not split.at_start]


def won(summary: RunSummary) -> int:
    return sum(battle.outcome == "victory" for battle in summary.battles)


def lost(summary: RunSummary) -> int:
    return sum(battle.outcome == "defeat" for battle in summary.battles)


def tokens(summary: RunSummary) -> int:
    return summary.llm.tokens_in + summary.llm.tokens_out


def fallbacks(summary: RunSummary) -> int:
    return summary.llm.fallbacks + summary.harness_fallbacks


MEASURES: dict[str, Callable[[CellResult], float]] = {
    "milestones": lambda result: len(reached(result.summary)),
    "battles_won": lambda result: won(result.summary),
    "cost_usd": lambda result: result.summary.cost_usd,
}


def build(
    results: Sequence[CellResult], failures: dict[tuple[str, str], int], order: list[str]
) -> ArenaReport:
    groups: dict[tuple[str, str], list[CellResult]] = {}
    for result in results:
        groups.setdefault((result.cell.entrant, result.cell.start), []).append(result)
    keys = sorted(set(groups) | set(failures), key=lambda key: (order.index(key[0]), key[1]))
    rows = tuple(_row(key, groups.get(key, []), failures.get(key, 0)) for key in keys)
    return ArenaReport(rows=rows, comparisons=tuple(_compare(results, order)))


def _row(key: tuple[str, str], results: list[CellResult], failed: int) -> Row:
    summaries = [result.summary for result in results]

    def spread(measure: Callable[[RunSummary], float]) -> Interval:
        return interval([float(measure(summary)) for summary in summaries])

    stopped: dict[str, int] = {}
    for summary in summaries:
        stopped[summary.stopped] = stopped.get(summary.stopped, 0) + 1
    return Row(
        config=key[0], start=key[1], runs=len(results), failed=failed,
        milestones=spread(lambda summary: len(reached(summary))), milestone_figures=_splits(summaries),
        battles_won=spread(won), battles_lost=spread(lost), decisions=spread(lambda s: s.decisions),
        wall_seconds=spread(lambda s: s.wall_seconds), tokens=spread(tokens),
        cost_usd=spread(lambda s: s.cost_usd), fallbacks=spread(fallbacks),
        lessons_stored=interval([float(result.lessons_stored) for result in results]),
        replayed=sum(result.attempts > 1 for result in results), stopped=stopped,
    )  # fmt: skip


def _splits(summaries: list[RunSummary]) -> tuple[MilestoneFigures, ...]:
    seen: dict[str, list[Any]] = {}
    for summary in summaries:
        for split in summary.milestones:
            if not split.at_start:
                seen.setdefault(split.name, []).append(split)
    return tuple(
        MilestoneFigures(name=name, reached=len(splits), seconds=_mean([s.seconds for s in splits]),
                         frames=_mean([s.frame for s in splits]),
                         decisions=_mean([s.decision for s in splits]))
        for name, splits in seen.items()
    )  # fmt: skip


def _mean(values: list[float]) -> float:
    return sum(values) / len(values)


def _compare(results: Sequence[CellResult], order: list[str]) -> list[Difference]:
    by_config: dict[str, dict[tuple[str, int], CellResult]] = {}
    for result in results:
        by_config.setdefault(result.cell.entrant, {})[(result.cell.start, result.cell.seed)] = result
    differences = []
    for a, b in itertools.combinations([name for name in order if name in by_config], 2):
        first, second = by_config[a], by_config[b]
        shared = sorted(set(first) & set(second))
        for measure, value in MEASURES.items():
            if shared:
                pairs = [(value(first[key]), value(second[key])) for key in shared]
                differences.append(paired_difference(measure, (a, b), pairs))
            else:
                differences.append(
                    unpaired_difference(
                        measure,
                        (a, b),
                        [value(r) for r in first.values()],
                        [value(r) for r in second.values()],
                    )
                )
    return differences
