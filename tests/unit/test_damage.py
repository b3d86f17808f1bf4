"""Gen 1 damage calculator: expected values are worked by hand from the pret/pokered formulas."""

from __future__ import annotations

import json
from statistics import fmean

import pytest

from engine.game.damage import (
    Combatant,
    critical_hit_chance,
    damage_range,
    expected_damage,
    ko_probability,
    stat_at_level,
    type_effectiveness,
)
from engine.game.tables import game_data
from tests.conftest import GEN1_FIXTURES

BROCK_FIXTURE = GEN1_FIXTURES / "red_brock_super_effective_text" / "truth.json"


def move(name: str):
    return game_data().moves_by_name[name]


def mon(type1: str = "NORMAL", type2: str | None = None, **stats: int) -> Combatant:
    """A combatant with round explicit stats (base_speed 0 means no critical hits)."""
    values = dict(level=50, max_hp=150, attack=100, defense=100, speed=100, special=100, base_speed=0)
    values.update(stats)
    return Combatant(type1=type1, type2=type2 or type1, **values)


def test_stat_formula_matches_mewtwo_at_level_100():
    base = game_data().species_by_name["MEWTWO"].base  # HP 106, Special 154
    # HP: (106 + 15) * 2 * 100 // 100 + 100 + 10 = 242 + 110 = 352
    assert stat_at_level(base.hp, 100, dv=15, is_hp=True) == 352
    # Max stat exp: ceil(sqrt(65535)) = 256, capped at 255, // 4 = 63 -> 242 + 63 + 110 = 415
    assert stat_at_level(base.hp, 100, dv=15, stat_exp=65535, is_hp=True) == 415
    # Special: (154 + 15) * 2 + 63 = 401, + 5 = 406 (the published Gen 1 maximum)
    assert stat_at_level(base.special, 100, dv=15, stat_exp=65535) == 406


def test_stat_formula_integer_steps_at_low_level():
    # Stat exp 10000: ceil(sqrt) = 100, // 4 = 25; (45 + 8) * 2 + 25 = 131; 131 * 7 // 100 = 9; + 5 = 14
    assert stat_at_level(45, 7, dv=8, stat_exp=10000) == 14
    # Stat exp 10: ceil(sqrt(10)) = 4 (rounded up, not down to 3), // 4 = 1; (53 * 2 + 1) * 100 // 100 + 5
    assert stat_at_level(45, 100, dv=8, stat_exp=10) == 112


def test_estimate_reproduces_a_trainer_geodude():
    geodude = Combatant.estimate("GEODUDE", 12)
    # Trainer DVs are 8 for HP: (40 + 8) * 2 * 12 // 100 + 12 + 10 = 11 + 22 = 33 (Brock's Geodude has 33)
    assert geodude.max_hp == 33
    # Special: (30 + 8) * 2 * 12 // 100 + 5 = 9 + 5 = 14
    assert (geodude.special, geodude.type1, geodude.type2, geodude.base_speed) == (14, "ROCK", "GROUND", 20)


def test_worked_example_squirtle_bubble_vs_geodude_is_4x():
    squirtle = Combatant.estimate("SQUIRTLE", 13)  # Special (50 + 8) * 2 * 13 // 100 + 5 = 20
    geodude = Combatant.estimate("GEODUDE", 12)  # Special 14
    result = damage_range(squirtle, geodude, move("BUBBLE"))
    # 2 * 13 // 5 + 2 = 7; 7 * 20 * 20 = 2800; // 14 = 200; // 50 = 4; + 2 = 6
    # STAB 6 + 3 = 9; WATER->ROCK 9 * 20 // 10 = 18; WATER->GROUND 18 * 20 // 10 = 36
    # Rolls: 36 * 217 // 255 = 30 .. 36 * 255 // 255 = 36
    assert (result.min, result.max) == (30, 36)
    assert result.rolls[0] == 30 and result.rolls[-1] == 36


