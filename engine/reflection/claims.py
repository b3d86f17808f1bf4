"""Claims about type effectiveness in a lesson's words, and whether the type chart agrees with them.

A claim is "<term> <relation> <term>": "WATER moves are super effective against ROCK/GROUND",
"THUNDERSHOCK has no effect on ONIX", "GRASS is weak to FIRE". A term is a type (WATER, or a pair
ROCK/GROUND), a species (its types defend) or a move (its type attacks). Some relations read two ways
("X is weak against Y": Y's moves hurt X, or X's moves barely hurt Y); a claim contradicts the chart only
when no reading agrees with it. Clauses whose terms are not game names, or that are negated, claim
nothing checkable and are left alone.
"""

from __future__ import annotations

import re
from typing import Literal

from engine.frozen import Frozen
from engine.game.damage import type_effectiveness
from engine.game.tables import game_data
from engine.reflection.names import move_name, species_name, species_types, type_name
from engine.reflection.turns import FIXED_DAMAGE_POWER

Relation = Literal["super", "not_very", "no_effect", "immune", "resists", "weak", "strong"]

_AGAINST = r"(?:against|vs\.?|versus|on|to)"
_PATTERNS: tuple[tuple[Relation, str], ...] = (
    ("not_very", rf"\b(?:is|are|was|were)?\s*not\s+very\s+effective\s+{_AGAINST}\b"),
    ("super", rf"\b(?:is|are|was|were)?\s*super[- ]effective\s+{_AGAINST}\b"),
    ("no_effect", rf"\b(?:has|have|had)\s+no\s+effect\s+{_AGAINST}\b"),
    ("no_effect", r"\b(?:does|do|did)\s*(?:not|n't)\s+affect\b"),
    ("no_effect", r"\b(?:cannot|can't|can not)\s+(?:hit|affect|touch|hurt)\b"),
    ("immune", r"\b(?:is|are)\s+immune\s+to\b"),
    ("resists", r"\b(?:resists?|(?:is|are)\s+resistant\s+to)\b"),
    ("weak", r"\b(?:is|are|was|were)\s+weak\s+(?:to|against|vs\.?)\b"),
    ("strong", r"\b(?:(?:is|are)\s+strong\s+(?:against|vs\.?|versus)|beats?|outclass(?:es)?)\b"),
)
RELATIONS: tuple[tuple[Relation, re.Pattern[str]], ...] = tuple(
    (relation, re.compile(pattern, re.IGNORECASE)) for relation, pattern in _PATTERNS
)
_CLAUSES = re.compile(r"[;!?\n]|\.(?=\s|$)|,\s*(?:but|and|while|so|yet)\s")
_FILLER = frozenset(
    {"moves", "move", "attacks", "attack", "type", "types", "pokémon", "pokemon", "is", "are", "was", "were",
     "the", "a", "an", "enemy", "wild", "foe", "foes", "opposing", "its", "their", "any", "all", "that"}
)  # fmt: skip
_ATTACK_WORDS = frozenset({"moves", "move", "attacks", "attack"})
_NEGATIONS = frozenset({"not", "never", "isn't", "aren't", "wasn't", "weren't", "no"})
_STRIP = ".,:'\"()[]"


class Term(Frozen):
    text: str
    attacking: str | None = None  # the type that attacks when this term attacks
    defending: tuple[str, ...] = ()  # the types that defend when this term is hit


class Claim(Frozen):
    subject: Term
    relation: Relation
    object: Term
    clause: str
    subject_attacks: bool = False  # "WATER moves ...": the subject is what attacks, whatever the verb


