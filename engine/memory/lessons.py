"""Lessons learned from battles, and the pure arithmetic around them (decay, merging, relevance).

Nothing here touches Chroma: the store persists lessons, this module decides what they mean. Time is
measured in play hours (the game's clock), not wall time, so a paused run does not forget anything.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Literal

from pydantic import Field

from engine.experience.outcomes import FightOutcome
from engine.frozen import Frozen

# "outcome": one boss fight as a later run reads it (engine/experience), never merged with another.
LessonKind = Literal["type_matchup", "move", "opponent", "resource", "sequence", "outcome"]

# Provenance is for auditing, not for scoring: the newest battles are enough to trace a lesson back.
MAX_PROVENANCE = 20

# Relevance weights (they sum to 1, so a perfect lesson scores its decayed confidence):
# - similarity is the embedding match of the lesson text with the situation; the hashing embedding is
#   lexical and weak, so it must not dominate.
# - structure is an exact match on types/species/move/opponent: the most reliable signal we have, because
#   both sides come from RAM rather than free text.
# - recency favours lessons that were recently confirmed or used, so the prompt follows the current leg.
# - evidence favours lessons seen in many battles over one-off observations.
WEIGHT_SIMILARITY = 0.35
WEIGHT_STRUCTURE = 0.35
WEIGHT_RECENCY = 0.15
WEIGHT_EVIDENCE = 0.15
# Evidence saturates at this many battles: the tenth confirmation matters, the hundredth barely.
EVIDENCE_SATURATION = 10


class Measurement(Frozen):
    """Numbers observed in battles, for the rule-based policy: the mean share of the defender's HP bar one
    use took (percentage points, misses counted as 0) and how often the move hit, over `uses` uses."""

    uses: int = Field(ge=1)
    damage_percent: float | None = Field(default=None, ge=0.0, le=100.0)
    hit_rate: float | None = Field(default=None, ge=0.0, le=1.0)


def _weighted(a: float | None, a_n: int, b: float | None, b_n: int) -> float | None:
    if a is None:
        return b
    if b is None:
        return a
    return (a * a_n + b * b_n) / (a_n + b_n)


def merge_measurements(a: Measurement | None, b: Measurement | None) -> Measurement | None:
    """Pool two sets of observations: each mean weighted by its number of uses."""
    if a is None or b is None:
        return a or b
    return Measurement(
        uses=a.uses + b.uses,
        damage_percent=_weighted(a.damage_percent, a.uses, b.damage_percent, b.uses),
        hit_rate=_weighted(a.hit_rate, a.uses, b.hit_rate, b.uses),
    )


class Lesson(Frozen):
    lesson_id: str = Field(min_length=1)
    kind: LessonKind
    text: str = Field(min_length=1, max_length=300)
    attacker_types: tuple[str, ...] = ()
    defender_types: tuple[str, ...] = ()
    species: tuple[str, ...] = ()
    move: str | None = None
    opponent: str | None = None
    confidence: float = Field(ge=0.0, le=1.0)
    evidence: int = Field(ge=1)
    provenance: tuple[str, ...] = ()
    created_play_hours: float = Field(ge=0.0)
    updated_play_hours: float = Field(ge=0.0)
    last_used_play_hours: float | None = Field(default=None, ge=0.0)
    measured: Measurement | None = None
    fight: FightOutcome | None = None  # an "outcome" lesson's record
    # A counterfactual replay's regret (engine/replay/lessons.py): the action that did better (its label,
    # "use BUBBLE", "switch to PIDGEY") and the one the battle took; the rule-based policy follows it.
    prefer: str | None = None
    instead_of: str | None = None


# In a battle decision's reason, before a replay's regret it followed (engine/tactician/lookahead.py); a
# lost battle's reflection finds the regrets it followed by it (engine/reflection/inbox.py).
LESSON_MARK = "; lesson: "


class LessonContext(Frozen):
    """The situation lessons are retrieved for; any overlap with a lesson's structured keys counts."""

    our_types: tuple[str, ...] = ()
    enemy_types: tuple[str, ...] = ()
    species: tuple[str, ...] = ()  # both sides
    moves: tuple[str, ...] = ()
    opponent: str | None = None


def _norm(values: Iterable[str]) -> set[str]:
    return {value.strip().upper() for value in values if value.strip()}


def decayed_confidence(lesson: Lesson, now_play_hours: float, rate_per_hour: float) -> float:
    """Hyperbolic decay since the lesson was last confirmed, computed on read so nothing is rewritten on a
    timer. A clock that went backwards (a restored checkpoint) counts as no time elapsed."""
    elapsed = max(0.0, now_play_hours - lesson.updated_play_hours)
    return lesson.confidence / (1.0 + rate_per_hour * elapsed)


