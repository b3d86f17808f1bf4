"""A run's numbers, and the same numbers across runs, from the files a run leaves behind.

Everything is read from `runs/<run id>/`: summary.json (totals, model usage, milestones), decisions.jsonl
through `read_decisions` (so decisions a rollback undid are not counted), the battle logs' summaries and
the reflection reports (lessons stored after each battle). A run that is still playing, or that was
killed, has no summary yet: its numbers come from its decisions and battle logs alone.

Learning velocity is the change in win rate between the last `window` comparable battles (same type:
wild or trainer) and the `window` before them, in percentage points: positive means the engine wins
more of the same kind of battle than it used to.
"""

from __future__ import annotations

import json
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from engine.battles.files import read_battle_log
from engine.errors import EngineError
from engine.frozen import Frozen
from engine.jsonl import read_objects
from engine.runtime.decision_log import RESTART_KINDS, read_decisions
from engine.runtime.export import ROLLED_BACK_MARK
from engine.watch.splits import SplitsTable

WINDOW = 10  # comparable battles in one window of the learning velocity
FRAMES_PER_SECOND = 59.73  # the Game Boy's


class BattlePoint(Frozen):
    """One battle on the time line: when it ended and what came of it."""

    run_id: str
    battle_id: str
    battle_type: str
    outcome: str
    seconds: float  # the run's play time when its last decision was made
    lessons_recalled: int  # the most lessons in use at any of its decisions
    lessons_stored: int  # what its reflection stored (a merged lesson counts too)


class CostPoint(Frozen):
    seconds: float  # wall-clock seconds since the run started
    cost_usd: float  # spent up to and including this decision


class MilestoneSplit(Frozen):
    number: int  # the Orak benchmark's milestone number, 0 for objectives past its twelve
    order: int  # 1 for the first milestone the run reached, 2 for the next, ...
    name: str
    title: str
    seconds: float
    decision: int


class TypeRecord(Frozen):
    won: int = 0
    lost: int = 0
    other: int = 0  # fled, caught, drawn

    @property
    def played(self) -> int:
        return self.won + self.lost + self.other

    def win_rate(self) -> float | None:
        return self.won / self.played if self.played else None


class RunStats(Frozen):
    run_id: str
    game: str = "?"
    stopped: str = "unfinished"
    harness: str = "engine"  # the harness level the run played at (docs/harness.md)
    harness_fallbacks: int = 0  # the level's fallbacks: rule-based decisions or no-op steps
    wall_seconds: float
    frames: int
    decisions: int
    battles: dict[str, TypeRecord]
    model_calls: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    cost_usd: float = 0.0
    tiers: dict[str, int]  # decisions by the tier that made them
    fallbacks: int = 0
    step_downs: int = 0
    lessons_stored: int
    lessons_recalled: int
    milestones: tuple[MilestoneSplit, ...] = ()
    splits: SplitsTable | None = None  # against the personal best of the runs before it (stats_report)
    timeline: tuple[BattlePoint, ...] = ()
    cost_line: tuple[CostPoint, ...] = ()

    @property
    def hours(self) -> float:
        return self.wall_seconds / 3600

    def rates(self) -> dict[str, float | None]:
        minutes = self.wall_seconds / 60
        battles = sum(record.played for record in self.battles.values())
        return {
            "decisions_per_minute": _ratio(self.decisions, minutes),
            "frames_per_second": _ratio(self.frames, self.wall_seconds),
            "cost_usd_per_hour": _ratio(self.cost_usd, self.hours),
            "cost_usd_per_battle": _ratio(self.cost_usd, battles),
            "calls_per_hour": _ratio(self.model_calls, self.hours),
            "tokens_per_hour": _ratio(self.tokens_in + self.tokens_out, self.hours),
            "game_speed": _ratio(self.frames / FRAMES_PER_SECOND, self.wall_seconds),
        }


def _ratio(part: float, whole: float) -> float | None:
    return round(part / whole, 4) if whole > 0 else None


class StatsError(EngineError):
    """No run to count, or none of its files can be read."""


def run_stats(run_dir: Path) -> RunStats:
    summary = _read_json(run_dir / "summary.json")
    decisions = [e for e in read_decisions(run_dir / "decisions.jsonl") if _counts(e)]
    if summary is None and not decisions:
        raise StatsError(f"{run_dir} holds no summary.json and no decisions: nothing to count")
    timeline = _timeline(run_dir, decisions)
    usage = (summary or {}).get("llm") or {}
    return RunStats(
        run_id=run_dir.name,
        game=(summary or {}).get("game", "?"),
        stopped=(summary or {}).get("stopped", "unfinished"),
        harness=(summary or {}).get("harness", "engine"),
        harness_fallbacks=int((summary or {}).get("harness_fallbacks", 0)),
        wall_seconds=_wall_seconds(summary, decisions),
        frames=int((summary or {}).get("frames") or _last(decisions, "frame")),
        decisions=len(decisions),
        battles=_records(timeline),
        model_calls=int(usage.get("calls", 0)),
        tokens_in=int(usage.get("tokens_in", 0)),
        tokens_out=int(usage.get("tokens_out", 0)),
        cost_usd=float(usage.get("cost_usd", 0.0)),
        tiers=dict(Counter(_tier(entry) for entry in decisions)),
        fallbacks=int(usage.get("fallbacks", 0)),
        step_downs=int(usage.get("step_downs", 0)),
        lessons_stored=sum(point.lessons_stored for point in timeline),
        lessons_recalled=sum(point.lessons_recalled for point in timeline),
        milestones=_milestones(summary),
        timeline=timeline,
        cost_line=_cost_line(run_dir),
    )