def test_type_multipliers_apply_one_by_one_in_chart_order():
    # 2 * 50 // 5 + 2 = 22; 22 * 95 * 100 // 100 // 50 = 41; + 2 = 43 (no STAB for a NORMAL attacker)
    neutral = damage_range(mon(), mon(), move("ICE_BEAM"))
    assert neutral.max == 43
    # The chart lists ICE->WATER (x0.5) before ICE->FLYING (x2): 43 * 5 // 10 = 21, 21 * 20 // 10 = 42
    gyarados_like = damage_range(mon(), mon("WATER", "FLYING"), move("ICE_BEAM"))
    assert (gyarados_like.min, gyarados_like.max) == (42 * 217 // 255, 42)
    assert type_effectiveness("ICE", "WATER", "FLYING") == 1.0


def test_ghost_does_nothing_to_psychic_in_gen1():
    gastly = Combatant.estimate("GASTLY", 20)
    alakazam = Combatant.estimate("ALAKAZAM", 20)
    assert type_effectiveness("GHOST", "PSYCHIC_TYPE", "PSYCHIC_TYPE") == 0.0
    assert set(damage_range(gastly, alakazam, move("LICK")).rolls) == {0}
    assert ko_probability(gastly, alakazam, move("LICK"), 1) == 0.0


def test_normal_moves_do_not_touch_ghosts():
    rattata = Combatant.estimate("RATTATA", 20)
    gastly = Combatant.estimate("GASTLY", 20)
    assert damage_range(rattata, gastly, move("TACKLE")).max == 0
    assert expected_damage(rattata, gastly, move("TACKLE")) == 0.0


def test_fixed_damage_moves_ignore_stats_and_immunity():
    attacker = mon("FIGHTING", level=37, attack=5, special=5)
    ghost = mon("GHOST", "POISON", max_hp=101, defense=999, special=999)
    assert damage_range(attacker, ghost, move("SEISMIC_TOSS")).rolls == (37,)  # Gen 1 hits Ghosts
    assert damage_range(mon("GHOST", level=23), mon(), move("NIGHT_SHADE")).rolls == (23,)  # and Normals
    assert damage_range(attacker, ghost, move("SONICBOOM")).rolls == (20,)
    assert damage_range(attacker, ghost, move("DRAGON_RAGE")).rolls == (40,)
    assert damage_range(attacker, ghost, move("SUPER_FANG")).rolls == (50,)  # 101 // 2, full HP assumed
    assert damage_range(attacker, ghost, move("SUPER_FANG"), defender_hp=1).rolls == (1,)  # at least 1
    # Psywave: random in [1, 37 + 37 // 2) = [1, 55)
    psywave = damage_range(attacker, ghost, move("PSYWAVE"))
    assert (psywave.min, psywave.max, len(psywave.rolls)) == (1, 54, 54)


def test_ohko_moves_need_speed_and_respect_immunity():
    fast, slow = mon(speed=120), mon(speed=80, max_hp=140)
    assert damage_range(fast, slow, move("HORN_DRILL"), defender_hp=77).rolls == (77,)
    assert damage_range(fast, slow, move("HORN_DRILL")).rolls == (140,)
    assert damage_range(slow, fast, move("HORN_DRILL")).rolls == (0,)
    assert damage_range(mon(speed=100), mon(speed=100), move("GUILLOTINE")).max == 150  # ties hit
    # A speed stage counts: 80 * 2 = 160 beats 120.
    assert damage_range(mon(speed=80, speed_stage=2), fast, move("HORN_DRILL")).max == 150
    assert damage_range(fast, mon("FLYING", speed=1), move("FISSURE")).max == 0
    # 30% accuracy = byte 76: 76/256 chance
    assert ko_probability(fast, slow, move("HORN_DRILL"), 140) == pytest.approx(76 / 256)


def test_status_moves_deal_nothing():
    result = damage_range(mon(), mon(), move("GROWL"))
    assert (result.min, result.max, set(result.rolls)) == (0, 0, {0})


def test_critical_hit_doubles_level_and_ignores_stages():
    boosted = mon(level=10, attack_stage=6)
    crit = damage_range(boosted, mon(defense_stage=-6), move("TACKLE"), critical=True)
    # A critical hit at level 10 uses the unmodified stats, exactly like a normal hit at level 20.
    assert crit == damage_range(mon(level=20), mon(), move("TACKLE"))
    # 2 * 20 // 5 + 2 = 10; 10 * 35 * 100 // 100 // 50 = 7; + 2 = 9; STAB 9 + 4 = 13
    assert crit.max == 13
    # Without it the stages apply: attack 100 * 4 = 400, defense 100 * 25 // 100 = 25; 400 > 255 so both
    # are divided by 4: 100 and 6.
    # 2 * 10 // 5 + 2 = 6; 6 * 35 * 100 // 6 // 50 = 70; + 2 = 72; STAB 72 + 36 = 108
    assert damage_range(boosted, mon(defense_stage=-6), move("TACKLE")).max == 108


def test_stats_above_255_are_divided_by_four():
    big = damage_range(mon(attack=300), mon(defense=200), move("TACKLE"))
    small = damage_range(mon(attack=75), mon(defense=50), move("TACKLE"))
    assert big == small
    # 22 * 35 * 75 // 50 // 50 = 23; + 2 = 25; STAB 25 + 12 = 37
    assert big.max == 37
    # Both under 256: no scaling, 22 * 35 * 250 // 200 // 50 = 19; + 2 = 21; STAB 31
    assert damage_range(mon(attack=250), mon(defense=200), move("TACKLE")).max == 31


def test_explosion_halves_defense_and_base_damage_caps_at_997():
    # Defense 100 // 2 = 50: 22 * 130 * 100 // 50 // 50 = 114; + 2 = 116; STAB 116 + 58 = 174
    assert damage_range(mon(), mon(), move("SELFDESTRUCT")).max == 174
    # 42 * 170 * 255 // (5 // 2) // 50 = 18207 -> capped at 997, + 2 = 999; STAB 999 + 499 = 1498
    capped = damage_range(mon(level=100, attack=255), mon(defense=5), move("EXPLOSION"))
    assert (capped.min, capped.max) == (1498 * 217 // 255, 1498)


def test_single_type_defender_counts_once():
    assert type_effectiveness("WATER", "FIRE", "FIRE") == 2.0
    assert type_effectiveness("WATER", "ROCK", "GROUND") == 4.0
    assert damage_range(mon(), mon("FIRE"), move("SURF")) == damage_range(
        mon(), mon("FIRE", "NORMAL"), move("SURF")
    )


def test_rolls_are_39_sorted_outcomes():
    result = damage_range(mon(), mon(), move("BODY_SLAM"))
    assert len(result.rolls) == 39
    assert list(result.rolls) == sorted(result.rolls)
    assert result.min == result.rolls[0] < result.max == result.rolls[-1]


def test_damage_of_one_is_not_randomized():
    # 2 * 5 // 5 + 2 = 4; 4 * 15 * 5 // 250 // 50 = 0; + 2 = 2; no STAB; 0.5 * 0.5 (POISON on ROCK/GROUND):
    # 2 * 5 // 10 = 1, 1 * 5 // 10 = 0 -> no damage at all
    weak = mon("BUG", level=5, attack=5)
    assert damage_range(weak, mon("ROCK", "GROUND", defense=250), move("POISON_STING")).max == 0
    # A single 0.5: 2 -> 1, and RandomizeDamage leaves 1 alone (1 * 217 // 255 would be 0)
    assert set(damage_range(weak, mon("ROCK", defense=250), move("POISON_STING")).rolls) == {1}


def test_expected_damage_weights_accuracy_and_crits():
    tackle = move("TACKLE")  # 95% = byte 242
    rolls = damage_range(mon(), mon(), tackle).rolls
    assert expected_damage(mon(), mon(), tackle) == pytest.approx(242 / 256 * fmean(rolls))
    assert expected_damage(mon(), mon(), tackle) < max(rolls)
    # With crits (base speed 100 -> 50/256) the mean goes up.
    crits = fmean(damage_range(mon(), mon(), tackle, critical=True).rolls)
    expected = 242 / 256 * (206 / 256 * fmean(rolls) + 50 / 256 * crits)
    assert expected_damage(mon(base_speed=100), mon(), tackle) == pytest.approx(expected)
    # Capped at the defender's HP, as the game caps damage dealt.
    assert expected_damage(mon(), mon(), tackle, defender_hp=10) == pytest.approx(242 / 256 * 10)


def test_ko_probability_counts_rolls():
    rolls = damage_range(mon(), mon(), move("BODY_SLAM")).rolls
    hp = rolls[20]
    share = sum(r >= hp for r in rolls) / 39
    assert 0 < share < 1
    assert ko_probability(mon(), mon(), move("BODY_SLAM"), hp) == pytest.approx(255 / 256 * share)
    with pytest.raises(ValueError):
        ko_probability(mon(), mon(), move("BODY_SLAM"), 0)


def test_critical_hit_chance_follows_critical_hit_test():
    persian_speed = game_data().species_by_name["PERSIAN"].base.speed  # 115 -> 57
    assert critical_hit_chance(persian_speed, move("TACKLE")) == 57 / 256
    assert critical_hit_chance(persian_speed, move("SLASH")) == 255 / 256  # 8 * 57 = 456, capped
    assert critical_hit_chance(40, move("SLASH")) == 160 / 256  # 8 * 20
    # Focus Energy bug: the threshold is halved (57 -> 28) instead of doubled.
    assert critical_hit_chance(persian_speed, move("TACKLE"), focus_energy=True) == 14 / 256
    assert critical_hit_chance(persian_speed, move("GROWL")) == 0.0
    assert critical_hit_chance(persian_speed, move("SEISMIC_TOSS")) == 0.0


def test_consistent_with_brock_fixture():
    """The fixture shows WARTORTLE's BUBBLE taking BROCK's GEODUDE (max HP 33) to 0 in one hit."""
    truth = json.loads(BROCK_FIXTURE.read_text(encoding="utf-8"))
    player, enemy, party = truth["battle"]["player"], truth["battle"]["enemy"], truth["party"][0]
    wartortle = Combatant(
        level=player["level"],
        max_hp=player["max_hp"],
        attack=party["attack"],
        defense=party["defense"],
        speed=party["speed"],
        special=party["special"],
        type1=player["type1_name"],
        type2=player["type2_name"],
        base_speed=game_data().species_by_name["WARTORTLE"].base.speed,
    )
    geodude = Combatant.estimate(enemy["species_name"], enemy["level"])
    assert geodude.max_hp == enemy["max_hp"] == 33
    # 2 * 16 // 5 + 2 = 8; 8 * 20 * 28 // 14 // 50 = 6; + 2 = 8; STAB 12; x2 x2 = 48; min 48 * 217 // 255 = 40
    bubble = damage_range(wartortle, geodude, move("BUBBLE"))
    assert (bubble.min, bubble.max) == (40, 48)
    assert enemy["hp"] == 0 and bubble.min >= enemy["max_hp"]
    assert ko_probability(wartortle, geodude, move("BUBBLE"), enemy["max_hp"]) == pytest.approx(255 / 256)
