"""How `engine lessons` shows memory to a person: one line per lesson, or JSON for a program."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TextIO

from engine.memory.lessons import Lesson
from engine.procedural.scope import Scope


def _keys(lesson: Lesson) -> str:
    parts = []
    if lesson.attacker_types or lesson.defender_types:
        parts.append(f"{'/'.join(lesson.attacker_types) or '?'}>{'/'.join(lesson.defender_types) or '?'}")
    if lesson.species:
        parts.append(",".join(lesson.species))
    if lesson.move:
        parts.append(lesson.move)
    if lesson.opponent:
        parts.append(lesson.opponent)
    return " ".join(parts)


def _measured(lesson: Lesson) -> str:
    seen = lesson.measured
    if seen is None:
        return ""
    numbers = [f"{seen.uses} uses"]
    if seen.damage_percent is not None:
        numbers.append(f"{seen.damage_percent:.0f}%/use")
    if seen.hit_rate is not None:
        numbers.append(f"hit {seen.hit_rate:.0%}")
    return " [" + ", ".join(numbers) + "]"


def render_line(lesson: Lesson, confidence_now: float, score: float | None = None) -> str:
    head = f"{score:.2f} " if score is not None else ""
    return (
        f"{head}{lesson.kind:<12} conf {confidence_now:.2f} (stored {lesson.confidence:.2f}) "
        f"ev {lesson.evidence:<3} {_keys(lesson)}{_measured(lesson)}\n    {lesson.text}"
    )


def as_json(lesson: Lesson, confidence_now: float, score: float | None = None) -> dict[str, object]:
    data = lesson.model_dump(mode="json")
    data["confidence_now"] = round(confidence_now, 4)
    if score is not None:
        data["score"] = round(score, 4)
    return data


def print_lessons(
    rows: Sequence[tuple[Lesson, float, float | None]],
    play_hours: float,
    as_json_lines: bool,
    out: TextIO,
    scope: Scope | None = None,
) -> None:
    """rows: (lesson, decayed confidence, relevance score or None); `scope`: whose lessons they are (the
    harness level and model), when known."""
    if as_json_lines:
        payload: dict[str, object] = {"play_hours": round(play_hours, 4)}
        if scope is not None:
            payload["scope"] = {"level": scope.level, "model": scope.model, "slug": scope.slug}
        payload["lessons"] = [as_json(*row) for row in rows]
        out.write(json.dumps(payload, indent=2, ensure_ascii=False) + "\n")
        return
    whose = f", scope {scope.describe()}" if scope is not None else ""
    if not rows:
        out.write(f"no lessons (play clock {play_hours:.2f} h{whose})\n")
        return
    out.write(f"{len(rows)} lessons, play clock {play_hours:.2f} h{whose}\n")
    out.write("\n".join(render_line(*row) for row in rows) + "\n")