def _counts(entry: dict[str, Any]) -> bool:
    return entry.get("kind") not in RESTART_KINDS and not entry.get("rolled_back")


def _read_json(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _last(decisions: list[dict[str, Any]], key: str) -> float:
    values = [entry[key] for entry in decisions if isinstance(entry.get(key), int | float)]
    return max(values, default=0)


def _wall_seconds(summary: dict[str, Any] | None, decisions: list[dict[str, Any]]) -> float:
    if summary is not None and isinstance(summary.get("wall_seconds"), int | float):
        return float(summary["wall_seconds"])
    return float(_last(decisions, "seconds"))


def _tier(entry: dict[str, Any]) -> str:
    model = entry.get("model")
    tier = model.get("tier") if isinstance(model, dict) else None
    return tier if isinstance(tier, str) else "rule_based"


def _timeline(run_dir: Path, decisions: list[dict[str, Any]]) -> tuple[BattlePoint, ...]:
    by_battle: dict[str, list[dict[str, Any]]] = {}
    for entry in decisions:
        if isinstance(entry.get("battle_id"), str):
            by_battle.setdefault(entry["battle_id"], []).append(entry)
    points = []
    for path in sorted((run_dir / "battles").glob("*.json")):
        if ROLLED_BACK_MARK in path.name:
            continue
        try:
            summary = read_battle_log(path).summary
        except EngineError:
            continue  # a torn or foreign file: the other battles still count
        own = by_battle.get(summary.battle_id, [])
        report = _read_json(run_dir / "reflections" / f"{summary.battle_id}.json") or {}
        points.append(BattlePoint(run_id=run_dir.name, battle_id=summary.battle_id,
                                  battle_type=summary.battle_type, outcome=summary.outcome,
                                  seconds=float(_last(own, "seconds")),
                                  lessons_recalled=int(_last(own, "lessons")),
                                  lessons_stored=len(report.get("stored") or ())))  # fmt: skip
    return tuple(points)


def _records(timeline: tuple[BattlePoint, ...]) -> dict[str, TypeRecord]:
    counts: dict[str, Counter[str]] = {}
    for point in timeline:
        counts.setdefault(point.battle_type, Counter())[_result(point.outcome)] += 1
    return {kind: TypeRecord(**dict(count)) for kind, count in sorted(counts.items())}


def _result(outcome: str) -> str:
    return {"victory": "won", "defeat": "lost"}.get(outcome, "other")


def _milestones(summary: dict[str, Any] | None) -> tuple[MilestoneSplit, ...]:
    raw = (summary or {}).get("milestones")
    splits = (
        [s for s in raw if isinstance(s, dict) and not s.get("at_start")] if isinstance(raw, list) else []
    )
    found: list[MilestoneSplit] = []
    for split in splits:
        try:
            found.append(MilestoneSplit(number=split["number"], order=len(found) + 1, name=split["name"],
                                        title=split["title"], seconds=split["seconds"],
                                        decision=split["decision"]))  # fmt: skip
        except (KeyError, ValueError):  # a split edited by hand: the others still count
            continue
    return tuple(found)


def _cost_line(run_dir: Path) -> tuple[CostPoint, ...]:
    """Money spent by every model call (battles, directives, reflections) against the wall-clock seconds
    since the run started (its id is its start time, to the second)."""
    start = _started(run_dir.name)
    spent, line = 0.0, []
    for entry in read_objects(run_dir / "llm.jsonl").entries:
        cost, at = entry.get("cost_usd"), _time(entry.get("at"))
        if entry.get("event") != "call" or not isinstance(cost, int | float) or not cost or at is None:
            continue
        start = start or at
        spent += float(cost)
        line.append(CostPoint(seconds=max(0.0, (at - start).total_seconds()), cost_usd=round(spent, 6)))
    return tuple(line)


def _started(run_id: str) -> datetime | None:
    try:
        return datetime.strptime(run_id[:15], "%Y%m%d-%H%M%S").replace(tzinfo=UTC)
    except ValueError:
        return None  # a run directory named by hand: the first call marks the start


def _time(text: object) -> datetime | None:
    if not isinstance(text, str):
        return None
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        return None


def rolling_win_rate(timeline: tuple[BattlePoint, ...], window: int = WINDOW) -> list[float]:
    """After each battle, the share won of the last `window` battles (fewer at the start)."""
    rates = []
    for index in range(len(timeline)):
        recent = timeline[max(0, index + 1 - window) : index + 1]
        rates.append(sum(point.outcome == "victory" for point in recent) / len(recent))
    return rates


def learning_velocity(timeline: tuple[BattlePoint, ...], window: int = WINDOW) -> dict[str, float | None]:
    """By battle type: win rate of the last `window` battles minus that of the `window` before, in
    percentage points; None until there are two windows of that type."""
    velocity: dict[str, float | None] = {}
    for kind in sorted({point.battle_type for point in timeline}):
        same = [point for point in timeline if point.battle_type == kind]
        if len(same) < 2 * window:
            velocity[kind] = None
            continue
        last, before = same[-window:], same[-2 * window : -window]
        velocity[kind] = round(100 * (_wins(last) - _wins(before)) / window, 1)
    return velocity


def _wins(points: list[BattlePoint]) -> int:
    return sum(point.outcome == "victory" for point in points)
