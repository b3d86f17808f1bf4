"""`engine stats` as words and as JSON: each run's numbers, and the totals across the runs asked for."""

from __future__ import annotations

import statistics
from pathlib import Path
from typing import Any

from engine.errors import UserInputError
from engine.runtime.split_history import tables
from engine.runtime.split_text import splits_lines
from engine.runtime.stats import (
    WINDOW,
    BattlePoint,
    RunStats,
    StatsError,
    TypeRecord,
    learning_velocity,
    run_stats,
)
from engine.watch.splits import SplitsTable


def runs_in(data_dir: Path) -> list[Path]:
    """Every run directory under DATA_DIR/runs, oldest first (run ids sort by start time)."""
    root = data_dir / "runs"
    if not root.is_dir():
        raise UserInputError(f"no runs under {data_dir} (no {root} directory)")
    return sorted(path for path in root.iterdir() if path.is_dir())


def gather(run_dirs: list[Path]) -> list[RunStats]:
    """The stats of every run that has anything to count; runs without (just started, emptied) are
    skipped. None at all is a StatsError. Each finished run comes with its splits against the runs of
    its data folder that began before it."""
    found = []
    for path in run_dirs:
        try:
            found.append(run_stats(path))
        except StatsError:
            continue
    if not found:
        raise StatsError("no run with a summary or decisions to count")
    return _with_splits(found, run_dirs)


def _with_splits(runs: list[RunStats], run_dirs: list[Path]) -> list[RunStats]:
    by_folder: dict[Path, list[str]] = {}
    for path in run_dirs:
        by_folder.setdefault(path.parent.parent, []).append(path.name)
    found: dict[str, SplitsTable] = {}
    for data_dir, run_ids in by_folder.items():  # each data folder's summaries read once
        found |= tables(data_dir, run_ids)
    return [run.model_copy(update={"splits": found.get(run.run_id)}) for run in runs]


def timeline_of(runs: list[RunStats]) -> tuple[BattlePoint, ...]:
    """Every battle of the runs, in the order they were played (runs in start order)."""
    return tuple(point for run in runs for point in run.timeline)


def overall(runs: list[RunStats]) -> dict[str, Any]:
    """Totals across the runs, and each milestone's split: its median and its best."""
    battles: dict[str, TypeRecord] = {}
    for run in runs:
        for kind, record in run.battles.items():
            have = battles.get(kind, TypeRecord())
            battles[kind] = TypeRecord(won=have.won + record.won, lost=have.lost + record.lost,
                                       other=have.other + record.other)  # fmt: skip
    total = RunStats(
        run_id="all", wall_seconds=sum(r.wall_seconds for r in runs), frames=sum(r.frames for r in runs),
        decisions=sum(r.decisions for r in runs), battles=battles,
        model_calls=sum(r.model_calls for r in runs), tokens_in=sum(r.tokens_in for r in runs),
        tokens_out=sum(r.tokens_out for r in runs), cost_usd=round(sum(r.cost_usd for r in runs), 6),
        tiers=_sum_counts([r.tiers for r in runs]), fallbacks=sum(r.fallbacks for r in runs),
        step_downs=sum(r.step_downs for r in runs), lessons_stored=sum(r.lessons_stored for r in runs),
        lessons_recalled=sum(r.lessons_recalled for r in runs),
    )  # fmt: skip
    return {
        "runs": len(runs),
        **_numbers(total),
        "learning_velocity": learning_velocity(timeline_of(runs)),
        "milestone_splits": _splits(runs),
    }


def _sum_counts(counts: list[dict[str, int]]) -> dict[str, int]:
    total: dict[str, int] = {}
    for each in counts:
        for key, value in each.items():
            total[key] = total.get(key, 0) + value
    return dict(sorted(total.items()))


def _splits(runs: list[RunStats]) -> list[dict[str, Any]]:
    by_name: dict[str, list[float]] = {}
    titles: dict[str, tuple[int, str]] = {}
    orders: dict[str, list[int]] = {}
    for run in runs:
        for split in run.milestones:
            by_name.setdefault(split.name, []).append(split.seconds)
            orders.setdefault(split.name, []).append(split.order)
            titles[split.name] = (split.number, split.title)
    rows = [{"number": titles[name][0], "name": name, "title": titles[name][1], "runs": len(seconds),
             "median_seconds": round(statistics.median(seconds), 1), "best_seconds": round(min(seconds), 1)}
            for name, seconds in by_name.items()]  # fmt: skip
    # In the order the runs reach them (objectives past the benchmark's twelve have no number).
    return sorted(rows, key=lambda row: statistics.median(orders[row["name"]]))


def _numbers(run: RunStats) -> dict[str, Any]:
    return {
        "wall_seconds": round(run.wall_seconds, 1),
        "frames": run.frames,
        "decisions": run.decisions,
        "battles": {
            kind: record.model_dump() | {"win_rate": _rate(record)} for kind, record in run.battles.items()
        },
        "model_calls": run.model_calls,
        "tokens_in": run.tokens_in,
        "tokens_out": run.tokens_out,
        "cost_usd": run.cost_usd,
        "tiers": run.tiers,
        "fallbacks": run.fallbacks,
        "step_downs": run.step_downs,
        "lessons_stored": run.lessons_stored,
        "lessons_recalled": run.lessons_recalled,
        **run.rates(),
    }


