"""The battle catalogue (tests/support/catalogue.py) is well formed, without a cartridge: species, moves,
items, trainers and stages exist; every move is one the member could know at that point of the game."""

from __future__ import annotations

from collections import Counter
from functools import cache

import pytest

from engine.game.tables import GameData, game_data
from tests.support.catalogue import (
    BAGS,
    CATALOGUE,
    CATEGORIES,
    STAGE_TEAMS,
    STAGES,
    TMS_BY_STAGE,
    CatalogueScenario,
    moves_of,
)

BAG_SLOTS = 20  # the bag holds 20 kinds of item
PARTY_SLOTS = 6


@cache
def _previous_forms() -> dict[str, str]:
    """Species -> what it evolves from."""
    return {e.into: s.name for s in game_data().species_by_name.values() for e in s.evolutions}


def levelled_up_moves(species: str, level: int) -> set[str]:
    """Every move the species, or a form it evolved from, learns by levelling up to `level`."""
    data = game_data()
    known: set[str] = set()
    name: str | None = species
    while name is not None:
        entry = data.species_by_name[name]
        known |= set(entry.start_moves) | {move for at, move in entry.learnset if at <= level}
        name = _previous_forms().get(name)
    return known


def taught_moves(species: str, stage: str) -> set[str]:
    """The TM and HM moves the species can learn from the machines a player has by `stage`."""
    data = game_data()
    machines = {item.display_name: item for item in data.items.values() if item.teaches}
    taught = {machines[code].name: machines[code].teaches for code in data.species_by_name[species].tmhm}
    return {move for item, move in taught.items() if item in TMS_BY_STAGE[stage] and move is not None}


def member_problems(species: str, level: int, moves: list[str], stage: str, data: GameData) -> list[str]:
    if species not in data.species_by_name:
        return [f"no species {species}"]
    problems = [] if 2 <= level <= 100 else [f"{species} at level {level}"]
    if not 1 <= len(moves) <= 4 or len(set(moves)) != len(moves):
        problems.append(f"{species} has moves {moves}")
    allowed = levelled_up_moves(species, level) | taught_moves(species, stage)
    for move in moves:
        if move not in data.moves_by_name:
            problems.append(f"no move {move}")
        elif move not in allowed:
            problems.append(f"{species} L{level} cannot know {move} by {stage}")
    return problems


def opponent_problems(scenario: CatalogueScenario, data: GameData) -> list[str]:
    name, number = scenario.opponent
    if scenario.category == "wild":
        ok = name in data.species_by_name and 2 <= number <= 100
        return [] if ok else [f"no wild {name} L{number}"]
    parties = {(p.trainer_class, p.number) for p in data.trainer_parties}
    return [] if (name, number) in parties else [f"no trainer {name} #{number}"]


def scenario_problems(scenario: CatalogueScenario) -> list[str]:
    data = game_data()
    problems = opponent_problems(scenario, data)
    if scenario.stage not in STAGES or scenario.category not in CATEGORIES:
        problems.append(f"stage {scenario.stage}, category {scenario.category}")
    if not 1 <= len(scenario.party) <= PARTY_SLOTS:
        problems.append(f"{len(scenario.party)} members")
    for member in scenario.party:
        problems += member_problems(member[0], member[1], moves_of(member), scenario.stage, data)
    if len(scenario.bag) > BAG_SLOTS:
        problems.append(f"{len(scenario.bag)} kinds of item")
    for item, quantity in scenario.bag:
        if item not in data.item_ids or not 1 <= quantity <= 99:
            problems.append(f"bag: {quantity} {item}")
    if not 0 <= scenario.badges <= 8:
        problems.append(f"{scenario.badges} badges")
    for slot, move, pp in scenario.pp:
        if slot >= len(scenario.party) or move >= len(moves_of(scenario.party[slot])) or not 0 <= pp < 64:
            problems.append(f"PP {pp} for move {move} of member {slot}")
    return problems


@pytest.mark.parametrize("scenario", CATALOGUE, ids=lambda s: s.name)
def test_every_scenario_is_well_formed(scenario: CatalogueScenario) -> None:
    assert scenario_problems(scenario) == []
    assert scenario.description and "\n" not in scenario.description


def test_a_move_out_of_reach_is_caught() -> None:
    data = game_data()
    # BUTTERFREE learns SLEEP POWDER at 17; SURF comes with the Safari Zone, long after Brock.
    assert member_problems("BUTTERFREE", 12, ["SLEEP_POWDER"], "pewter", data)
    assert member_problems("SQUIRTLE", 14, ["SURF"], "pewter", data)
    assert not member_problems("BLASTOISE", 40, ["SURF", "BUBBLE"], "fuchsia", data)
    assert member_problems("CHARMANDER", 10, ["THUNDERBOLT"], "league", data)  # not in its TM list


def test_names_are_unique_and_every_category_is_there() -> None:
    names = Counter(s.name for s in CATALOGUE)
    assert [name for name, count in names.items() if count > 1] == []
    assert set(CATEGORIES) == {s.category for s in CATALOGUE}
    assert 150 <= len(CATALOGUE) <= 200


def test_stage_tables_cover_every_stage() -> None:
    assert set(BAGS) == set(STAGES) == set(TMS_BY_STAGE)
    for teams in STAGE_TEAMS.values():
        assert set(teams) == {"CHARMANDER", "SQUIRTLE", "BULBASAUR"}
    machines = {item.name for item in game_data().items.values() if item.teaches}
    assert TMS_BY_STAGE["league"] <= machines


def test_the_rival_answers_our_starter() -> None:
    # The rival takes the starter strong against ours: his last member is of the line that beats it.
    beats = {"CHARMANDER": "SQUIRTLE", "SQUIRTLE": "BULBASAUR", "BULBASAUR": "CHARMANDER"}
    lines = {
        "SQUIRTLE": {"SQUIRTLE", "WARTORTLE", "BLASTOISE"},
        "BULBASAUR": {"BULBASAUR", "IVYSAUR", "VENUSAUR"},
        "CHARMANDER": {"CHARMANDER", "CHARMELEON", "CHARIZARD"},
    }
    parties = {(p.trainer_class, p.number): p.party for p in game_data().trainer_parties}
    rivals = [s for s in CATALOGUE if s.opponent[0] in ("RIVAL1", "RIVAL2", "RIVAL3")]
    assert len(rivals) >= 21
    for scenario in rivals:
        ours = next(starter for starter, line in lines.items() if line & {m[0] for m in scenario.party})
        assert parties[scenario.opponent][-1].species in lines[beats[ours]], scenario.name


def test_digest_follows_what_decides_the_battle() -> None:
    first, second = CATALOGUE[0], CATALOGUE[1]
    assert first.digest() == CATALOGUE[0].digest()
    assert first.digest() != second.digest()
