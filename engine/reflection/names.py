"""Game names as the reflection phases read and check them: types, species, moves, trainer classes and
items, each known by its disassembly name (WATER_GUN, PSYCHIC_TYPE, NIDORAN_M) and by what the game shows
(WATER GUN, PSYCHIC, NIDORAN♂).

Lessons keep the disassembly names (they are what RAM decodes to, so retrieval matches them exactly);
these lookups turn any spelling a model may write into those names, and say when a name is not a game name
at all. `mentions` finds the names a free-text lesson uses: names written in capitals, as the reflection
prompt asks, plus type words in lower case when "type(s)", "move(s)" or "attack(s)" follows ("water types").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache

from engine.game.items import BATTLE_ITEMS
from engine.game.tables import game_data

# Words after a lower-case type name that make it a type, not English ("keep fighting", "normal play").
TYPE_MARKERS = frozenset({"type", "types", "move", "moves", "attack", "attacks", "pokémon", "pokemon"})
_TOKEN = re.compile(r"[^\s,;:!?()\[\]{}\"]+")
_EDGE_PUNCTUATION = ".'-"
_POSSESSIVE = re.compile(r"['’]s$")
_USE_WORDS = frozenset({"use", "used", "using", "uses"})
_OPPONENT = re.compile(r"^(?P<trainer>.+?)\s*#\s*(?P<number>\d+)$")


def _key(text: str) -> str:
    return " ".join(text.replace("_", " ").split()).upper()


@dataclass(frozen=True)
class Vocabulary:
    """Every spelling (upper case, underscores as spaces) → the disassembly name."""

    types: dict[str, str]
    species: dict[str, str]
    moves: dict[str, str]
    trainers: dict[str, str]
    items: dict[str, str]


def _spellings(pairs: list[tuple[str, str | None]]) -> dict[str, str]:
    found: dict[str, str] = {}
    for name, display in pairs:
        for spelling in (name, display or name):
            found.setdefault(_key(spelling), name)
    return found


@cache
def vocabulary() -> Vocabulary:
    data = game_data()
    items = [(item.name, item.display_name) for item in data.items.values()]
    items += [(name, None) for name in BATTLE_ITEMS]
    return Vocabulary(
        # Types first for PSYCHIC, which names a type, a move (PSYCHIC_M) and a trainer class (PSYCHIC_TR).
        types=_spellings([(t.name, t.display_name) for t in data.types_by_name.values()]),
        species=_spellings([(s.name, s.display_name) for s in data.species_by_name.values()]),
        moves=_spellings([(m.name, m.display_name) for m in data.moves_by_name.values()]),
        trainers=_spellings([(t.name, t.display_name) for t in data.trainer_classes.values()]),
        items=_spellings(items),
    )


def type_name(text: str) -> str | None:
    return vocabulary().types.get(_key(text))


def species_name(text: str) -> str | None:
    return vocabulary().species.get(_key(text))


def move_name(text: str) -> str | None:
    return vocabulary().moves.get(_key(text))


def trainer_class(text: str) -> str | None:
    return vocabulary().trainers.get(_key(text))


def item_name(text: str) -> str | None:
    return vocabulary().items.get(_key(text))


def type_display(name: str) -> str:
    found = game_data().types_by_name.get(name)
    return found.display_name if found else name


def species_types(species: str | None) -> tuple[str, ...]:
    """The species' types, once each (ONIX: ROCK, GROUND; PIKACHU: ELECTRIC); () if unknown."""
    found = game_data().species_by_name.get(species_name(species) or "") if species else None
    return tuple(dict.fromkeys(found.types)) if found else ()


def known_opponent(opponent: str) -> bool:
    """A trainer as the battle log names one ("BROCK #1"), a trainer class, or a wild species."""
    match = _OPPONENT.match(opponent.strip())
    if match:
        return trainer_class(match.group("trainer")) is not None
    return trainer_class(opponent) is not None or species_name(opponent) is not None


def opponent_class(opponent: str) -> str | None:
    """The trainer class of "BROCK #1" (BROCK), or None for a wild opponent."""
    match = _OPPONENT.match(opponent.strip())
    return trainer_class(match.group("trainer")) if match else None


@dataclass
class Mentions:
    """The game names a text uses, in order of first mention, as disassembly names."""

    types: list[str] = field(default_factory=list)
    species: list[str] = field(default_factory=list)
    moves: list[str] = field(default_factory=list)
    trainers: list[str] = field(default_factory=list)
    items: list[str] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)  # written like a game name, but not one

    def add(self, kind: str, name: str) -> None:
        names: list[str] = getattr(self, kind)
        if name not in names:
            names.append(name)


def _caps(token: str) -> bool:
    return any(c.isupper() for c in token) and not any(c.islower() for c in token)


def _lookup(text: str) -> tuple[str, str] | None:
    """(kind, name) for one spelling; types win over moves over trainers (PSYCHIC is a type)."""
    vocab = vocabulary()
    key = _key(text)
    for kind, table in (("types", vocab.types), ("species", vocab.species), ("moves", vocab.moves),
                        ("trainers", vocab.trainers), ("items", vocab.items)):  # fmt: skip
        if key in table:
            return kind, table[key]
    return None


def _lookup_token(token: str) -> tuple[str, str] | None:
    return _lookup(token) or _lookup(token.strip(_EDGE_PUNCTUATION))


def _looks_like_a_name(token: str, previous: str) -> bool:
    """A capitals token that can only be meant as a game name: an identifier (WATER_GUN) or what follows
    "use" ("use AQUAJET"). Other capitals (HP, KO, NEVER) are left alone."""
    word = token.strip(_EDGE_PUNCTUATION)
    return "_" in word or (previous.lower() in _USE_WORDS and len(word) >= 3 and word.isalpha())


def mentions(text: str) -> Mentions:
    found = Mentions()
    tokens = [_POSSESSIVE.sub("", token) for token in _TOKEN.findall(text)]
    index = 0
    while index < len(tokens):
        token = tokens[index]
        following = tokens[index + 1] if index + 1 < len(tokens) else ""
        if _caps(token):
            pair = _caps(following) and _lookup(f"{token} {following.strip(_EDGE_PUNCTUATION)}")
            if pair:  # two-word names: WATER GUN, BUG CATCHER
                found.add(*pair)
                index += 2
                continue
            previous = tokens[index - 1] if index else ""
            for part in token.split("/"):  # ROCK/GROUND
                single = _lookup_token(part)
                if single:
                    found.add(*single)
                elif _looks_like_a_name(part, previous):
                    found.add("unknown", part.strip(_EDGE_PUNCTUATION))
        else:
            word = token.strip(_EDGE_PUNCTUATION)
            stem, _, suffix = word.partition("-")
            marker = suffix.lower() if suffix else following.strip(_EDGE_PUNCTUATION).lower()
            kind_name = type_name(stem) if marker in TYPE_MARKERS else None
            if kind_name:
                found.add("types", kind_name)
        index += 1
    return found
