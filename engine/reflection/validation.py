"""Phase 5, validation: every candidate lesson is checked before it may reach memory.

A lesson is rejected, with its reason, when it
- carries text that reads like an attempt to steer a model (`injection`: INJECTION_PATTERNS on the text's
  plain form, COLLAPSED_PATTERNS on its letters run together; engine/procedural/screening.py, the screen
  a model's notes and skills pass too): lessons are shown to the deciding models later, so a planted
  instruction would travel into every future prompt;
- names a type, species, move or opponent the game does not have;
- is written mostly in words that are neither game names nor the battle English of vocabulary.txt;
- contradicts the type chart (a claim in its words, or a type_matchup lesson whose stated effectiveness
  disagrees with `type_effectiveness`);
- rests on too little evidence or confidence (the MIN_ constants).
A move the species cannot learn is allowed: the log says it was used, and the lesson is about the numbers.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from importlib import resources

from engine.frozen import Frozen
from engine.game.damage import type_effectiveness
from engine.memory.lessons import Lesson
from engine.procedural.screening import COLLAPSED_PATTERNS as COLLAPSED_PATTERNS
from engine.procedural.screening import INJECTION_PATTERNS as INJECTION_PATTERNS
from engine.procedural.screening import injection
from engine.reflection.claims import claims, contradiction
from engine.reflection.names import known_opponent, mentions, move_name, species_name, type_name, vocabulary
from engine.reflection.normalize import words
from engine.reflection.synthesis import Candidate
from engine.reflection.turns import ChartClass, chart_class

# A lesson is a sentence about the game. When most of its words are neither game names nor the English
# lessons are written in, it carries something else: another language, an encoded payload, or words
# spelled to slip past the patterns above. A few such words (a nickname, a typo) are tolerated.
MAX_UNKNOWN_SHARE = 0.5
MIN_UNKNOWN_WORDS = 3
UNKNOWN_WORDS_SHOWN = 8
# One unknown "word" longer than any English or game word a lesson needs is an encoded blob (base64, hex),
# which the share above would let through alone among ordinary words.
LONGEST_UNKNOWN_WORD = 24
# Numbers are known in any form lessons write them: 40, 1st, 2x, x2, L14, TM28 ("#1" and "38.9%" split into
# digits).
_NUMBER = re.compile(r"\d+(?:st|nd|rd|th|x|s|hp|pp)?|(?:l|x|tm|hm)\d+")
# Endings that make another word of a listed one, with what the word ended in before ("tries" → "try").
_ENDINGS: tuple[tuple[str, str], ...] = (
    ("ies", "y"), ("ied", "y"), ("ier", "y"), ("iest", "y"), ("ily", "y"),
    ("ing", ""), ("ed", ""), ("es", ""), ("s", ""), ("ly", ""), ("er", ""), ("est", ""), ("ers", ""),
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


@cache
def known_words() -> frozenset[str]:
    """Every word a lesson may use: the battle English of vocabulary.txt and each word of every game name
    in all its spellings (DOUBLE KICK, DOUBLE_KICK and DOUBLEKICK give double, kick and doublekick)."""
    listed = resources.files("engine.reflection").joinpath("vocabulary.txt").read_text(encoding="utf-8")
    english = [word for line in listed.splitlines() for word in words(line.partition("#")[0])]
    game = vocabulary()
    spellings = [
        s for table in (game.types, game.species, game.moves, game.trainers, game.items) for s in table
    ]
    names = [word for spelling in spellings for word in (*words(spelling), "".join(words(spelling)))]
    return frozenset(word for word in (*english, *names) if word)


def _stems(word: str) -> list[str]:
    """The word and what it may be an inflection of: "hitting" → hitt, hit; "raised" → rais, raise."""
    found = [word]
    for ending, before in _ENDINGS:
        base = word[: -len(ending)]
        if word.endswith(ending) and len(base) >= 3:
            found += [base + before, base + "e"]
            if base[-1] == base[-2]:
                found.append(base[:-1])
    return found


def known_word(word: str) -> bool:
    word = word.removesuffix("'s")
    return bool(_NUMBER.fullmatch(word)) or any(stem in known_words() for stem in _stems(word))


def unfamiliar_words(text: str) -> str | None:
    """Why the text is mostly words that are neither game names nor battle English (or holds one blob no
    word is as long as), or None."""
    found = words(text)
    unknown = [word for word in found if not known_word(word)]
    if blob := next((word for word in unknown if len(word) > LONGEST_UNKNOWN_WORD), None):
        return f"a run of {len(blob)} characters that is no word: {blob[:LONGEST_UNKNOWN_WORD]}…"
    if len(unknown) < MIN_UNKNOWN_WORDS or len(unknown) <= MAX_UNKNOWN_SHARE * len(found):
        return None
    shown = list(dict.fromkeys(unknown))
    more = f" and {len(shown) - UNKNOWN_WORDS_SHOWN} more" if len(shown) > UNKNOWN_WORDS_SHOWN else ""
    return (
        f"mostly words that are not game names or battle vocabulary: "
        f"{', '.join(shown[:UNKNOWN_WORDS_SHOWN])}{more} ({len(unknown)} of {len(found)} words)"
    )


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
    return (
        unknown_names(lesson)
        or unfamiliar_words(lesson.text)
        or chart_contradiction(lesson)
        or too_weak(lesson)
    )


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
