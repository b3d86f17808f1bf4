"""The replay report as text for a terminal (`--json` prints the model itself)."""

from __future__ import annotations

from collections.abc import Iterator

from engine.replay.models import Counterfactual, DecisionCheck, ReplayReport, RolloutResult


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{value:g}"


def _pair(logged: float | None, replayed: float | None) -> str:
    return _percent(logged) if logged == replayed else f"{_percent(logged)}/{_percent(replayed)}"


def _verdict(report: ReplayReport) -> str:
    if report.matches_log:
        frames = "frame for frame" if report.frames_match else "not on the same frames"
        return f"matches the log ({frames})"
    divergence = report.first_divergence
    assert divergence is not None
    where = "at the end" if divergence.decision is None else f"at decision {divergence.decision}"
    return f"DIVERGES {where}: {divergence.what}"


def _decision_line(check: DecisionCheck) -> str:
    mark = "ok" if check.matches else "DIFFERS"
    ours = _pair(check.ours_hp, check.replayed_ours_hp)
    enemy = _pair(check.enemy_hp, check.replayed_enemy_hp)
    return f"  {check.index:>3}  {check.point.value:<24} {check.action:<24} {ours:>11} {enemy:>11}  {mark}"


def _ending(result: RolloutResult) -> str:
    if result.outcome is None:
        return f"unfinished ({result.unfinished})"
    return f"{result.outcome}, party {result.party_hp_percent:g}% HP, {result.decisions} decisions"


def _counterfactual_lines(report: ReplayReport) -> Iterator[str]:
    run = report.rollouts
    if run is None:
        return
    where = "in this process" if run.mode == "local" else f"on {run.workers} Ray workers"
    yield f"counterfactuals: {run.rollouts} rollouts {where} in {run.wall_seconds:.1f} s"
    last: int | None = None
    for entry in report.counterfactuals:
        if entry.decision != last:
            last = entry.decision
            yield f"  turn {entry.turn} (decision {entry.decision}): {_baseline_words(entry)}"
        marks = " BETTER" * entry.better + " REGRET" * entry.regret
        yield f"    {entry.alternative:<28} {_ending(entry.result)}{marks}"


def _baseline_words(entry: Counterfactual) -> str:
    return f"logged {entry.logged_action} -> {_ending(entry.baseline)}"


def render_report(report: ReplayReport) -> str:
    lines = [
        f"battle {report.battle_id}: {report.battle_type} vs {report.opponent}, logged "
        f"{report.logged_outcome} in {report.logged_decisions} decisions ({report.logged_frames} frames)",
        f"replayed: {report.replayed_outcome or 'unfinished'} in {report.replayed_decisions} decisions "
        f"({report.replayed_frames} frames, {report.wall_seconds:.1f} s): {_verdict(report)}",
        f"  {'#':>3}  {'point':<24} {'action':<24} {'our HP %':>11} {'enemy HP %':>11}",
        *(_decision_line(check) for check in report.decisions),
        *_counterfactual_lines(report),
    ]
    if report.rollouts is not None:
        lines.append(f"regrets: {len(report.regrets)}")
        lines += [
            f"lesson ({lesson.kind}, {lesson.confidence:.2f}): {lesson.text}" for lesson in report.lessons
        ]
    return "\n".join(lines)
