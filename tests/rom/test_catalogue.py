"""The battle catalogue on a real cartridge: one scenario of each category sets up and its battle starts
against the intended opponent, with our party, bag, badges and PP as the scenario says."""

from __future__ import annotations

import pytest

from engine.emulator.session import EmulatorSession
from engine.game.models import DecisionPoint, GameState
from engine.game.tables import game_data
from tests.support.catalogue import CATALOGUE, CATEGORIES, LOW_PP, CatalogueScenario, by_name, moves_of
from tests.support.scenarios import advance_to

pytestmark = pytest.mark.rom

# One of each category; the low-PP Elite Four battle also checks the PP, the Champion the starter rule.
SAMPLE = (
    "wild_mt_moon_zubat_11",
    "trainer_juggler_2",
    "gym_misty_status",
    "giovanni_giovanni_2_full_six",
    "elite_four_lance_low_pp",
    "elite_four_champion_wrong_type",
    "rival_cerulean_bulbasaur",
)
MENUS = {DecisionPoint.BATTLE_MAIN_MENU, DecisionPoint.BATTLE_MOVE_MENU}


def test_the_sample_covers_every_category() -> None:
    assert {by_name(name).category for name in SAMPLE} == set(CATEGORIES)
    assert len(CATALOGUE) > len(SAMPLE)


def check_opponent(state: GameState, scenario: CatalogueScenario) -> None:
    battle = state.battle
    assert battle is not None and battle.enemy is not None
    name, number = scenario.opponent
    if scenario.category == "wild":
        assert battle.kind == "wild"
        assert (battle.enemy.species_name, battle.enemy.level) == (name, number)
        return
    parties = {(p.trainer_class, p.number): p.party for p in game_data().trainer_parties}
    party = parties[(name, number)]
    assert (battle.kind, battle.trainer_class_name, battle.trainer_number) == ("trainer", name, number)
    assert battle.enemy_party_species_names == tuple(m.species for m in party)
    assert (battle.enemy.species_name, battle.enemy.level) == (party[0].species, party[0].level)


def check_ours(state: GameState, scenario: CatalogueScenario) -> None:
    assert [(m.species_name, m.level) for m in state.party] == [(m[0], m[1]) for m in scenario.party]
    for mon, member in zip(state.party, scenario.party, strict=True):
        assert [slot.name for slot in mon.moves if slot.move_id] == moves_of(member)
    for slot, move, pp in scenario.pp:
        assert state.party[slot].moves[move].pp == pp
    assert [(item.name, item.quantity) for item in state.bag] == list(scenario.bag)
    assert state.progress.badge_count == scenario.badges


@pytest.mark.parametrize("name", SAMPLE)
def test_a_scenario_starts_its_battle(game: EmulatorSession, name: str) -> None:
    scenario = by_name(name)
    scenario.setup(game)
    state = advance_to(game, MENUS)
    check_opponent(state, scenario)
    check_ours(state, scenario)


def test_the_low_pp_team_starts_with_its_main_attacks_nearly_spent(game: EmulatorSession) -> None:
    scenario = by_name("elite_four_lance_low_pp")
    scenario.setup(game)
    state = advance_to(game, MENUS)
    assert [mon.moves[0].pp for mon in state.party] == [LOW_PP] * len(scenario.party)


@pytest.mark.parametrize(("name", "member", "move"), [("gym_lt_surge_wrong_type", 2, "THUNDERBOLT"),
                                                     ("gym_misty_status", 1, "BUBBLEBEAM")])  # fmt: skip
def test_a_gym_leader_gives_one_member_the_special_move(
    game: EmulatorSession, name: str, member: int, move: str
) -> None:
    # As the gym's script does before the battle (wGymLeaderNo), and as the search's model expects.
    from engine.combat.enemy import special_move
    from engine.game.ram import PartyStructOffsets

    scenario = by_name(name)
    scenario.setup(game)
    advance_to(game, MENUS)
    struct = PartyStructOffsets()
    third_slot = game.ram_map.wEnemyMons + member * struct.size + struct.moves + 2
    assert game_data().moves_by_id[game.read(third_slot, 1)[0]].name == move
    expected = special_move(scenario.opponent[0], member)
    assert expected is not None and expected.name == move
