"""The tournament's results (benchmarks/tournament.py), read back and summed up: no emulator here.

A result is one JSON line per battle played (see `Result` for its keys). The report gives, per category
and overall, each policy's wins with a 95% Wilson interval; the paired difference between the search
and each baseline over the cells (scenario, draw) both played, with Newcombe's interval for paired
proportions; the draws a baseline won and the search lost, by name; the search's decision time by party
size; and how well the win probability the search gave at its first decision predicted the outcome.
"""

from __future__ import annotations

import json
import math
import statistics
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

Z95 = 1.959964  # the normal quantile of a two-sided 95% interval
SEARCH = "search"
BASELINES = ("max_damage", "one_turn")  # the search is compared with these, pair by pair
UNFINISHED = ("halted", "error")  # no outcome: counted apart, never as a loss or a pair
PARTY_SIZES = ((1, 2), (3, 4), (5, 6))
CALIBRATION_BINS = 10
SURE = 0.995  # a prediction this high claims the battle cannot be lost
# A bin is called off when even the nearest end of its observed share's 95% interval lies further than this
# from the bin's mean prediction: a bin of four battles can be off by 0.4 by chance alone.
CALIBRATION_TOLERANCE = 0.05

# A run's own battles (benchmarks/tournament_states.py): stage by badges held, then kind.
RUN_STAGES = ("early", "mid", "late")
RUN_KINDS = ("boss", "trainer", "wild")
RUN_CATEGORIES = tuple(f"{stage}_{kind}" for stage in RUN_STAGES for kind in RUN_KINDS)

Result = dict[str, Any]
# scenario, scenario digest, draw, policy, ROM: a reused result must match on all of them
Key = tuple[str, str, int, str, str]


