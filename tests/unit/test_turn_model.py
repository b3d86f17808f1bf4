"""The Gen 1 turn model against hand-worked cases from pret/pokered's formulas: stat stages and their
quirks, move order, accuracy, status, multi-turn moves, screens, and the chances of every outcome.

Numbers in comments are worked by hand from engine/battle/core.asm and engine/battle/effects.asm.
"""

from __future__ import annotations

import pytest

from engine.combat.effects import COMPUTER_STAT_DOWN_MISS, FULL_PARALYSIS, lower_stat, raise_stat
from engine.combat.fighter import (
    ATTACK,
    DEFENSE,
    SPEED,
    STRUGGLE_SLOT,
    Attack,
    Duel,
    Fighter,
    Side,
    Switch,
    UseItem,
    fighter_of,
)
from engine.combat.hits import hit_chance, rolls, strike_outcomes
from engine.combat.turn import moves_first, resolve_turn
from engine.game.damage import Combatant, damage_range
from engine.game.tables import Move, game_data

EXACT = 64  # detail that keeps every roll and every sleep or confusion length


def move(name: str) -> Move:
    return game_data().moves_by_name[name]


def mon(species: str, level: int, *moves: str, **changes: object) -> Fighter:
    fighter = fighter_of(species, level, [move(m) for m in moves] if moves else None)
    return fighter._replace(**changes) if changes else fighter


def duel(us: Fighter, them: Fighter, *, badges: frozenset[str] = frozenset(), wild: bool = True) -> Duel:
    return Duel(us=Side(members=(us,), badges=badges), them=Side(members=(them,)), wild=wild)


def total(branches: list[tuple[float, Duel]]) -> float:
    return sum(p for p, _ in branches)


def chance(branches: list[tuple[float, Duel]], test: object) -> float:
    assert callable(test)
    return sum(p for p, d in branches if test(d))


# -- stat stages ---------------------------------------------------------------------------------------
def test_stages_recompute_from_the_unmodified_stat() -> None:
    geodude = mon("GEODUDE", 10)  # Defense 26 with DV 8
    assert geodude.stats[DEFENSE] == 26
    once = lower_stat(geodude, DEFENSE, 1, frozenset())
    assert once.battle[DEFENSE] == 26 * 66 // 100 == 17  # StatModifierRatios -1: 66/100
    thrice = lower_stat(once, DEFENSE, 2, frozenset())  # SCREECH: two more
    assert thrice.stages[DEFENSE] == -3 and thrice.battle[DEFENSE] == 26 * 40 // 100 == 10
    floor = geodude._replace(stages=(0, -6, 0, 0, 0, 0))
    assert lower_stat(floor, DEFENSE, 1, frozenset()) == floor  # nothing happens past -6


