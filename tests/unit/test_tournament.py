"""The tournament benchmark's pure parts (benchmarks/tournament_report.py and the planning of
benchmarks/tournament.py): intervals, the paired difference, calibration, and reading and reusing results."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from benchmarks.ko_turns import agreement, forecasts
from benchmarks.ko_turns import report as ko_report
from benchmarks.tournament import Cell, plan
from benchmarks.tournament_report import (
    brier,
    calibration,
    calibration_lines,
    decision_battles,
    decision_predictions,
    key_of,
    largest_gap,
    losses,
    paired_difference,
    read_results,
    report,
    reusable,
    wilson,
)
from benchmarks.tournament_states import run_battles, stage_of
from engine.battles.models import BattleLog, BattleSummary, DecisionRecord, SideView, TurnOutcome
from engine.game.models import DecisionPoint
from tests.support.catalogue import CATALOGUE


def result(scenario: str, draw: int, policy: str, won: bool, **changes: Any) -> dict[str, Any]:
    row: dict[str, Any] = {
        "rom": "abc", "game": "red", "scenario": scenario, "digest": "d1", "category": "gym",
        "stage": "pewter", "party_size": 2, "draw": draw, "policy": policy,
        "outcome": "victory" if won else "defeat", "won": won, "turns": 5, "decisions": 5, "frames": 900,
        "hp_left": 0.5, "fainted": 0, "predicted": None, "decision_ms": [1.0, 2.0], "wall_s": 0.4,
        "error": None,
    }  # fmt: skip
    return {**row, **changes}


# -- intervals ---------------------------------------------------------------------------------------------
def test_wilson_interval() -> None:
    # Newcombe's single-proportion example: 81 of 263 gives 0.2553 to 0.3662.
    low, high = wilson(81, 263)
    assert (low, high) == pytest.approx((0.2553, 0.3662), abs=1e-4)
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson(10, 10)[1] == pytest.approx(1.0)
    assert wilson(0, 0) == (0.0, 1.0)
    # Symmetric: the interval for 3 of 10 mirrors the one for 7 of 10.
    assert wilson(3, 10)[0] == pytest.approx(1 - wilson(7, 10)[1])


def test_paired_difference() -> None:
    # 14 cells both won, 5 only the first, none only the second, 22 neither.
    pairs = [(True, True)] * 14 + [(True, False)] * 5 + [(False, False)] * 22
    diff = paired_difference(pairs)
    assert (diff.pairs, diff.only_first, diff.only_second) == (41, 5, 0)
    assert diff.difference == pytest.approx(5 / 41)
    assert (diff.low, diff.high) == pytest.approx((0.0115, 0.2265), abs=1e-4)
    # Swapping the sides mirrors the interval.
    swapped = paired_difference([(b, a) for a, b in pairs])
    assert (swapped.low, swapped.high) == pytest.approx((-diff.high, -diff.low))


def test_paired_difference_with_every_pair_alike_still_has_width() -> None:
    same = paired_difference([(True, True)] * 8 + [(False, False)] * 4)
    assert same.difference == 0.0
    assert same.low < 0.0 < same.high
    assert paired_difference([]).pairs == 0
    # More pairs, the same story: a narrower interval.
    wider = paired_difference([(True, False)] * 3 + [(False, False)] * 3)
    narrower = paired_difference([(True, False)] * 30 + [(False, False)] * 30)
    assert narrower.high - narrower.low < wider.high - wider.low
    assert narrower.low > 0.0


# -- calibration -------------------------------------------------------------------------------------------
def test_calibration_table() -> None:
    predictions = [(0.05, False), (0.08, False), (0.55, True), (0.52, False), (0.95, True), (1.0, True)]
    table = calibration(predictions)
    assert [(b.low, b.count) for b in table] == [(0.0, 2), (0.5, 2), (0.9, 2)]  # 1.0 joins the last bin
    middle = table[1]
    assert (middle.predicted, middle.observed) == pytest.approx((0.535, 0.5))
    assert middle.gap == pytest.approx(-0.035)
    assert brier(predictions) == pytest.approx(sum((p - w) ** 2 for p, w in predictions) / 6)
    gap = largest_gap(table)
    assert gap is not None and gap.low == 0.0  # predicted 0.065, observed 0
    assert brier([]) is None and largest_gap([]) is None
    # Two battles say little: their interval covers the prediction; two hundred that miss by 0.3 do not.
    assert not any(b.off for b in table)
    many = calibration([(0.95, True)] * 130 + [(0.95, False)] * 70)
    assert many[0].off and many[0].interval[1] < 0.95 - 0.05


def test_every_decision_of_the_search_is_a_prediction_of_its_battle() -> None:
    rows = [
        result("a", 0, "search", True, forecasts=[0.9, 0.97, 1.0]),
        result("b", 0, "search", False, forecasts=[0.999, 0.4]),
        result("b", 0, "max_damage", False, forecasts=[0.3]),  # not the search's
        result("c", 0, "search", False, outcome="error", forecasts=[0.5]),  # no outcome
        result("d", 0, "search", True),  # written before forecasts were kept
    ]
    assert decision_predictions(rows) == [
        (0.9, True),
        (0.97, True),
        (1.0, True),
        (0.999, False),
        (0.4, False),
    ]
    assert decision_battles(rows) == [("a", 0), ("a", 0), ("a", 0), ("b", 0), ("b", 0)]
    lines = calibration_lines(decision_predictions(rows), "decisions", markdown=False)
    assert lines[-1] == "said 99.5% or more: 2 decisions, of which 1 lost"
    assert calibration_lines([], "decisions", markdown=False)[-1] == "none recorded"
    by_battle = calibration_lines(decision_predictions(rows), "decisions", False, decision_battles(rows))
    assert by_battle[0].split()[:3] == ["predicted", "decisions", "battles"]
    top = next(line for line in by_battle if line.startswith("0.9-1.0"))
    assert top.split()[:3] == ["0.9-1.0", "4", "2"]  # four decisions, two battles


def test_decisions_of_one_battle_count_as_one_trial() -> None:
    # Sixty decisions at 0.4 in battles that were all won: from sixty battles the bin is off, from three
    # (twenty decisions each, one outcome each) it is not: three wins in three say little.
    predictions = [(0.4, True)] * 60
    alone = calibration(predictions, battles=list(range(60)))[0]
    shared = calibration(predictions, battles=[i // 20 for i in range(60)])[0]
    assert (alone.battles, alone.effective) == (60, pytest.approx(60.0)) and alone.off
    assert (shared.battles, shared.effective) == (3, pytest.approx(3.0)) and not shared.off
    uneven = calibration(predictions, battles=[0] * 30 + [1] * 20 + [2] * 10)[0]
    assert uneven.effective == pytest.approx(60**2 / (30**2 + 20**2 + 10**2))
    assert calibration(predictions)[0].interval == alone.interval  # one prediction a battle by default


# -- results on disk ---------------------------------------------------------------------------------------
def test_reading_skips_blank_and_torn_lines(tmp_path: Path) -> None:
    path = tmp_path / "results.jsonl"
    rows = [result("gym_brock_under", 0, "search", True), result("gym_brock_under", 0, "max_damage", False)]
    path.write_text("\n".join(json.dumps(r) for r in rows) + '\n\n{"scenario": "gym_', encoding="utf-8")
    assert read_results(path) == rows


def test_only_finished_baselines_of_the_same_rom_are_reused() -> None:
    rows = [
        result("a", 0, "search", True),
        result("a", 0, "max_damage", False),
        result("a", 0, "one_turn", True, rom="other"),
        result("a", 1, "first_move", False, outcome="error"),
        result("a", 1, "max_damage", True),
    ]
    kept = reusable(rows, "abc", ["search", "max_damage", "first_move", "one_turn"])
    assert sorted((k[0], k[2], k[3]) for k in kept) == [("a", 0, "max_damage"), ("a", 1, "max_damage")]
    assert all(r["reused"] for r in kept.values())
    assert reusable(rows, "abc", ["search"]) == {}


def test_a_reused_baseline_is_not_played_again() -> None:
    scenario = CATALOGUE[0]
    earlier = result(scenario.name, 0, "max_damage", True, digest=scenario.digest())
    changed = result(scenario.name, 1, "max_damage", True, digest="another set-up")
    reused = reusable([earlier, changed], "abc", ["search", "max_damage"])
    cells, kept = plan([scenario], 2, ("search", "max_damage"), reused, "abc")
    assert cells == [Cell(scenario.name, 0, ("search",)), Cell(scenario.name, 1, ("search", "max_damage"))]
    assert [key_of(r) for r in kept] == [key_of(earlier)]


# -- the report --------------------------------------------------------------------------------------------
def test_the_report_names_the_draws_the_search_lost_to_a_baseline() -> None:
    rows = [
        result("gym_brock_under", 0, "search", False, predicted=0.8),
        result("gym_brock_under", 0, "max_damage", True),
        result("gym_brock_under", 0, "one_turn", False),
        result("gym_misty_status", 0, "search", True, predicted=0.9, party_size=5),
        result("gym_misty_status", 0, "max_damage", True),
        result("gym_misty_status", 0, "one_turn", False, outcome="halted", error="the cap was reached"),
    ]
    assert losses(rows, "max_damage") == ["gym_brock_under#0"]
    text = report(rows)
    assert "Won by max_damage, lost by the search (1)" in text
    assert "gym_brock_under#0" in text
    assert "one_turn gym_misty_status#0: halted (the cap was reached)" in text
    assert "Brier score" in text
    markdown = report(rows, markdown=True)
    assert "| category | search |" in markdown


def test_a_variant_of_the_search_is_compared_with_the_search() -> None:
    rows = [result("a", d, "search", d % 2 == 0) for d in range(4)]
    rows += [result("a", d, "search_deep", True) for d in range(4)]
    rows += [result("a", d, "max_damage", False) for d in range(4)]
    text = report(rows)
    assert "search_deep − search" in text and "search − max_damage" in text
    overall = next(line for line in text.splitlines() if line.startswith("overall") and "(" in line)
    assert "(2 vs 0 of 4)" in overall and "(2 vs 0 of 4)" in overall.split(")", 1)[1]


# -- battles from a run's kept starts (benchmarks/tournament_states.py) -------------------------------------
def _log(battle_id: str, kind: str, state: str | None) -> str:
    summary = {"battle_id": battle_id, "outcome": "victory", "battle_type": kind, "opponent": "BROCK #1",
               "turns": 3, "decisions": 3, "frames": 100, "wall_seconds": 0.1}  # fmt: skip
    return json.dumps({"summary": summary, "run_id": "r1", "start_frame": 0, "decisions": [],
                       "start_state": state})  # fmt: skip


def test_a_runs_kept_trainer_starts_are_its_battles(tmp_path: Path) -> None:
    battles = tmp_path / "runs" / "r1" / "battles"
    battles.mkdir(parents=True)
    for name, kind, kept in (("r1-b001", "wild", True), ("r1-b002", "trainer", True),
                             ("r1-b003", "trainer", False)):  # fmt: skip
        (battles / f"{name}.json").write_text(_log(name, kind, f"{name}.state" if kept else None))
        if kept:
            (battles / f"{name}.state").write_bytes(name.encode())
    assert [b.name for b in run_battles([tmp_path])] == ["r1-b002"]
    everything = run_battles([tmp_path], wild=True)
    assert [b.name for b in everything] == ["r1-b001", "r1-b002"]
    cells, _ = plan(everything, 2, ("search", "max_damage"), {}, "abc")
    assert [(c.scenario, c.draw, c.battle is not None) for c in cells] == [
        ("r1-b001", 0, True), ("r1-b002", 0, True), ("r1-b001", 1, True), ("r1-b002", 1, True)]  # fmt: skip
    assert everything[0].digest() != everything[1].digest()


@pytest.mark.parametrize(
    ("badges", "stage"), [(0, "early"), (2, "early"), (3, "mid"), (5, "mid"), (6, "late")]
)
def test_a_run_battles_stage_is_told_by_the_badges_held(badges: int, stage: str) -> None:
    assert stage_of(badges) == stage


def test_a_runs_battles_are_reported_by_category_stage_and_kind() -> None:
    rows = [
        result("b1", 0, p, won, category="early_boss") for p, won in (("search", True), ("max_damage", False))
    ]
    rows += [result("b2", 0, p, True, category="late_trainer") for p in ("search", "max_damage")]
    text = report(rows)
    names = [line.split()[0] for line in text.splitlines()[4:12]]
    assert names == ["category", "early_boss", "late_trainer", "early", "late", "boss", "trainer", "overall"]


# -- "KO in N turns" against the battles that followed (benchmarks/ko_turns.py) ------------------------------
def _decision(action: str, reason: str, ours: str = "SQUIRTLE", enemy: str = "ONIX") -> DecisionRecord:
    side: dict[str, Any] = {"level": 20, "hp_percent": 100.0, "status": "OK"}
    return DecisionRecord(
        point=DecisionPoint.BATTLE_MAIN_MENU, action=action, reason=reason,
        ours=SideView(species=ours, hp=50, max_hp=50, **side), enemy=SideView(species=enemy, **side),
        move=action.removeprefix("use "),
    )  # fmt: skip


def _battle(*steps: tuple[DecisionRecord, tuple[str, ...]]) -> BattleLog:
    summary = BattleSummary(battle_id="b1", outcome="victory", battle_type="trainer", opponent="BROCK #1",
                            turns=len(steps), decisions=len(steps), frames=1, wall_seconds=0.1)  # fmt: skip
    turns = tuple(TurnOutcome(decision=i, action=d.action, hp_lost_percent=None, enemy_hp_lost_percent=None,
                              text=text) for i, (d, text) in enumerate(steps))  # fmt: skip
    return BattleLog(
        summary=summary, run_id="r", start_frame=0, decisions=tuple(d for d, _ in steps), turns=turns
    )


def test_a_forecast_is_held_against_the_turns_the_knock_out_took() -> None:
    log = _battle(
        (_decision("use BUBBLE", "BUBBLE: 90% to win, KO in 2 turns"),
         ("SQUIRTLE used BUBBLE!", "Enemy ONIX used BIND!")),
        (_decision("use BUBBLE", "BUBBLE: 95% to win, KO in 2 turns"),
         ("SQUIRTLE can't move!", "Enemy ONIX's attack continues!", "SQUIRTLE used BUBBLE!",
          "Enemy ONIX fainted!")),
    )  # fmt: skip
    assert [(f.predicted, f.actual) for f in forecasts(log)] == [(2, 3), (2, 2)]
    result = agreement(list(forecasts(log)))
    assert (result.settled, result.exact, result.within_one, result.mean_error) == (2, 1, 2, -0.5)


def test_a_forecast_is_not_settled_when_our_member_goes_down_first() -> None:
    log = _battle(
        (_decision("use TACKLE", "TACKLE: 10% to win, KO unlikely"), ("SQUIRTLE used TACKLE!",)),
        (_decision("use TACKLE", "TACKLE: 5% to win, KO in 3 turns"),
         ("Enemy ONIX used SLAM!", "SQUIRTLE fainted!")),
    )  # fmt: skip
    found = list(forecasts(log))
    assert [(f.predicted, f.actual) for f in found] == [(None, None), (3, None)]
    result = agreement(found)
    assert (result.settled, result.not_settled, result.never, result.never_wrong) == (0, 1, 1, 0)
    assert "within one turn" in ko_report(result)
