"""The arena's statistics and table, on numbers whose answers are known by hand."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from engine.arena.cell import CellResult, seeded
from engine.arena.matrix import Entrant, Limits, Start, cells, unique_names
from engine.arena.report import build
from engine.arena.statistics import (
    interval,
    paired_difference,
    shuffle_p,
    sign_flip_p,
    t_quantile,
    unpaired_difference,
)
from engine.arena.text import as_text, cell_rows
from engine.config import EngineConfig, config_from_mapping
from engine.runtime.milestones import Split
from engine.runtime.summary import RunSummary


def test_the_interval_of_three_values_uses_student_t_with_two_degrees() -> None:
    spread = interval([1.0, 2.0, 3.0])
    half = 4.303 * 1.0 / math.sqrt(3)
    assert (spread.mean, spread.n) == (2.0, 3)
    assert spread.low == pytest.approx(2.0 - half) and spread.high == pytest.approx(2.0 + half)
    assert interval([5.0]).low == interval([5.0]).high == 5.0
    assert math.isnan(interval([]).mean)
    assert t_quantile(1) == 12.706 and t_quantile(30) == 2.042 and t_quantile(31) == 1.96


def test_the_sign_flip_test_counts_the_arrangements_at_least_as_extreme() -> None:
    # Three positive differences: only all-plus and all-minus reach |sum| = 6 out of 8 arrangements.
    assert sign_flip_p([1.0, 2.0, 3.0]) == (0.25, True)
    assert sign_flip_p([0.0, 0.0]) == (1.0, True)
    p_value, exact = sign_flip_p([1.0] * 20)  # 2^20 arrangements: drawn, not listed
    assert not exact and p_value < 0.001


def test_the_shuffle_test_on_two_separated_samples() -> None:
    # {5, 6, 7} against {1, 2, 3}: 2 of the C(6, 3) = 20 splits are as far apart.
    assert shuffle_p([5.0, 6.0, 7.0], [1.0, 2.0, 3.0]) == (0.1, True)
    assert shuffle_p([1.0, 2.0], [1.0, 2.0])[0] == 1.0


def test_paired_and_unpaired_differences() -> None:
    paired = paired_difference("milestones", ("a", "b"), [(3.0, 1.0), (4.0, 2.0), (5.0, 3.0)])
    assert (paired.mean, paired.low, paired.high, paired.p_value) == (2.0, 2.0, 2.0, 0.25)
    unpaired = unpaired_difference("milestones", ("a", "b"), [5.0, 6.0, 7.0], [1.0, 2.0, 3.0])
    assert unpaired.mean == 4.0 and unpaired.low < 4.0 < unpaired.high and unpaired.p_value == 0.1


def test_the_matrix_names_its_cells_and_fingerprints_what_decides_them() -> None:
    assert unique_names([Path("a/x.yaml"), Path("b/x.yaml"), Path("x y.yaml")]) == ["x", "x-2", "x-y"]
    plain = Entrant(name="plain", config=EngineConfig())
    other = Entrant(name="other", config=config_from_mapping({"memory": {"enabled": False}}))
    starts = [Start(name="bedroom", state=b"one"), Start(name="power-on")]
    matrix = cells([plain, other], starts, 2, Limits(max_decisions=5))
    assert [cell.key for cell in matrix][:3] == ["plain.bedroom.0", "plain.bedroom.1", "plain.power-on.0"]
    assert len(matrix) == 8 and len({cell.fingerprint for cell in matrix}) == 8
    again = cells([plain, other], starts, 2, Limits(max_decisions=5))
    assert [cell.fingerprint for cell in again] == [cell.fingerprint for cell in matrix]
    longer = cells([plain], starts, 1, Limits(max_decisions=6))
    assert longer[0].fingerprint != matrix[0].fingerprint
    moved = cells([plain], [Start(name="bedroom", state=b"two")], 1, Limits(max_decisions=5))
    assert moved[0].fingerprint != matrix[0].fingerprint


def test_a_seed_idles_a_different_number_of_frames() -> None:
    frames = [seeded(EngineConfig(), seed).emulator.idle_frames_at_start for seed in range(3)]
    assert frames[0] == 0 and len(set(frames)) == 3


def _result(config: str, seed: int, reached: list[str], cost: float) -> CellResult:
    from engine.arena.matrix import Cell

    splits = [Split(name=name, title=name, number=i + 1, frame=100 * (i + 1), decision=i + 1,
                    seconds=float(i + 1)) for i, name in enumerate(reached)]  # fmt: skip
    summary = RunSummary(
        run_id=f"{config}-{seed}", game="red", stopped="until", battles=(), decisions=10, overworld_steps=5,
        llm_calls=0, cost_usd=cost, frames=1000, wall_seconds=2.0, milestones=tuple(splits),
    )  # fmt: skip
    cell = Cell(key=f"{config}.s.{seed}", entrant=config, start="s", seed=seed, fingerprint="f")
    return CellResult(cell=cell, node="n", summary=summary, lessons_stored=seed)


def test_the_table_and_the_comparison_from_results() -> None:
    results = [
        _result("a", 0, ["leave_house", "meet_oak"], 0.5),
        _result("a", 1, ["leave_house", "meet_oak"], 0.7),
        _result("b", 0, ["leave_house"], 0.1),
        _result("b", 1, [], 0.1),
    ]
    report = build(results, {("b", "s"): 1}, ["a", "b"])
    first, second = report.rows
    assert (first.config, first.runs, first.milestones.mean, first.failed) == ("a", 2, 2.0, 0)
    assert (second.config, second.milestones.mean, second.failed) == ("b", 0.5, 1)
    figures = {figure.name: figure for figure in second.milestone_figures}
    assert figures["leave_house"].reached == 1 and "meet_oak" not in figures
    (milestones, _, cost) = report.comparisons
    assert (milestones.measure, milestones.paired, milestones.n, milestones.mean) == (
        "milestones",
        True,
        2,
        1.5,
    )
    assert cost.mean == pytest.approx(0.5)
    text = as_text(report)
    assert "a × s: 2 runs" in text and "b × s: 2 runs (1 failed)" in text and "p = 0.500" in text
    rows = cell_rows(results)
    assert rows[0]["cell"] == "a.s.0" and rows[0]["meet_oak.frames"] == 200 and rows[3]["milestones"] == 0