def equivalence_key(lesson: Lesson) -> str:
    """Two lessons with the same key say the same thing and are merged rather than stored twice."""
    parts = [
        lesson.kind,
        "a=" + ",".join(sorted(_norm(lesson.attacker_types))),
        "d=" + ",".join(sorted(_norm(lesson.defender_types))),
        "s=" + ",".join(sorted(_norm(lesson.species))),
        "m=" + (lesson.move.strip().upper() if lesson.move else ""),
        "o=" + (lesson.opponent.strip().upper() if lesson.opponent else ""),
    ]
    if lesson.prefer is not None or lesson.instead_of is not None:
        parts.append(f"p={lesson.prefer or ''}>{lesson.instead_of or ''}")
    if lesson.kind == "outcome":
        # Every fight is its own record: their results are what a calibration counts, not a merged belief.
        parts.append("b=" + ",".join(lesson.provenance))
    structured = any(
        (lesson.attacker_types, lesson.defender_types, lesson.species, lesson.move, lesson.opponent)
    )
    if not structured:
        # Without keys only the wording identifies the lesson; ignore case and spacing differences.
        parts.append("t=" + " ".join(lesson.text.lower().split()))
    return "|".join(parts)


def merge(existing: Lesson, new: Lesson, now_play_hours: float, rate_per_hour: float = 0.05) -> Lesson:
    """Fold a re-learned lesson into the stored one: evidence adds up, confidence is the evidence-weighted
    mean (the stored side decayed first, so stale belief counts less), the newer text wins."""
    evidence = existing.evidence + new.evidence
    old_conf = decayed_confidence(existing, now_play_hours, rate_per_hour)
    confidence = (old_conf * existing.evidence + new.confidence * new.evidence) / evidence
    provenance: list[str] = []
    for battle in (*existing.provenance, *new.provenance):
        if battle not in provenance:
            provenance.append(battle)
    newer = new if new.updated_play_hours >= existing.updated_play_hours else existing
    return existing.model_copy(
        update={
            "text": newer.text,
            "confidence": min(1.0, max(0.0, confidence)),
            "evidence": evidence,
            "measured": merge_measurements(existing.measured, new.measured),
            "provenance": tuple(provenance[-MAX_PROVENANCE:]),
            "created_play_hours": min(existing.created_play_hours, new.created_play_hours),
            "updated_play_hours": max(0.0, now_play_hours),
        }
    )


def structure_match(lesson: Lesson, context: LessonContext) -> float:
    """Fraction of the lesson's key groups that overlap the context (0 when the lesson has no keys)."""
    groups: list[bool] = []
    if lesson.attacker_types:
        groups.append(bool(_norm(lesson.attacker_types) & _norm(context.our_types)))
    if lesson.defender_types:
        groups.append(bool(_norm(lesson.defender_types) & _norm(context.enemy_types)))
    if lesson.species:
        groups.append(bool(_norm(lesson.species) & _norm(context.species)))
    if lesson.move:
        groups.append(bool(_norm([lesson.move]) & _norm(context.moves)))
    if lesson.opponent:
        groups.append(bool(context.opponent and _norm([lesson.opponent]) & _norm([context.opponent])))
    return sum(groups) / len(groups) if groups else 0.0


def relevance_score(
    similarity: float,
    lesson: Lesson,
    context: LessonContext,
    now_play_hours: float,
    rate_per_hour: float,
) -> float:
    """(w_sim·similarity + w_struct·structure + w_rec·recency + w_ev·evidence) × decayed confidence.

    similarity is clamped to [0, 1]; recency = 1 / (1 + hours since last used, or updated if never used);
    evidence = min(1, log1p(evidence) / log1p(EVIDENCE_SATURATION)).
    """
    sim = min(1.0, max(0.0, similarity))
    touched = lesson.last_used_play_hours
    if touched is None or touched < lesson.updated_play_hours:
        touched = lesson.updated_play_hours
    recency = 1.0 / (1.0 + max(0.0, now_play_hours - touched))
    evidence = min(1.0, math.log1p(lesson.evidence) / math.log1p(EVIDENCE_SATURATION))
    weighted = (
        WEIGHT_SIMILARITY * sim
        + WEIGHT_STRUCTURE * structure_match(lesson, context)
        + WEIGHT_RECENCY * recency
        + WEIGHT_EVIDENCE * evidence
    )
    return weighted * decayed_confidence(lesson, now_play_hours, rate_per_hour)