def test_a_players_stat_raise_reapplies_badge_boosts_to_every_stat() -> None:
    # ApplyBadgeStatBoosts after any of the player's stat-up moves: every boosted stat grows by 1/8 again.
    user = mon("NIDORAN_M", 20)
    user = user._replace(battle=(user.stats[0] * 9 // 8, *user.stats[1:]))  # sent out with BOULDER
    raised, _ = raise_stat(user, mon("RATTATA", 5), DEFENSE, 1, frozenset({"BOULDER"}))
    attack = user.stats[ATTACK]
    assert raised.battle[ATTACK] == (attack * 9 // 8) + (attack * 9 // 8) // 8  # boosted twice now
    defense = user.stats[DEFENSE] * 15 // 10
    assert raised.battle[DEFENSE] == defense  # no THUNDER badge: only the stage


def test_a_stat_raise_quarters_a_paralysed_targets_speed_again() -> None:
    # The "these shouldn't be here" calls at the end of StatModifierUpEffect hit the other side.
    target = mon("RATTATA", 10, status="PAR")
    target = target._replace(battle=(*target.battle[:2], target.stats[SPEED] // 4, target.battle[3]))
    _, after = raise_stat(mon("PIKACHU", 10), target, ATTACK, 1, frozenset())
    assert after.battle[SPEED] == target.stats[SPEED] // 4 // 4


def test_lowering_a_paralysed_stat_recomputes_then_penalises() -> None:
    target = mon("RATTATA", 10, status="PAR")
    lowered = lower_stat(target, SPEED, 1, frozenset())
    assert lowered.battle[SPEED] == target.stats[SPEED] * 66 // 100 // 4


# -- order and accuracy --------------------------------------------------------------------------------
def test_quick_attack_goes_first_and_ties_are_a_coin_flip() -> None:
    slow = mon("RATTATA", 5, "QUICK_ATTACK", "TACKLE")
    fast = mon("PIDGEY", 5, "GUST")._replace(battle=(9, 9, 50, 9))
    slow = slow._replace(battle=(9, 9, 5, 9))
    position = duel(slow, fast)
    assert moves_first(position, Attack(0), Attack(0)) == 1.0
    assert moves_first(position, Attack(1), Attack(0)) == 0.0
    tied = duel(slow._replace(battle=(9, 9, 50, 9)), fast)
    assert moves_first(tied, Attack(1), Attack(0)) == 0.5
    assert moves_first(position, Switch(0), Attack(0)) == 0.0  # a switch takes our turn before theirs


def test_accuracy_scales_by_stages_and_a_sure_move_misses_one_in_256() -> None:
    user, target = mon("PIDGEY", 10), mon("RATTATA", 10)
    assert hit_chance(move("TACKLE"), user, target) == 242 / 256  # TACKLE is 95%: accuracy byte 242
    assert hit_chance(move("POUND"), user, target) == 255 / 256
    blinded = user._replace(stages=(0, 0, 0, 0, -1, 0))
    assert hit_chance(move("POUND"), blinded, target) == 255 * 66 // 100 / 256
    evasive = target._replace(stages=(0, 0, 0, 0, 0, 1))  # evasion +1 reads as the -1 ratio
    assert hit_chance(move("POUND"), user, evasive) == 255 * 66 // 100 / 256
    assert hit_chance(move("SWIFT"), blinded, evasive) == 1.0


def test_plain_hits_match_the_damage_calculator() -> None:
    user, target = mon("SQUIRTLE", 12), mon("GEODUDE", 12)
    for name in ("TACKLE", "BUBBLE", "WATER_GUN"):
        expected = damage_range(
            Combatant.estimate("SQUIRTLE", 12), Combatant.estimate("GEODUDE", 12), move(name)
        ).rolls
        assert rolls(move(name), user, target, False) == expected


def test_reflect_doubles_defense_for_normal_hits_only() -> None:
    user, target = mon("RATTATA", 20), mon("PIDGEY", 20)
    plain = max(rolls(move("TACKLE"), user, target, False))
    screened = target._replace(reflect=True)
    assert max(rolls(move("TACKLE"), user, screened, False)) < plain
    assert rolls(move("TACKLE"), user, screened, True) == rolls(move("TACKLE"), user, target, True)
    assert rolls(move("EMBER"), user, screened, False) == rolls(move("EMBER"), user, target, False)


def test_multi_hit_moves_strike_two_to_five_times() -> None:
    user, target = mon("SPEAROW", 20), mon("RATTATA", 20)
    outcomes = strike_outcomes(move("FURY_ATTACK"), user, target, 1)
    one = rolls(move("FURY_ATTACK"), user, target, False)
    middle = sorted(one)[(len(one) - 1) // 2]
    normal = {d: p for p, d in outcomes if d in {middle * n for n in (2, 3, 4, 5)}}
    assert normal[middle * 2] / normal[middle * 4] == pytest.approx(3.0)  # 3/8 against 1/8


# -- whole turns ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("ours", "theirs"),
    [("TACKLE", "GUST"), ("SLEEP_POWDER", "SAND_ATTACK"), ("THUNDER_WAVE", "WRAP"), ("LEECH_SEED", "BIDE")],
)
def test_the_outcomes_of_a_turn_add_up_to_one(ours: str, theirs: str) -> None:
    position = duel(mon("PIKACHU", 15, ours), mon("EKANS", 15, theirs))
    assert total(resolve_turn(position, Attack(0), Attack(0), EXACT)) == pytest.approx(1.0)


def test_sleep_lasts_one_to_seven_turns_and_waking_takes_the_turn() -> None:
    position = duel(mon("ODDISH", 15, "SLEEP_POWDER"), mon("RATTATA", 10, "TACKLE"))
    branches = resolve_turn(position, Attack(0), Attack(0), EXACT)
    hit = hit_chance(move("SLEEP_POWDER"), position.us.fighter, position.them.fighter)
    for turns in range(1, 8):
        p = chance(
            branches, lambda d, t=turns: d.them.fighter.status == "SLP" and d.them.fighter.sleep_turns == t
        )
        # Sleep powder moved first (ODDISH is faster), so RATTATA could not act: its counter is untouched.
        assert p == pytest.approx(hit / 7)
    waking = duel(mon("RATTATA", 10, "TACKLE", status="SLP", sleep_turns=1), mon("PIDGEY", 10, "GUST"))
    for _, after in resolve_turn(waking, Attack(0), Attack(0), EXACT):
        assert after.us.fighter.status == "OK" and after.them.fighter.hp == waking.them.fighter.hp


def test_poison_takes_a_sixteenth_after_the_move_and_toxic_grows() -> None:
    poisoned = mon("RATTATA", 20, "TAIL_WHIP", status="PSN")
    position = duel(poisoned, mon("PIDGEY", 5, "SAND_ATTACK"))
    tick = poisoned.max_hp // 16
    for _, after in resolve_turn(position, Attack(0), Attack(0), EXACT):
        assert after.us.fighter.hp == poisoned.hp - tick
    toxic = duel(poisoned._replace(toxic=3), mon("PIDGEY", 5, "SAND_ATTACK"))
    for _, after in resolve_turn(toxic, Attack(0), Attack(0), EXACT):
        assert after.us.fighter.hp == poisoned.hp - 3 * tick and after.us.fighter.toxic == 4


def test_leech_seed_drains_into_the_other_side() -> None:
    seeded = mon("RATTATA", 20, "TAIL_WHIP", seeded=True)
    seeder = mon("BULBASAUR", 20, "GROWL")
    seeder = seeder._replace(hp=seeder.max_hp - 10)
    for _, after in resolve_turn(duel(seeded, seeder), Attack(0), Attack(0), EXACT):
        tick = seeded.max_hp // 16
        assert after.us.fighter.hp == seeded.hp - tick and after.them.fighter.hp == seeder.hp + tick


def test_full_paralysis_stops_a_quarter_of_turns() -> None:
    paralysed = mon("RATTATA", 20, "TACKLE", status="PAR")
    target = mon("ONIX", 30, "HARDEN")
    branches = resolve_turn(duel(paralysed, target), Attack(0), Attack(0), EXACT)
    untouched = chance(branches, lambda d: d.them.fighter.hp == target.hp)
    missed = 1 - hit_chance(move("TACKLE"), paralysed, target)
    assert untouched == pytest.approx(FULL_PARALYSIS + (1 - FULL_PARALYSIS) * missed)
    assert FULL_PARALYSIS == 63 / 256


def test_confusion_hurts_itself_half_the_time() -> None:
    confused = mon("RATTATA", 20, "TAIL_WHIP", confused=3)
    branches = resolve_turn(duel(confused, mon("ONIX", 30, "HARDEN")), Attack(0), Attack(0), EXACT)
    assert chance(branches, lambda d: d.us.fighter.hp < confused.hp) == pytest.approx(128 / 256)
    assert all(d.us.fighter.confused == 2 for _, d in branches)


def test_bide_stores_two_turns_of_damage_and_hands_back_double() -> None:
    onix = mon("ONIX", 14, "BIDE")
    position = Duel(us=Side(members=(mon("SQUIRTLE", 12, "TACKLE"),)), them=Side(members=(onix,)), wild=True)
    after = max(resolve_turn(position, Attack(0), Attack(0), 2), key=lambda b: b[0])[1]
    assert after.them.fighter.bide == 2
    stored = after.them.fighter._replace(bide=1, bide_damage=9)
    release = after._replace(them=after.them.with_fighter(stored))
    us = release.us.fighter
    results = resolve_turn(release, Attack(0), Attack(0), EXACT)
    assert {d.us.fighter.hp for _, d in results} == {max(0, us.hp - 18)}
    assert all(d.them.fighter.bide == 0 for _, d in results)


def test_a_wrapped_side_cannot_act_and_takes_the_same_damage_again() -> None:
    ekans = mon("EKANS", 12, "WRAP", trapping=2, trap_damage=4)
    squirtle = mon("SQUIRTLE", 10, "TACKLE")
    for _, after in resolve_turn(duel(squirtle, ekans), Attack(0), Attack(0), EXACT):
        assert after.them.fighter.hp == ekans.hp  # SQUIRTLE never got to move
        assert after.us.fighter.hp == squirtle.hp - 4 and after.them.fighter.trapping == 1


def test_recoil_drain_and_struggle() -> None:
    target = mon("ONIX", 30, "HARDEN")
    user = mon("RATTATA", 20, "TAKE_DOWN", "ABSORB")
    for _, after in resolve_turn(duel(user, target), Attack(0), Attack(0), EXACT):
        dealt = target.hp - after.them.fighter.hp
        if dealt:
            assert user.hp - after.us.fighter.hp == max(1, dealt // 4)
    for _, after in resolve_turn(duel(user, target), Attack(STRUGGLE_SLOT), Attack(0), EXACT):
        dealt = target.hp - after.them.fighter.hp
        if dealt:
            assert user.hp - after.us.fighter.hp == max(1, dealt // 2)
    hurt = user._replace(hp=5)
    for _, after in resolve_turn(duel(hurt, target), Attack(1), Attack(0), EXACT):
        dealt = target.hp - after.them.fighter.hp
        assert after.us.fighter.hp == min(hurt.max_hp, 5 + (max(1, dealt // 2) if dealt else 0))


def test_the_computer_misses_a_quarter_more_with_stat_lowering_moves() -> None:
    growler = mon("RATTATA", 10, "GROWL")
    position = duel(mon("PIDGEY", 10, "SAND_ATTACK"), growler)
    branches = resolve_turn(position, Attack(0), Attack(0), EXACT)
    lowered = chance(branches, lambda d: d.us.fighter.stages[ATTACK] == -1)
    assert lowered == pytest.approx(255 / 256 * (1 - COMPUTER_STAT_DOWN_MISS))


def test_items_and_switches_happen_before_moves() -> None:
    hurt = mon("SQUIRTLE", 10, "TACKLE")._replace(hp=3)
    potion = UseItem(item="POTION", heal=20, cures=frozenset(), member=0)
    for _, after in resolve_turn(duel(hurt, mon("RATTATA", 3, "TAIL_WHIP")), potion, Attack(0), EXACT):
        assert after.us.fighter.hp == 23
    two = Duel(
        us=Side(
            members=(mon("PIKACHU", 10, "GROWL", stages=(0, -2, 0, 0, 0, 0)), mon("SQUIRTLE", 10, "TACKLE"))
        ),
        them=Side(members=(mon("RATTATA", 3, "TAIL_WHIP"),)),
        wild=True,
    )
    for _, after in resolve_turn(two, Switch(1), Attack(0), EXACT):
        assert after.us.active == 1 and after.us.fighter.species == "SQUIRTLE"
        assert after.us.members[0].hp == two.us.members[0].hp  # PIKACHU left before RATTATA moved
        assert after.us.fighter.stages[ATTACK] in (0, -1)  # TAIL_WHIP hit the newcomer, not PIKACHU