def _rate(record: TypeRecord) -> float | None:
    rate = record.win_rate()
    return round(rate, 3) if rate is not None else None


def as_json(runs: list[RunStats]) -> dict[str, Any]:
    per_run = []
    for run in runs:
        per_run.append({"run_id": run.run_id, "game": run.game, "stopped": run.stopped, **_numbers(run),
                        "learning_velocity": learning_velocity(run.timeline),
                        "milestones": [split.model_dump() for split in run.milestones],
                        "splits": run.splits.model_dump() if run.splits is not None else None})  # fmt: skip
    return {"window": WINDOW, "runs": per_run, "overall": overall(runs)}


def as_text(runs: list[RunStats]) -> str:
    lines = []
    for run in runs:
        lines += _run_lines(run)
    if len(runs) > 1:
        lines += _overall_lines(overall(runs))
    return "\n".join(lines)


def _run_lines(run: RunStats) -> list[str]:
    rates = run.rates()
    lines = [
        f"run {run.run_id} ({run.game}, {run.stopped}, harness {run.harness}): {run.wall_seconds:.1f} s, "
        f"{run.decisions} decisions "
        f"({_fixed(rates['decisions_per_minute'], 0)}/min), {run.frames} frames "
        f"({_fixed(rates['frames_per_second'], 0)}/s, {_fixed(rates['game_speed'], 1)}x the Game Boy)",
        "  battles: " + _battle_words(run.battles),
        f"  models: {run.model_calls} calls, {run.tokens_in}+{run.tokens_out} tokens, ${run.cost_usd:.4f} "
        f"(${_fixed(rates['cost_usd_per_hour'], 4)}/h, ${_fixed(rates['cost_usd_per_battle'], 4)}/battle); "
        f"tiers {_tier_words(run.tiers)}; {run.fallbacks} fallbacks, {run.step_downs} step-downs",
        f"  lessons: {run.lessons_stored} stored, {run.lessons_recalled} recalled in battles; learning "
        f"velocity {_velocity_words(learning_velocity(run.timeline))}",
    ]
    if run.harness != "engine":
        what = "no-op steps" if run.harness in ("buttons", "vision") else "rule-based fallbacks"
        lines.append(f"  harness {run.harness}: {run.harness_fallbacks} {what}")
    if run.splits is not None and (run.splits.rows or run.splits.at_start):
        lines += splits_lines(run.splits)
    elif run.milestones:  # a run still playing or killed: no summary to compare, its milestones only
        splits = (f"{split.name} {split.seconds:.1f} s" for split in run.milestones)
        lines.append("  milestones: " + ", ".join(splits))
    return lines


def splits_json(runs: list[RunStats]) -> dict[str, Any]:
    """`engine stats --splits --json`: each run's splits table (None for a run without a summary)."""
    return {"runs": [{"run_id": run.run_id, "game": run.game, "stopped": run.stopped,
                      "splits": run.splits.model_dump() if run.splits is not None else None}
                     for run in runs]}  # fmt: skip


def splits_text(runs: list[RunStats]) -> str:
    """`engine stats --splits`: each run's splits table against its personal best, and nothing else."""
    lines = []
    for run in runs:
        lines.append(f"run {run.run_id} ({run.game}, {run.stopped})")
        lines += splits_lines(run.splits) if run.splits is not None else ["  no summary, so no splits"]
    return "\n".join(lines)


def _overall_lines(total: dict[str, Any]) -> list[str]:
    lines = [
        f"all {total['runs']} runs: {total['wall_seconds']} s, {total['decisions']} decisions, "
        f"{total['model_calls']} model calls, ${total['cost_usd']:.4f}",
        "  battles: " + ", ".join(_record_words(kind, b) for kind, b in total["battles"].items()),
        f"  learning velocity {_velocity_words(total['learning_velocity'])}",
    ]
    for row in total["milestone_splits"]:
        number = str(row["number"]) if row["number"] else "-"
        lines.append(f"  {number:>2} {row['name']:<22} median {row['median_seconds']:>7.1f} s, best "
                     f"{row['best_seconds']:.1f} s ({row['runs']} runs)")  # fmt: skip
    return lines


def _record_words(kind: str, record: dict[str, Any]) -> str:
    return f"{kind} {record['won']} won / {record['lost']} lost / {record['other']} other"


def _battle_words(battles: dict[str, TypeRecord]) -> str:
    if not battles:
        return "none"
    words = []
    for kind, record in battles.items():
        rate = record.win_rate()
        share = f" ({100 * rate:.0f}% won)" if rate is not None else ""
        words.append(f"{kind} {record.won} won / {record.lost} lost / {record.other} other{share}")
    return ", ".join(words)


def _tier_words(tiers: dict[str, int]) -> str:
    total = sum(tiers.values())
    if not total:
        return "none"
    return ", ".join(f"{tier} {100 * count / total:.0f}%" for tier, count in sorted(tiers.items()))


def _velocity_words(velocity: dict[str, float | None]) -> str:
    if not velocity:
        return "n/a (no battles)"
    words = []
    for kind, value in velocity.items():
        too_few = f"n/a (<{2 * WINDOW} battles)"
        words.append(f"{kind} {value:+.1f} pts" if value is not None else f"{kind} {too_few}")
    return ", ".join(words)


def _fixed(value: float | None, places: int) -> str:
    return "n/a" if value is None else f"{value:.{places}f}"