def resolve(text: str) -> Term | None:
    """A type, a type pair, a species or a move, by any of its spellings."""
    word = text.strip(_STRIP)
    if word.lower().endswith("-type"):
        word = word[:-5]
    if "/" in word:
        parts = [type_name(part) for part in word.split("/")]
        if len(parts) == 2 and all(parts):
            return Term(text=word, defending=tuple(dict.fromkeys(p for p in parts if p)))
        return None
    if found := type_name(word):
        return Term(text=word, attacking=found, defending=(found,))
    if found := species_name(word):
        return Term(text=word, defending=species_types(found))
    if found := move_name(word):
        move = game_data().moves_by_name[found]
        return Term(text=word, attacking=move.type if move.power > FIXED_DAMAGE_POWER else None)
    return None


def _strip_words(words: list[str], from_end: bool) -> list[str]:
    words = [w.strip(_STRIP) for w in words if w.strip(_STRIP)]
    while words and (words[-1] if from_end else words[0]).lower() in _FILLER:
        words = words[:-1] if from_end else words[1:]
    return words


def _term(words: list[str], from_end: bool) -> Term | None:
    words = _strip_words(words, from_end)
    if not words:
        return None
    pick = (words[-2:], words[-1:]) if from_end else (words[:2], words[:1])
    for candidate in pick:
        term = resolve(" ".join(candidate))
        if term is not None:
            return term
    return None


def claims(text: str) -> list[Claim]:
    found = []
    for clause in _CLAUSES.split(text):
        for relation, pattern in RELATIONS:
            match = pattern.search(clause)
            if match is None:
                continue
            left = clause[: match.start()].split()
            if left and left[-1].lower() in _NEGATIONS:
                break  # "WATER is not weak to FIRE": a negation claims nothing we check
            subject, obj = _term(left, from_end=True), _term(clause[match.end() :].split(), from_end=False)
            if subject is not None and obj is not None:
                attacks = any(word.strip(_STRIP).lower() in _ATTACK_WORDS for word in left[-3:])
                found.append(Claim(subject=subject, relation=relation, object=obj, clause=clause.strip(),
                                   subject_attacks=attacks))  # fmt: skip
            break
    return found


def _multiplier(attacker: Term, defender: Term) -> float | None:
    if attacker.attacking is None or not defender.defending:
        return None
    return type_effectiveness(attacker.attacking, defender.defending[0], defender.defending[-1])


_HOLDS = {
    "super": lambda m: m > 1,
    "not_very": lambda m: 0 < m < 1,
    "no_effect": lambda m: m == 0,
    "resists": lambda m: m < 1,
}


def readings(claim: Claim) -> list[tuple[Term, Term, str]]:
    """(attacker, defender, what the multiplier must be) for each way the claim can be read."""
    s, o = claim.subject, claim.object
    if claim.subject_attacks and claim.relation in ("weak", "strong"):
        return [(s, o, "resists" if claim.relation == "weak" else "super")]
    return {
        "super": [(s, o, "super")],
        "not_very": [(s, o, "not_very")],
        "no_effect": [(s, o, "no_effect")],
        "immune": [(o, s, "no_effect")],
        "resists": [(o, s, "resists")],
        "weak": [(o, s, "super"), (s, o, "resists")],
        "strong": [(s, o, "super"), (o, s, "resists")],
    }[claim.relation]


def contradiction(claim: Claim) -> str | None:
    """Why the chart disagrees with the claim, or None (it agrees, or it cannot be checked)."""
    checked = []
    for attacker, defender, must in readings(claim):
        multiplier = _multiplier(attacker, defender)
        if multiplier is None:
            continue
        if _HOLDS[must](multiplier):
            return None
        pair = f"{attacker.attacking} against {'/'.join(defender.defending)} is {multiplier:g}x"
        checked.append(pair)
    if not checked:
        return None
    return f'"{claim.clause}" contradicts the type chart ({"; ".join(checked)})'


def keyed(claim: Claim) -> tuple[str, tuple[str, ...]] | None:
    """(attacking type, defending types) when the claim says unambiguously which side attacks."""
    options = readings(claim)
    if len(options) != 1:
        return None
    attacker, defender, _ = options[0]
    if attacker.attacking is None or not defender.defending:
        return None
    return attacker.attacking, defender.defending
