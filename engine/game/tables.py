"""Gen 1 data tables (package data under `engine/game/data/`, facts from the pret/pokered disassembly).

Every JSON file names the disassembly files its facts come from in its "source" key.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from engine.frozen import Frozen


class BaseStats(Frozen):
    hp: int
    attack: int
    defense: int
    speed: int
    special: int


class Evolution(Frozen):
    method: str
    level: int
    into: str
    item: str | None = None


class Species(Frozen):
    index: int
    dex: int
    name: str
    display_name: str
    types: tuple[str, str]
    base: BaseStats
    catch_rate: int
    base_exp: int
    growth_rate: str
    start_moves: tuple[str, ...]
    learnset: tuple[tuple[int, str], ...]
    evolutions: tuple[Evolution, ...]
    tmhm: tuple[str, ...] = ()


class Move(Frozen):
    id: int
    name: str
    display_name: str
    type: str
    power: int
    accuracy: int
    accuracy_byte: int
    pp: int
    effect: str


class TypeInfo(Frozen):
    id: int
    name: str
    display_name: str


class TypeMatchup(Frozen):
    attacker: str
    defender: str
    multiplier: float


class NamedId(Frozen):
    id: int
    name: str
    display_name: str | None = None
    teaches: str | None = None


class TrainerPartyMember(Frozen):
    level: int
    species: str


class TrainerParty(Frozen):
    # "class" is a keyword, so the field has another name in Python.
    trainer_class: str
    number: int
    party: tuple[TrainerPartyMember, ...]


def _entries(filename: str) -> list[dict[str, Any]]:
    text = resources.files("engine.game.data").joinpath(filename).read_text(encoding="utf-8")
    entries: list[dict[str, Any]] = json.loads(text)["entries"]
    return entries


class GameData:
    """Indexed, read-only view of every table."""

    def __init__(self) -> None:
        species = [Species(**entry) for entry in _entries("species.json")]
        moves = [Move(**entry) for entry in _entries("moves.json")]
        self.species_by_index: dict[int, Species] = {s.index: s for s in species}
        self.species_by_name: dict[str, Species] = {s.name: s for s in species}
        self.moves_by_id: dict[int, Move] = {m.id: m for m in moves}
        self.moves_by_name: dict[str, Move] = {m.name: m for m in moves}
        types = [TypeInfo(**entry) for entry in _entries("types.json")]
        self.types_by_id: dict[int, TypeInfo] = {t.id: t for t in types}
        self.types_by_name: dict[str, TypeInfo] = {t.name: t for t in types}
        self.type_chart: tuple[TypeMatchup, ...] = tuple(
            TypeMatchup(**entry) for entry in _entries("type_chart.json")
        )
        self.trainer_classes: dict[int, NamedId] = _by_id("trainer_classes.json")
        self.maps: dict[int, NamedId] = _by_id("maps.json")
        self.items: dict[int, NamedId] = _by_id("items.json")
        self.item_ids: dict[str, int] = {item.name: item_id for item_id, item in self.items.items()}
        # Unit prices in yen, by item name; an item without one is not for sale.
        self.item_prices: dict[str, int] = {e["name"]: e["price"] for e in _entries("item_prices.json")}
        self.events: dict[int, str] = {e["index"]: e["name"] for e in _entries("events.json")}
        self.event_index: dict[str, int] = {name: index for index, name in self.events.items()}
        self.toggle_index: dict[str, int] = {e["name"]: e["index"] for e in _entries("toggles.json")}
        self.trainer_parties: tuple[TrainerParty, ...] = tuple(
            TrainerParty(trainer_class=e["class"], number=e["number"], party=e["party"])
            for e in _entries("trainer_parties.json")
        )

    def species_name(self, index: int) -> str | None:
        found = self.species_by_index.get(index)
        return found.name if found else None

    def move_name(self, move_id: int) -> str | None:
        found = self.moves_by_id.get(move_id)
        return found.name if found else None

    def type_name(self, type_id: int) -> str | None:
        found = self.types_by_id.get(type_id)
        return found.name if found else None


def _by_id(filename: str) -> dict[int, NamedId]:
    return {e["id"]: NamedId(**e) for e in _entries(filename)}


@cache
def game_data() -> GameData:
    """The tables, loaded once per process (they are immutable)."""
    return GameData()
