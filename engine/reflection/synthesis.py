"""Phase 3, insight synthesis: candidate lessons from what the battle showed.

Two synthesizers:
- rule-based, for every battle (free): measured move lessons (our move against an enemy species: HP bar
  share per use and hit rate, the numbers the rule-based policy learns from), type-matchup lessons where
  the game announced an effectiveness, opponent lessons for trainer battles (what won or lost against that
  trainer), resource lessons (items used, PP run out);
- the model, through the gateway on the reflection tier, when the role decides the battle is worth it:
  its insights become lessons, their keys (kind, types, species, move, opponent) read from the insight's
  own words by game name, the way the prompt asks the model to write them.

Lessons here are candidates: stamped with play time 0 (the memory service stamps its own clock) and not
yet validated.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Sequence
from typing import Any

from pydantic import ValidationError

from engine.battles.models import BattleLog
from engine.config import Tier
from engine.frozen import Frozen
from engine.llm.answers import Insight, ReflectionAnswer
from engine.llm.port import GatewayPort
from engine.llm.render import render_reflection
from engine.llm.tasks import ModelOutcome, ModelTask
from engine.memory.lessons import Lesson, LessonKind, Measurement
from engine.messages import Selection
from engine.reflection.claims import claims, keyed
from engine.reflection.detect import Failure
from engine.reflection.forensics import Forensics, MoveMeasure
from engine.reflection.names import mentions, opponent_class, species_types, type_display

RULE_BASED = "rule_based"
LESSON_TEXT_MAX = 300  # Lesson.text's limit
# A measured lesson's confidence grows with its uses as n / (n + MEASURE_PRIOR_USES): 2 uses 0.5, 4 uses
# 0.67, 8 uses 0.8. It never reaches 1 from one battle: the damage roll and critical hits vary.
MEASURE_PRIOR_USES = 2
# The game's own effectiveness message, checked against the chart in validation: close to certain.
TYPE_SEEN_CONFIDENCE = 0.9
# One battle against a fixed trainer team shows what worked, but a critical hit or two misses can decide a
# single battle: better than even, far from sure.
OPPONENT_CONFIDENCE = 0.6
# Items used and PP run out depend on how the battle went as much as on the opponent.
RESOURCE_CONFIDENCE = 0.6
# How many of each finding the model is shown: enough to explain a battle, short enough to stay cheap.
FINDINGS_SHOWN = 8
_RESOURCE_WORDS = re.compile(r"\b(?:potions?|pp|heal(?:s|ing)?|revives?|items?|balls?|struggle)\b", re.I)
_MAX_SPECIES_KEYS = 6


class Candidate(Frozen):
    """A lesson proposed by one synthesizer, or (lesson None) an insight no lesson could be made of."""

    by: str  # "rule_based" or the model tier
    text: str
    lesson: Lesson | None = None
    problem: str | None = None


class ModelSynthesis(Frozen):
    selection: Selection
    answer: ReflectionAnswer | None = None
    summary: str | None = None
    candidates: tuple[Candidate, ...] = ()


def _clip(text: str) -> str:
    return text if len(text) <= LESSON_TEXT_MAX else text[: LESSON_TEXT_MAX - 1].rstrip() + "…"


def _types(types: Sequence[str]) -> str:
    return "/".join(type_display(t) for t in types) or "?"


def candidate(
    by: str, kind: LessonKind, text: str, confidence: float, battle_id: str, **keys: Any
) -> Candidate:
    """A Candidate holding a Lesson, or the reason the lesson could not be built."""
    try:
        lesson = Lesson(
            lesson_id=uuid.uuid4().hex,
            kind=kind,
            text=_clip(text),
            confidence=round(confidence, 3),
            evidence=1,
            provenance=(battle_id,),
            created_play_hours=0.0,
            updated_play_hours=0.0,
            **keys,
        )
    except ValidationError as exc:
        problem = "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors())
        return Candidate(by=by, text=text, problem=f"not a valid lesson: {problem}")
    return Candidate(by=by, text=text, lesson=lesson)


# -- rule-based ------------------------------------------------------------------------------------------


def measured_text(measure: MoveMeasure) -> str:
    uses = f"{measure.uses} use" + ("s" if measure.uses != 1 else "")
    share = f"{measure.damage_percent or 0:.0f}%"
    text = f"{measure.move} vs {measure.species}: {share} of its HP per use over {uses}"
    if measure.hit_known:
        text += f", hit {measure.hits}/{measure.hit_known}"
    effect = measure.observed or measure.chart
    if effect and effect != "normal":
        text += f" ({effect.replace('_', ' ')}{' effective' if effect in ('super', 'not_very') else ''})"
    return text


def measured_candidates(measures: Sequence[MoveMeasure], battle_id: str) -> list[Candidate]:
    found = []
    for measure in measures:
        if measure.uses == 0 or measure.damage_percent is None:
            continue
        measurement = Measurement(
            uses=measure.uses,
            damage_percent=min(100.0, max(0.0, measure.damage_percent)),
            hit_rate=measure.hit_rate,
        )
        confidence = measure.uses / (measure.uses + MEASURE_PRIOR_USES)
        keys = {
            "move": measure.move,
            "species": (measure.species,),
            "attacker_types": measure.attacker_types,
            "defender_types": measure.defender_types,
            "measured": measurement,
        }
        found.append(candidate(RULE_BASED, "move", measured_text(measure), confidence, battle_id, **keys))
    return found


_EFFECT_WORDS = {
    "super": "are super effective against",
    "not_very": "are not very effective against",
    "no_effect": "have no effect on",
}


def _type_matchups(forensics: Forensics, battle_id: str) -> list[Candidate]:
    seen: dict[tuple[str, tuple[str, ...], str], list[str]] = {}
    for observed in forensics.effectiveness:
        key = (observed.move_type, observed.defender_types, observed.effectiveness)
        seen.setdefault(key, []).append(f"{observed.move} vs {observed.species}")
    found = []
    for (attacker, defenders, effect), examples in seen.items():
        if not defenders:
            continue
        text = f"{_types([attacker])} moves {_EFFECT_WORDS[effect]} {_types(defenders)}"
        text += f" (seen: {', '.join(examples)})"
        found.append(
            candidate(
                RULE_BASED,
                "type_matchup",
                text,
                TYPE_SEEN_CONFIDENCE,
                battle_id,
                attacker_types=(attacker,),
                defender_types=defenders,
            )
        )
    return found


def _best(measures: Sequence[MoveMeasure]) -> MoveMeasure | None:
    usable = [m for m in measures if m.damage_percent and m.uses]
    return max(usable, key=lambda m: m.damage_percent or 0.0) if usable else None


def _enemy_species(forensics: Forensics) -> tuple[str, ...]:
    return tuple(dict.fromkeys(name.rsplit(" L", 1)[0] for name in forensics.enemies))[:_MAX_SPECIES_KEYS]


def _opponent(log: BattleLog, failure: Failure, forensics: Forensics) -> list[Candidate]:
    summary = log.summary
    if summary.battle_type != "trainer":
        return []
    team = ", ".join(forensics.participants) or "?"
    fainted = f"; fainted: {', '.join(forensics.our_faints)}" if forensics.our_faints else ""
    if summary.outcome == "victory":
        text = f"Beat {summary.opponent} in {summary.turns} turns with {team}{fainted}"
        if (best := _best(forensics.measured)) is not None:
            text += f"; best: {best.move} vs {best.species}, {best.damage_percent:.0f}% of its HP per use"
    else:
        knocked = len(forensics.enemy_faints)
        text = (
            f"Lost to {summary.opponent} after {summary.turns} turns with {team}{fainted}; "
            f"knocked out {knocked} of the {len(forensics.enemies)} of theirs seen"
        )
        worst = next((m for m in forensics.mistakes if m.kind in ("no_effect", "bad_switch")), None)
        if worst is not None:
            text += f"; {worst.detail}"
    text += f" ({failure.kind})"
    return [
        candidate(
            RULE_BASED,
            "opponent",
            text,
            OPPONENT_CONFIDENCE,
            summary.battle_id,
            opponent=summary.opponent,
            species=_enemy_species(forensics),
        )
    ]


def _resources(log: BattleLog, forensics: Forensics) -> list[Candidate]:
    summary = log.summary
    where: dict[str, Any] = {"opponent": summary.opponent} if summary.battle_type == "trainer" else {}
    if not where and forensics.enemies:
        where = {"species": _enemy_species(forensics)}
    against = (
        f"{'against' if summary.battle_type == 'trainer' else 'in a wild battle against'} {summary.opponent}"
    )
    found = []
    used = forensics.resources.items
    if used:
        items = ", ".join(f"{item.name} x{item.count}" for item in used)
        text = f"Used {items} {against}; the battle ended in {summary.outcome} after {summary.turns} turns"
        found.append(candidate(RULE_BASED, "resource", text, RESOURCE_CONFIDENCE, summary.battle_id, **where))
    if forensics.resources.struggles:
        text = f"Ran out of PP {against}: STRUGGLE {forensics.resources.struggles} times"
        found.append(
            candidate(
                RULE_BASED, "resource", text, RESOURCE_CONFIDENCE, summary.battle_id, move="STRUGGLE", **where
            )
        )
    return found


def rule_based(log: BattleLog, failure: Failure, forensics: Forensics) -> list[Candidate]:
    battle_id = log.summary.battle_id
    return [
        *measured_candidates(forensics.measured, battle_id),
        *_type_matchups(forensics, battle_id),
        *_opponent(log, failure, forensics),
        *_resources(log, forensics),
    ]


# -- the model -------------------------------------------------------------------------------------------


def findings(failure: Failure, forensics: Forensics) -> list[str]:
    """What the engine measured, as lines for the reflection prompt (decisions numbered from 1)."""
    lines = [f"classification: {failure.kind} ({'; '.join(failure.reasons)})"]
    lines += [
        f"turning point at decision {p.decision + 1} ({p.action}): {p.detail}"
        for p in forensics.turning_points[:FINDINGS_SHOWN]
    ]
    lines += [
        f"mistake at decision {m.decision + 1} ({m.action}): {m.detail}"
        for m in forensics.mistakes[:FINDINGS_SHOWN]
    ]
    measured = sorted(forensics.measured, key=lambda m: -(m.damage_percent or 0.0))
    lines += [f"measured: {measured_text(m)}" for m in measured[:FINDINGS_SHOWN] if m.uses]
    resources = forensics.resources
    if resources.items or resources.balls:
        used = ", ".join(f"{c.name} x{c.count}" for c in (*resources.items, *resources.balls))
        lines.append(f"items used: {used}")
    if resources.struggles:
        lines.append(f"out of PP: STRUGGLE {resources.struggles} times")
    return lines


def _insight_text(insight: Insight) -> str:
    text = insight.lesson.strip()
    when = insight.applies_to.strip()
    if when and when.lower() not in text.lower() and len(text) + len(when) + 3 <= LESSON_TEXT_MAX:
        text = f"{text} [{when}]"
    return text


def from_insight(insight: Insight, log: BattleLog, by: str) -> Candidate:
    """A model insight as a candidate lesson, its keys read from its words."""
    text = _insight_text(insight)
    names = mentions(text)
    said = claims(text)
    keys: dict[str, Any] = {}
    kind: LessonKind
    if said:
        kind = "type_matchup"
        typed = next((pair for claim in said if (pair := keyed(claim)) is not None), None)
        if typed is not None:
            keys |= {"attacker_types": (typed[0],), "defender_types": typed[1]}
    elif names.items:
        kind = "resource"
    elif names.moves and names.species:
        kind = "move"
    elif _RESOURCE_WORDS.search(text):
        kind = "resource"
    elif names.trainers:
        kind = "opponent"
    else:
        kind = "sequence"
    if names.species:
        keys["species"] = tuple(names.species[:_MAX_SPECIES_KEYS])
    if names.moves:
        keys["move"] = names.moves[0]
    if names.trainers:
        ours = opponent_class(log.summary.opponent)
        keys["opponent"] = log.summary.opponent if ours in names.trainers else names.trainers[0]
    if kind == "move" and "defender_types" not in keys and len(names.species) == 1:
        keys["defender_types"] = species_types(names.species[0])
    return candidate(by, kind, text, insight.confidence, log.summary.battle_id, **keys)


def ask_model(
    gateway: GatewayPort, wanted: Tier, log: BattleLog, failure: Failure, forensics: Forensics
) -> ModelSynthesis:
    """Ask the reflection tier; the gateway steps down tiers itself and answers None when none could."""
    system, user = render_reflection(log, findings(failure, forensics))
    task = ModelTask(
        role="reflection",
        answer="reflection",
        wanted=wanted,
        reason=f"reflection on a {failure.kind} battle",
        system=system,
        user=user,
        battle_id=log.summary.battle_id,
    )
    outcome: ModelOutcome = gateway.ask(task)
    answer = outcome.answer_as(ReflectionAnswer)
    if answer is None:
        return ModelSynthesis(selection=outcome.selection)
    by = outcome.selection.tier
    return ModelSynthesis(
        selection=outcome.selection,
        answer=answer,
        summary=answer.summary,
        candidates=tuple(from_insight(insight, log, by) for insight in answer.insights),
    )
