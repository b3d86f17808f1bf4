"""Phase 5, validation: every candidate lesson is checked before it may reach memory.

A lesson is rejected, with its reason, when it
- carries text that reads like an attempt to steer a model (INJECTION_PATTERNS): lessons are shown to the
  deciding models later, so a planted instruction would travel into every future prompt;
- names a type, species, move or opponent the game does not have;
- contradicts the type chart (a claim in its words, or a type_matchup lesson whose stated effectiveness
  disagrees with `type_effectiveness`);
- rests on too little evidence or confidence (the MIN_ constants).
A move the species cannot learn is allowed: the log says it was used, and the lesson is about the numbers.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from engine.game.damage import type_effectiveness
from engine.game.models import Frozen
from engine.memory.lessons import Lesson
from engine.reflection.claims import claims, contradiction
from engine.reflection.names import known_opponent, mentions, move_name, species_name, type_name
from engine.reflection.synthesis import Candidate
from engine.reflection.turns import ChartClass, chart_class

# What a lesson must never contain. Each is a phrase or shape used to hijack a model reading the text;
# none has a place in a lesson about a Pokémon battle.
INJECTION_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(pattern, re.IGNORECASE | re.MULTILINE))
    for name, pattern in (
        # "ignore previous instructions", "disregard all prior rules", "forget your instructions"
        ("an instruction to ignore instructions",
         r"\b(?:ignore|disregard|forget|override)\b[^.\n]{0,40}?"
         r"\b(?:instructions?|prompts?|rules?|directions?|guidelines?)\b(?!-)"),
        ("a mention of the system prompt", r"\bsystem\s*prompts?\b"),
        ("a new identity (\"you are now\")", r"\byou\s+are\s+now\b"),
        ("new instructions", r"\b(?:new|updated|real|hidden)\s+instructions?\b"),
        ("a role tag", r"<\s*/?\s*(?:system|assistant|user|human|developer|tool|im_start|im_end)\b[^>]*>"),
        ("a role prefix", r"^\s*(?:system|assistant|user|human|developer)\s*:"),
        ("a URL", r"\b(?:https?|ftp|file)://|\bwww\.[a-z0-9-]+\.[a-z]{2,}"),
        ("a code fence", r"```|~~~"),
        ("a special token", r"<\|[^|>\n]*\|>"),
    )
)  # fmt: skip

# Measured lessons: one use is one random roll (217-255 of 255, so ±8%) and maybe a critical hit (double
# damage): a single number can be off by half. Two uses are the least that average anything out; the
# memory pools later battles into the same lesson.
MIN_MEASURED_USES = 2
# Every lesson comes from at least one battle; kept as a constant so a stricter store can raise it.
MIN_EVIDENCE = 1
# Below even odds the source itself doubts the lesson; retrieval multiplies by confidence anyway, so such
# lessons would only crowd the store.
MIN_CONFIDENCE = 0.5
# Fewer words cannot say what to do and when ("use water").
MIN_WORDS = 3

_CLASS_PHRASES: tuple[tuple[ChartClass, re.Pattern[str]], ...] = (
    ("no_effect", re.compile(r"no effect|do(?:es)?(?:n't| not) affect|cannot (?:hit|affect)|immune", re.I)),
    ("not_very", re.compile(r"not very effective|resist", re.I)),
    ("super", re.compile(r"super[- ]effective", re.I)),
)


class Rejection(Frozen):
    text: str
    reason: str
    by: str  # "rule_based" or the model tier that proposed it


class Verdict(Frozen):
    accepted: tuple[Lesson, ...] = ()
    rejected: tuple[Rejection, ...] = ()


def injection(text: str) -> str | None:
    """The first injection pattern the text matches, by name."""
    for name, pattern in INJECTION_PATTERNS:
        if pattern.search(text):
            return f"looks like prompt injection: {name}"
    return None


def unknown_names(lesson: Lesson) -> str | None:
    unknown = [t for t in (*lesson.attacker_types, *lesson.defender_types) if type_name(t) is None]
    unknown += [s for s in lesson.species if species_name(s) is None]
    if lesson.move is not None and move_name(lesson.move) is None:
        unknown.append(lesson.move)
    if lesson.opponent is not None and not known_opponent(lesson.opponent):
        unknown.append(lesson.opponent)
    unknown += mentions(lesson.text).unknown
    if unknown:
        return f"not in the game data: {', '.join(unknown)}"
    return None


def _claimed_class(text: str) -> ChartClass | None:
    found = [(m.start(), cls) for cls, pattern in _CLASS_PHRASES if (m := pattern.search(text))]
    return min(found)[1] if found else None


def chart_contradiction(lesson: Lesson) -> str | None:
    for claim in claims(lesson.text):
        if (reason := contradiction(claim)) is not None:
            return reason
    if lesson.kind != "type_matchup" or not lesson.attacker_types or not lesson.defender_types:
        return None
    claimed = _claimed_class(lesson.text)
    defenders = tuple(type_name(t) or t for t in lesson.defender_types)
    for attacker in (type_name(t) or t for t in lesson.attacker_types):
        actual = chart_class(attacker, defenders)
        if claimed is not None and actual is not None and actual != claimed:
            multiplier = type_effectiveness(attacker, defenders[0], defenders[-1])
            return (
                f"says {claimed.replace('_', ' ')}, but {attacker} against {'/'.join(defenders)} "
                f"is {multiplier:g}x in the type chart"
            )
    return None


def too_weak(lesson: Lesson) -> str | None:
    if lesson.evidence < MIN_EVIDENCE:
        return f"evidence {lesson.evidence} < {MIN_EVIDENCE}"
    if lesson.measured is not None and lesson.measured.uses < MIN_MEASURED_USES:
        return f"measured over {lesson.measured.uses} use(s); at least {MIN_MEASURED_USES} are needed"
    if lesson.confidence < MIN_CONFIDENCE:
        return f"confidence {lesson.confidence:g} < {MIN_CONFIDENCE:g}"
    if len(lesson.text.split()) < MIN_WORDS:
        return f"too short to act on (fewer than {MIN_WORDS} words)"
    return None


def check(candidate: Candidate) -> str | None:
    """Why the candidate is rejected, or None when it may be stored."""
    lesson = candidate.lesson
    keys = [] if lesson is None else [*lesson.species, lesson.move or "", lesson.opponent or ""]
    texts = [candidate.text, *(() if lesson is None else (lesson.text,)), *keys]
    for text in texts:
        if reason := injection(text):
            return reason
    if lesson is None:
        return candidate.problem or "no lesson could be made of it"
    return unknown_names(lesson) or chart_contradiction(lesson) or too_weak(lesson)


def validate(candidates: Sequence[Candidate]) -> Verdict:
    accepted: list[Lesson] = []
    rejected: list[Rejection] = []
    for candidate in candidates:
        reason = check(candidate)
        if reason is None and candidate.lesson is not None:
            accepted.append(candidate.lesson)
        else:
            rejected.append(Rejection(text=candidate.text, reason=reason or "rejected", by=candidate.by))
    return Verdict(accepted=tuple(accepted), rejected=tuple(rejected))