# -- intervals ---------------------------------------------------------------------------------------------
def wilson(wins: float, played: float, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a proportion (all of [0, 1] when nothing was played). `played` may be
    an effective sample size (see CalibrationBin.effective), `wins` then that size times the share."""
    if played <= 0:
        return 0.0, 1.0
    share = wins / played
    centre = share + z * z / (2 * played)
    spread = z * math.sqrt(share * (1 - share) / played + z * z / (4 * played * played))
    scale = 1 + z * z / played
    return max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale)


@dataclass(frozen=True)
class PairedDifference:
    """Search minus baseline over paired cells: the mean difference in win rate, its 95% interval, and the
    cells only one of the two won."""

    pairs: int
    difference: float
    low: float
    high: float
    only_first: int  # the search won, the baseline lost
    only_second: int  # the baseline won, the search lost


def paired_difference(pairs: Sequence[tuple[bool, bool]], z: float = Z95) -> PairedDifference:
    """Newcombe's hybrid score interval for the difference of two paired proportions (his method 10):
    Wilson intervals of each side, joined through the correlation of the pairs. Unlike a normal
    approximation over the differences it stays sensible with few pairs or all of them alike."""
    n = len(pairs)
    both = sum(a and b for a, b in pairs)
    first = sum(a and not b for a, b in pairs)
    second = sum(b and not a for a, b in pairs)
    neither = n - both - first - second
    if n == 0:
        return PairedDifference(0, 0.0, -1.0, 1.0, 0, 0)
    p1, p2 = (both + first) / n, (both + second) / n
    l1, u1 = wilson(both + first, n, z)
    l2, u2 = wilson(both + second, n, z)
    margins = (both + first) * (second + neither) * (both + second) * (first + neither)
    # The correlation of the pairs, with Newcombe's correction: a positive ad - bc loses n/2.
    concordance = both * neither - first * second
    if concordance > 0:
        concordance = max(0.0, concordance - n / 2)
    phi = concordance / math.sqrt(margins) if margins else 0.0
    difference = p1 - p2
    below = math.sqrt(max(0.0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2))
    above = math.sqrt(max(0.0, (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2))
    return PairedDifference(n, difference, max(-1.0, difference - below), min(1.0, difference + above),
                            first, second)  # fmt: skip


# -- calibration -------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class CalibrationBin:
    low: float
    high: float
    count: int
    predicted: float  # mean prediction in the bin
    observed: float  # share won
    battles: int = 0  # distinct battles the predictions came from (0: one each)
    effective: float = 0.0  # the sample size the interval stands on (0: count)

    @property
    def gap(self) -> float:
        return self.observed - self.predicted

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of the observed share, over the effective sample size: predictions made
        in one battle share its outcome, so 26 decisions of one battle are not 26 trials."""
        size = self.effective or self.count
        return wilson(self.observed * size, size)

    @property
    def off(self) -> bool:
        """Off by more than the tolerance, beyond what chance explains."""
        low, high = self.interval
        return low - self.predicted > CALIBRATION_TOLERANCE or self.predicted - high > CALIBRATION_TOLERANCE


def calibration(
    predictions: Sequence[tuple[float, bool]],
    bins: int = CALIBRATION_BINS,
    battles: Sequence[object] | None = None,
) -> list[CalibrationBin]:
    """The reliability table: predictions in bins of 1/bins (1.0 in the last), the empty ones left out.
    `battles`: the battle each prediction was made in, when a battle makes several (its outcome is one
    trial however many predictions share it)."""
    grouped: dict[int, list[int]] = {}
    for at, (predicted, _won) in enumerate(predictions):
        grouped.setdefault(min(bins - 1, max(0, int(predicted * bins))), []).append(at)
    return [_bin(index, bins, [predictions[at] for at in group],
                 None if battles is None else [battles[at] for at in group])
            for index, group in sorted(grouped.items())]  # fmt: skip


def _bin(
    index: int, bins: int, group: list[tuple[float, bool]], battles: list[object] | None
) -> CalibrationBin:
    found = CalibrationBin(
        low=index / bins,
        high=(index + 1) / bins,
        count=len(group),
        predicted=statistics.fmean(p for p, _ in group),
        observed=statistics.fmean(float(w) for _, w in group),
    )
    if battles is None:
        return found
    sizes = Counter(battles).values()
    # Kish's effective sample size for equal weights within clusters whose members share one outcome.
    effective = sum(sizes) ** 2 / sum(size * size for size in sizes)
    return replace(found, battles=len(sizes), effective=effective)


def brier(predictions: Sequence[tuple[float, bool]]) -> float | None:
    if not predictions:
        return None
    return statistics.fmean((p - float(won)) ** 2 for p, won in predictions)


def largest_gap(table: Sequence[CalibrationBin]) -> CalibrationBin | None:
    return max(table, key=lambda b: abs(b.gap), default=None)


# -- results on disk ---------------------------------------------------------------------------------------
def read_results(path: Path) -> list[Result]:
    """Every result line of a file; blank lines and a torn last line (a run killed mid-write) are skipped."""
    results: list[Result] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        try:
            results.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return results


def key_of(result: Result) -> Key:
    return (result["scenario"], result["digest"], result["draw"], result["policy"], result["rom"])


def reusable(results: Iterable[Result], rom: str, policies: Iterable[str]) -> dict[Key, Result]:
    """The results of an earlier run that stand for this one: the baselines (never the search, which is
    what changes between runs), on the same ROM, that reached an outcome."""
    wanted = set(policies) - {SEARCH}
    return {
        key_of(r): {**r, "reused": True}
        for r in results
        if r["policy"] in wanted and r["rom"] == rom and r["outcome"] not in UNFINISHED
    }


def latest(results: Iterable[Result]) -> list[Result]:
    """One result per (scenario, digest, draw, policy, ROM), the last written winning."""
    return list({key_of(r): r for r in results}.values())


# -- the report --------------------------------------------------------------------------------------------
def _share(wins: int, played: int) -> str:
    if played == 0:
        return "-"
    low, high = wilson(wins, played)
    return f"{wins}/{played} {wins / played:.2f} [{low:.2f}, {high:.2f}]"


def _signed(diff: PairedDifference) -> str:
    if diff.pairs == 0:
        return "-"
    return (f"{diff.difference:+.2f} [{diff.low:+.2f}, {diff.high:+.2f}] "
            f"({diff.only_first} vs {diff.only_second} of {diff.pairs})")  # fmt: skip


def _finished(results: Iterable[Result]) -> list[Result]:
    return [r for r in results if r["outcome"] not in UNFINISHED]


def pairs_against(
    results: Sequence[Result], baseline: str, first: str = SEARCH
) -> list[tuple[bool, bool, Result]]:
    """(first won, baseline won, the first's result) for every cell both finished; `first` is the search
    unless another policy is compared."""
    cells: dict[tuple[str, str, int], dict[str, Result]] = {}
    for r in _finished(results):
        cells.setdefault((r["scenario"], r["digest"], r["draw"]), {})[r["policy"]] = r
    return [
        (bool(c[first]["won"]), bool(c[baseline]["won"]), c[first])
        for c in cells.values()
        if first in c and baseline in c
    ]


def _table(header: Sequence[str], rows: Sequence[Sequence[str]], markdown: bool) -> list[str]:
    if markdown:
        lines = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
        return lines + ["| " + " | ".join(row) + " |" for row in rows]
    widths = [max(len(str(cell)) for cell in column) for column in zip(header, *rows, strict=True)]
    return ["  ".join(str(cell).ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
            for row in (header, *rows)]  # fmt: skip


def _groups(results: Sequence[Result]) -> list[tuple[str, list[Result]]]:
    """Each category (a run's battles by stage and kind in that order), then, for a run's battles, each
    stage and each kind on its own, then all."""
    found = list(dict.fromkeys(r["category"] for r in results))
    staged = [c for c in RUN_CATEGORIES if c in found]
    categories = staged + [c for c in found if c not in staged]
    groups = [(c, [r for r in results if r["category"] == c]) for c in categories]
    if staged:
        for part, names in ((0, RUN_STAGES), (1, RUN_KINDS)):
            groups += [(name, [r for r in results if r["category"] in staged
                               and r["category"].split("_")[part] == name]) for name in names]  # fmt: skip
        groups = [(name, group) for name, group in groups if group]
    return [*groups, ("overall", list(results))]


def _policies(results: Sequence[Result]) -> list[str]:
    order = [SEARCH, "one_turn", "max_damage", "first_move"]
    found = {r["policy"] for r in results}
    return [p for p in order if p in found] + sorted(found - set(order))


def wins_table(results: Sequence[Result], markdown: bool) -> list[str]:
    policies = _policies(results)
    rows = []
    for name, group in _groups(results):
        finished = _finished(group)
        shares = []
        for policy in policies:
            played = [r for r in finished if r["policy"] == policy]
            shares.append(_share(sum(bool(r["won"]) for r in played), len(played)))
        rows.append([name, *shares])
    return _table(["category", *policies], rows, markdown)


def difference_table(results: Sequence[Result], markdown: bool) -> list[str]:
    present = {r["policy"] for r in results}
    pairs = [(SEARCH, b) for b in BASELINES if b in present]
    pairs += [(p, SEARCH) for p in sorted(present) if p.startswith(SEARCH + "_")]  # variants of the search
    rows = []
    for name, group in _groups(results):
        diffs = [paired_difference([(a, b) for a, b, _ in pairs_against(group, base, first)])
                 for first, base in pairs]  # fmt: skip
        rows.append([name, *(_signed(d) for d in diffs)])
    return _table(["category", *(f"{first} − {base}" for first, base in pairs)], rows, markdown)


def losses(results: Sequence[Result], baseline: str) -> list[str]:
    """The cells the baseline won and the search lost, as scenario#draw."""
    lost = [r for s_won, b_won, r in pairs_against(results, baseline) if b_won and not s_won]
    return sorted(f"{r['scenario']}#{r['draw']}" for r in lost)


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def timing_table(results: Sequence[Result], markdown: bool) -> list[str]:
    searched = [r for r in results if r["policy"] == SEARCH and not r.get("reused")]
    rows = []
    for low, high in PARTY_SIZES:
        times = [t for r in searched if low <= r["party_size"] <= high for t in r["decision_ms"]]
        if times:
            stats = (percentile(times, 0.5), percentile(times, 0.95), max(times))
            rows.append([f"{low}-{high}", str(len(times)), *(f"{t:.1f}" for t in stats)])
    return _table(["members", "decisions", "p50 ms", "p95 ms", "max ms"], rows, markdown)


def wall_table(results: Sequence[Result], markdown: bool) -> list[str]:
    rows = []
    for policy in _policies(results):
        played = [r for r in results if r["policy"] == policy and not r.get("reused")]
        walls = [r["wall_s"] for r in played]
        if walls:
            rows.append([policy, str(len(walls)), f"{statistics.median(walls):.2f}", f"{max(walls):.1f}",
                         f"{sum(walls) / 60:.1f}"])  # fmt: skip
    return _table(["policy", "battles", "median s", "max s", "total min"], rows, markdown)


def outcome_table(results: Sequence[Result], markdown: bool) -> list[str]:
    outcomes = ["victory", "defeat", "flee", "draw", *UNFINISHED]
    rows = []
    for policy in _policies(results):
        played = [r for r in results if r["policy"] == policy]
        rows.append([policy, *(str(sum(r["outcome"] == o for r in played)) for o in outcomes)])
    return _table(["policy", *outcomes], rows, markdown)


def first_predictions(results: Sequence[Result]) -> list[tuple[float, bool]]:
    """The search's win probability at its first decision of each battle, with the outcome."""
    return [(float(r["predicted"]), bool(r["won"])) for r in _finished(results)
            if r["policy"] == SEARCH and r.get("predicted") is not None]  # fmt: skip


def decision_predictions(results: Sequence[Result]) -> list[tuple[float, bool]]:
    """Every position the search decided at a battle menu, its win probability with the battle's outcome."""
    return [(float(p), bool(r["won"])) for r in _finished(results)
            if r["policy"] == SEARCH for p in r.get("forecasts") or ()]  # fmt: skip


def decision_battles(results: Sequence[Result]) -> list[tuple[str, int]]:
    """The battle (scenario, draw) of each of `decision_predictions`, in the same order."""
    return [(str(r["scenario"]), int(r["draw"])) for r in _finished(results)
            if r["policy"] == SEARCH for _ in r.get("forecasts") or ()]  # fmt: skip


def calibration_lines(
    predictions: Sequence[tuple[float, bool]],
    unit: str,
    markdown: bool,
    battles: Sequence[object] | None = None,
) -> list[str]:
    """The reliability table with its Brier score; with `battles` (the battle of each prediction), a column
    of the distinct battles in each bin, whose intervals stand on them rather than on the predictions."""
    if not predictions:
        return ["none recorded"]
    table = calibration(predictions, battles=battles)
    rows = [[f"{b.low:.1f}-{b.high:.1f}", str(b.count)] + ([str(b.battles)] if battles is not None else [])
            + [f"{b.predicted:.3f}", f"{b.observed:.3f}", f"{b.interval[0]:.3f}-{b.interval[1]:.3f}",
               f"{b.gap:+.3f}", "yes" if b.off else ""]
            for b in table]  # fmt: skip
    header = ["predicted", unit] + (["battles"] if battles is not None else [])
    header += ["mean predicted", "observed", "95% interval", "difference", "off"]
    lines = _table(header, rows, markdown)
    score, gap = brier(predictions), largest_gap(table)
    if score is not None and gap is not None:
        off = [f"{b.low:.1f}-{b.high:.1f}" for b in table if b.off]
        lines += [
            "",
            f"Brier score {score:.3f} over {len(predictions)} {unit} (0 is perfect, 0.25 a coin's); "
            f"largest bin gap {gap.gap:+.3f} at {gap.low:.1f}-{gap.high:.1f} ({gap.count} {unit}); bins off "
            f"by more than {CALIBRATION_TOLERANCE} beyond their 95% interval: {', '.join(off) or 'none'}",
        ]
    sure = [won for predicted, won in predictions if predicted >= SURE]
    if sure:
        lines.append(f"said {SURE:.1%} or more: {len(sure)} {unit}, of which {len(sure) - sum(sure)} lost")
    return lines


def unfinished(results: Sequence[Result]) -> list[str]:
    return sorted(f"{r['policy']} {r['scenario']}#{r['draw']}: {r['outcome']} ({r.get('error') or ''})"
                  for r in results if r["outcome"] in UNFINISHED)  # fmt: skip


def report(results: Sequence[Result], markdown: bool = False) -> str:
    results = latest(results)
    if not results:
        return "no results"
    cells = {(r["scenario"], r["draw"]) for r in results}
    scenarios = {r["scenario"] for r in results}
    roms = sorted({f"{r['game']} {r['rom']}" for r in results})
    heading = "### " if markdown else ""
    lines = [f"{heading}Tournament: {len(results)} battles, {len(scenarios)} scenarios, {len(cells)} cells "
             f"(scenario × draw), on {', '.join(roms)}", ""]  # fmt: skip

    def section(title: str, body: list[str]) -> None:
        lines.extend([f"{heading}{title}", "", *body, ""])

    section("Wins out of battles finished (95% Wilson interval)", wins_table(results, markdown))
    paired = "Paired difference in win rate, search − baseline (95% Newcombe interval; cells only the search "
    section(paired + "won vs only the baseline won)", difference_table(results, markdown))
    for baseline in BASELINES:
        named = losses(results, baseline)
        section(f"Won by {baseline}, lost by the search ({len(named)})", [", ".join(named) or "none"])
    section("The search's decision time by party size", timing_table(results, markdown))
    section("Battle wall time (results played in this run)", wall_table(results, markdown))
    section("Outcomes", outcome_table(results, markdown))
    section(
        "Calibration: win_probability at the search's first decision against its outcome",
        calibration_lines(first_predictions(results), "battles", markdown),
    )
    section("Calibration: win_probability at every decision of the search against the battle's outcome",
            calibration_lines(decision_predictions(results), "decisions", markdown,
                              decision_battles(results)))  # fmt: skip
    left = unfinished(results)
    section(f"Battles without an outcome ({len(left)})", left or ["none"])
    return "\n".join(lines).rstrip() + "\n"
