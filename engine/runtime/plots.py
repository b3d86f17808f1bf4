"""`engine stats --plot DIR`: the runs' numbers as PNG charts, drawn with matplotlib off screen.

win_rate.png    the share of the last WINDOW battles of each type won, battle after battle
cost.png        model money spent over each run's wall-clock time
milestones.png  when each run reached each story milestone
lessons.png     lessons stored by reflection (running total) and lessons in use, battle after battle
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.errors import UserInputError
from engine.runtime.stats import WINDOW, BattlePoint, RunStats, rolling_win_rate
from engine.runtime.stats_report import timeline_of

CHARTS = ("win_rate.png", "cost.png", "milestones.png", "lessons.png")
SIZE = (8, 4.5)  # inches, at 100 dpi: 800x450 pixels


def write_charts(runs: list[RunStats], out_dir: Path) -> list[Path]:
    plt = _pyplot()
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserInputError(f"--plot {out_dir}: cannot create it ({exc.strerror or exc})") from exc
    drawers = (_win_rate, _cost, _milestones, _lessons)
    written = []
    for name, draw in zip(CHARTS, drawers, strict=True):
        figure, axes = plt.subplots(figsize=SIZE, dpi=100)
        try:
            draw(axes, runs)
            figure.tight_layout()
            path = out_dir / name
            try:
                figure.savefig(path, format="png")
            except OSError as exc:
                raise UserInputError(
                    f"--plot {out_dir}: cannot write {name} ({exc.strerror or exc})"
                ) from exc
            written.append(path)
        finally:
            plt.close(figure)
    return written


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")  # no display needed, and never a window
    import matplotlib.pyplot as plt

    return plt


def _win_rate(axes: Any, runs: list[RunStats]) -> None:
    timeline = timeline_of(runs)
    for kind in sorted({point.battle_type for point in timeline}):
        numbers = [index + 1 for index, point in enumerate(timeline) if point.battle_type == kind]
        same = tuple(point for point in timeline if point.battle_type == kind)
        axes.plot(numbers, [100 * rate for rate in rolling_win_rate(same)], marker=".", label=kind)
    _run_boundaries(axes, runs)
    axes.set(title=f"Win rate over the last {WINDOW} battles of each type", xlabel="battle",
             ylabel="won (%)", ylim=(-5, 105))  # fmt: skip
    _legend_or_note(axes, timeline, "no battles yet")


def _run_boundaries(axes: Any, runs: list[RunStats]) -> None:
    """A faint line where each run after the first begins, when battles of several runs share the axis."""
    played = 0
    for run in runs[:-1]:
        played += len(run.timeline)
        if played:
            axes.axvline(played + 0.5, color="grey", alpha=0.3, linewidth=1)


def _cost(axes: Any, runs: list[RunStats]) -> None:
    drawn = []
    for run in runs:
        if run.cost_line:
            minutes = [0.0] + [point.seconds / 60 for point in run.cost_line]
            spent = [0.0] + [point.cost_usd for point in run.cost_line]
            axes.step(minutes, spent, where="post", label=run.run_id)
            drawn.append(run)
    axes.set(title="Model cost over time", xlabel="minutes since the run started", ylabel="US dollars")
    _legend_or_note(axes, drawn, "no model calls: $0 spent (the rule-based tier played)")


def _milestones(axes: Any, runs: list[RunStats]) -> None:
    reached = [run for run in runs if run.milestones]
    names: dict[int, str] = {}
    for run in reached:  # on the x axis in the order reached: objectives past Brock have no benchmark number
        orders = [split.order for split in run.milestones]
        axes.plot(orders, [split.seconds for split in run.milestones], marker="o", label=run.run_id)
        names |= {split.order: split.name for split in run.milestones if split.order not in names}
    if names:
        axes.set_xticks(sorted(names), [names[order] for order in sorted(names)], rotation=45, ha="right",
                        fontsize=8)  # fmt: skip
    axes.set(title="Milestone splits", ylabel="seconds from the run's start")
    _legend_or_note(axes, reached, "no milestones reached")


def _lessons(axes: Any, runs: list[RunStats]) -> None:
    timeline: tuple[BattlePoint, ...] = timeline_of(runs)
    numbers = list(range(1, len(timeline) + 1))
    stored, total = [], 0
    for point in timeline:
        total += point.lessons_stored
        stored.append(total)
    axes.plot(numbers, stored, label="stored (running total)")
    axes.plot(numbers, [point.lessons_recalled for point in timeline], marker=".", linestyle="none",
              label="in use in the battle")  # fmt: skip
    _run_boundaries(axes, runs)
    axes.set(title="Lessons learned and recalled", xlabel="battle", ylabel="lessons")
    _legend_or_note(axes, timeline, "no battles yet")


def _legend_or_note(axes: Any, drawn: Any, empty: str) -> None:
    if len(drawn):
        axes.legend(fontsize=8, loc="best")
    else:
        axes.text(0.5, 0.5, empty, transform=axes.transAxes, ha="center", va="center")
