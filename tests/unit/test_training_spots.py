"""Where to train: experience per frame of each map's wild table for the lead, worked out from pret's
encounter rules by hand; maps whose wild Pokémon outlevel the lead are left out, and richer tables rank
first."""

from __future__ import annotations

import pytest

from engine.game.tables import game_data
from engine.team.training import BATTLE_FRAMES, FRAMES_PER_STEP, TURN_FRAMES, ranked_spots, spot
from engine.world.models import SLOT_CHANCES, WildTable


def table(rate: int, *slots: tuple[int, str]) -> WildTable:
    return WildTable(rate=rate, slots=slots)


def test_one_species_in_every_slot_gives_its_experience_by_pret_s_formula() -> None:
    geodude = table(25, *((20, "GEODUDE"),) * 10)
    found = spot(1, geodude, lead_level=40)
    assert found is not None
    base = game_data().species_by_name["GEODUDE"].base_exp
    assert found.exp_per_battle == pytest.approx(base * 20 / 7)
    walk = FRAMES_PER_STEP * 256 / 25
    assert found.frames_per_battle == pytest.approx(walk + BATTLE_FRAMES)  # 20 levels below: one turn
    assert found.exp_per_frame == pytest.approx(found.exp_per_battle / found.frames_per_battle)


def test_the_slots_are_weighed_by_pret_s_chances_and_closer_levels_take_more_turns() -> None:
    mixed = table(10, (30, "MACHOKE"), *((5, "RATTATA"),) * 9)
    found = spot(1, mixed, lead_level=32)
    assert found is not None
    total = sum(SLOT_CHANCES)
    data = game_data().species_by_name
    expected = (SLOT_CHANCES[0] * data["MACHOKE"].base_exp * 30 / 7
                + (total - SLOT_CHANCES[0]) * data["RATTATA"].base_exp * 5 / 7) / total  # fmt: skip
    assert found.exp_per_battle == pytest.approx(expected)
    rest = total - SLOT_CHANCES[0]
    battle = (SLOT_CHANCES[0] * (BATTLE_FRAMES + TURN_FRAMES) + rest * BATTLE_FRAMES) / total
    assert found.frames_per_battle == pytest.approx(FRAMES_PER_STEP * 256 / 10 + battle)


def test_a_map_whose_wild_pokemon_outlevel_the_lead_is_left_out_and_richer_maps_rank_first() -> None:
    assert spot(1, table(20, (50, "GOLBAT")), lead_level=40) is None
    ranked = ranked_spots({1: table(20, *((4, "PIDGEY"),) * 10), 2: table(20, *((35, "GOLBAT"),) * 10)}, 45)
    assert [s.map_id for s in ranked] == [2, 1]


def test_a_trainers_party_gives_half_again_the_experience_of_the_same_pokemon_met_wild() -> None:
    from engine.team.training import TRAINER_BONUS, trainer_battle

    exp, frames = trainer_battle((("GEODUDE", 12), ("ONIX", 14)), lead_level=30)
    data = game_data().species_by_name
    expected = (data["GEODUDE"].base_exp * 12 + data["ONIX"].base_exp * 14) / 7 * TRAINER_BONUS
    assert exp == pytest.approx(expected)
    assert frames > 0 and trainer_battle((("GEODUDE", 12),), 30)[1] < frames  # more Pokémon, more frames
