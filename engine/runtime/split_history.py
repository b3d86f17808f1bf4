"""The runs kept in a data folder, as the splits comparison reads them: each run's summary.json, once.

A run without a summary (one still playing, or killed before writing it) is passed over without a word; a
summary that cannot be read (cut short, edited by hand, not a summary at all) is left out with one line in
the log, and the comparison goes on with the others.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

from pydantic import ConfigDict, ValidationError

from engine.frozen import Frozen
from engine.runtime.milestones import Split
from engine.runtime.run_start import RunStart
from engine.runtime.splits import RunSplits, SplitComparison
from engine.watch.splits import SplitsTable

log = logging.getLogger("engine.run")


class _SummaryHead(Frozen):
    """The parts of summary.json the comparison reads; the rest of the summary is not looked at."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    rom_sha256: str | None = None
    start: RunStart | None = None
    milestones: tuple[Split, ...] = ()


def read_runs(data_dir: Path) -> list[RunSplits]:
    """Every run under DATA_DIR/runs with a readable summary, oldest first (run ids sort by start time)."""
    root = data_dir / "runs"
    try:
        folders = sorted(path for path in root.iterdir() if path.is_dir())
    except OSError:
        return []  # no run kept yet
    found = []
    for folder in folders:
        run = read_run(folder)
        if run is not None:
            found.append(run)
    return found


def read_run(folder: Path) -> RunSplits | None:
    path = folder / "summary.json"
    try:
        head = _SummaryHead.model_validate(json.loads(path.read_text(encoding="utf-8")))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:  # not JSON, or not a summary (pydantic's ValidationError)
        log.warning("run %s left out of the splits comparison: its summary.json cannot be read (%s)",
                    folder.name, _why(exc))  # fmt: skip
        return None
    return RunSplits(run_id=folder.name, rom_sha256=head.rom_sha256, start=head.start, splits=head.milestones)


def _why(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "the top"
        return f"{where}: {first['msg']}"
    if isinstance(exc, OSError):
        return exc.strerror or type(exc).__name__
    return f"not JSON: {exc}" if isinstance(exc, json.JSONDecodeError) else str(exc)


def comparison_for(runs: list[RunSplits], run: RunSplits) -> SplitComparison:
    """`run` against the runs of `runs` that began before it, of the same cartridge and start."""
    earlier = [other for other in runs if other.run_id < run.run_id and run.comparable_with(other)]
    return SplitComparison(run.start, earlier)


def tables(data_dir: Path, run_ids: list[str]) -> dict[str, SplitsTable]:
    """Finished runs' tables, each against the runs before it: the folder is read once for them all.
    Runs without a readable summary have none."""
    runs = read_runs(data_dir)
    by_id = {run.run_id: run for run in runs}
    return {run_id: comparison_for(runs, by_id[run_id]).table(by_id[run_id].splits)
            for run_id in run_ids if run_id in by_id}  # fmt: skip
