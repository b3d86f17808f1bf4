"""The battle model's harder moves and the items a player uses in battle: immunities and moves that cannot
work, two-turn and locked moves, TRANSFORM, METRONOME and MIMIC, the stat items (with Gen 1's Focus
Energy/DIRE HIT bug) and the PP items, each against what the cartridge does (pret/pokered)."""

from __future__ import annotations

import math

import pytest

from engine.combat import enemy
from engine.combat.effects import locked_slot, stat_item, transform
from engine.combat.fighter import (
    ACCURACY,
    ATTACK,
    SPEED,
    Attack,
    Duel,
    Fighter,
    Side,
    Switch,
    UseItem,
    fighter_of,
)
from engine.combat.futility import futile, futile_item
from engine.combat.hits import crit_chance, hit_chance
from engine.combat.judge import win_probability
from engine.combat.pace import move_pace
from engine.combat.position import duel_of, trainer_side
from engine.combat.race import duel_odds
from engine.combat.rollout import sampled_win_rate
from engine.combat.search import KnockOut, Scored, attacks, search
from engine.combat.turn import enemy_answers, resolve_turn
from engine.game.actions import UseItem as UseItemAction
from engine.game.actions import describe, legal_actions
from engine.game.assessment import Fairness
from engine.game.items import BATTLE_ITEMS, pp_after
from engine.game.models import BagItem, GameState
from engine.game.tables import game_data
from engine.tactician.lookahead import Lookahead, spends_boss_stock
from tests.unit.test_actions_and_policy import fixture_state

MOVES = game_data().moves_by_name


def mon(species: str, level: int, *moves: str, **changes: object) -> Fighter:
    fighter = fighter_of(species, level, [MOVES[m] for m in moves] if moves else None)
    return fighter._replace(**changes) if changes else fighter


def wild(ours: Fighter, theirs: Fighter) -> Duel:
    return Duel(us=Side(members=(ours,)), them=Side(members=(theirs,)), wild=True)


def versus(trainer_class: str, ours: tuple[Fighter, ...], theirs: tuple[Fighter, ...]) -> Duel:
    them = Side(members=theirs, trainer_class=trainer_class, turns_out=2)
    return Duel(us=Side(members=ours), them=them)


def chosen(duel: Duel) -> str:
    verdict = search(duel, attacks(duel))
    action = verdict.best.action
    assert isinstance(action, Attack)
    return (
        MOVES["STRUGGLE"].name
        if action.slot < 0
        else game_data().moves_by_id[duel.us.fighter.moves[action.slot]].name
    )


# -- immunities and moves that cannot work -----------------------------------------------------------------
GENGAR = ("CONFUSE_RAY", "NIGHT_SHADE", "HYPNOSIS", "DREAM_EATER")


@pytest.mark.parametrize(
    ("pp", "hp", "gengar_hp", "asleep"),
    [((2, 0, 5, 17), 19, 75, False), ((3, 0, 3, 7), 138, 14, True), ((1, 3, 11, 9), 30, 50, False),
     ((8, 0, 2, 22), 27, 96, False)],
)  # fmt: skip
def test_a_ghost_never_gets_a_normal_move_while_another_move_has_pp(
    pp: tuple[int, ...], hp: int, gengar_hp: int, asleep: bool
) -> None:
    """The positions where the search once chose SKULL BASH against GENGAR: the Normal moves do nothing,
    yet their turn looked quicker, for no damage roll split its ways."""
    blastoise = mon("BLASTOISE", 57, "SURF", "HYDRO_PUMP", "SKULL_BASH", "BITE", pp=pp, hp=hp)
    gengar = mon(
        "GENGAR", 56, *GENGAR, hp=gengar_hp, status="SLP" if asleep else "OK", sleep_turns=2 * asleep
    )
    assert chosen(versus("AGATHA", (blastoise,), (gengar,))) in ("SURF", "HYDRO_PUMP")


@pytest.mark.parametrize(
    ("attacker", "moves", "target", "useful"),
    [("NIDOKING", ("EARTHQUAKE", "TACKLE"), "PIDGEOT", "TACKLE"),  # Ground into Flying
     ("RAICHU", ("THUNDERBOLT", "QUICK_ATTACK"), "GOLEM", "QUICK_ATTACK"),  # Electric into Ground
     ("GENGAR", ("LICK", "NIGHT_SHADE"), "ALAKAZAM", "NIGHT_SHADE"),  # Ghost into Psychic, Gen 1's chart
     ("HAUNTER", ("LICK", "NIGHT_SHADE"), "RATICATE", "NIGHT_SHADE"),  # Ghost into Normal
     ("PRIMEAPE", ("KARATE_CHOP", "SEISMIC_TOSS"), "HAUNTER", "SEISMIC_TOSS")],  # Fighting into Ghost
)  # fmt: skip
def test_no_move_into_an_immunity(attacker: str, moves: tuple[str, ...], target: str, useful: str) -> None:
    duel = wild(mon(attacker, 50, *moves), mon(target, 45))
    assert futile(MOVES[moves[0]], duel.us.fighter, duel.them.fighter)
    assert chosen(duel) == useful


def test_an_immune_move_is_still_used_when_nothing_else_is_left() -> None:
    gengar = mon("GENGAR", 40, *GENGAR)
    duel = wild(mon("RATTATA", 40, "TACKLE", "TAIL_WHIP", pp=(10, 0)), gengar)
    assert chosen(duel) == "TACKLE"


@pytest.mark.parametrize(
    ("move", "user", "target", "is_futile"),
    [("THUNDER_WAVE", mon("PIKACHU", 30), mon("GEODUDE", 30), True),
     ("GLARE", mon("ARBOK", 30), mon("GASTLY", 30), False),  # ParalyzeEffect checks Electric on Ground only
     ("SLEEP_POWDER", mon("ODDISH", 30), mon("PIDGEY", 30, status="PAR"), True),
     ("SLEEP_POWDER", mon("ODDISH", 30), mon("PIDGEY", 30, status="PAR", recharging=True), False),
     ("TOXIC", mon("GRIMER", 30), mon("EKANS", 30), True),
     ("CONFUSE_RAY", mon("GASTLY", 30), mon("PIDGEY", 30, confused=3), True),
     ("LEECH_SEED", mon("BULBASAUR", 30), mon("ODDISH", 30), True),
     ("LEECH_SEED", mon("BULBASAUR", 30), mon("PIDGEY", 30), False),
     ("DREAM_EATER", mon("HYPNO", 30), mon("PIDGEY", 30), True),
     ("DREAM_EATER", mon("HYPNO", 30), mon("PIDGEY", 30, status="SLP", sleep_turns=2), False),
     ("DREAM_EATER", mon("HYPNO", 30), mon("PIDGEOT", 40, status="SLP", sleep_turns=1), True),  # wakes first
     ("HORN_DRILL", mon("NIDOKING", 30), mon("JOLTEON", 40), True),  # the target is faster
     ("HORN_DRILL", mon("NIDOKING", 40), mon("SLOWBRO", 30), False),
     ("SPLASH", mon("MAGIKARP", 30), mon("PIDGEY", 30), True)],
)  # fmt: skip
def test_moves_that_cannot_work_now(move: str, user: Fighter, target: Fighter, is_futile: bool) -> None:
    assert futile(MOVES[move], user, target) is is_futile


BLASTOISE = ("ICE_BEAM", "SURF", "STRENGTH", "FISSURE")


@pytest.mark.parametrize(
    ("item", "user", "target", "is_futile"),
    [("X_ATTACK", mon("BLASTOISE", 58, *BLASTOISE), mon("GENGAR", 60), True),  # STRENGTH cannot touch it
     ("X_ATTACK", mon("BLASTOISE", 58, *BLASTOISE), mon("ARBOK", 58), False),
     ("X_ATTACK", mon("BLASTOISE", 58, *BLASTOISE, stages=(6, 0, 0, 0, 0, 0)), mon("ARBOK", 58), True),
     ("X_SPECIAL", mon("BLASTOISE", 58, *BLASTOISE), mon("GENGAR", 60), False),
     ("X_SPECIAL", mon("BLASTOISE", 58, *BLASTOISE, pp=(0, 0, 15, 5)), mon("ARBOK", 58), True),
     ("X_ATTACK", mon("GENGAR", 50, "NIGHT_SHADE", "HYPNOSIS"), mon("PIDGEY", 30), True),  # set damage
     ("X_ACCURACY", mon("BLASTOISE", 58, "ICE_BEAM", "SURF"), mon("ARBOK", 58), True),
     ("X_ACCURACY", mon("BLASTOISE", 58, *BLASTOISE), mon("ARBOK", 50), False),  # FISSURE, faster
     ("X_ACCURACY", mon("BLASTOISE", 58, "ICE_BEAM", "SURF", stages=(0, 0, 0, 0, -1, 0)), mon("ARBOK", 58),
      False),
     ("X_ACCURACY", mon("BLASTOISE", 58, *BLASTOISE, x_accuracy=True), mon("ARBOK", 50), True),
     ("X_SPEED", mon("BLASTOISE", 58, *BLASTOISE), mon("GENGAR", 60), False),
     ("X_ATTACK", mon("RATTATA", 10, "TACKLE", pp=(0,)), mon("PIDGEY", 10), False)],  # STRUGGLE
)  # fmt: skip
def test_battle_items_that_cannot_help_any_move_now(
    item: str, user: Fighter, target: Fighter, is_futile: bool
) -> None:
    assert futile_item(item, user, target) is is_futile


def test_a_confused_member_heals_rather_than_pass_a_turn_with_an_item_that_helps_nothing() -> None:
    # AGATHA's GENGAR (NIGHT SHADE: 60 to anything) against a confused BLASTOISE at 86 HP: a self-hit on
    # the way to an attack brings the next NIGHT SHADE in reach. X ATTACK (no move of its touches a Ghost)
    # passed the turn without that risk and was chosen four times in a row; a FULL RESTORE is the answer.
    blastoise = mon("BLASTOISE", 58, *BLASTOISE, hp=86, pp=(5, 2, 14, 0), confused=4)
    gengar = mon("GENGAR", 60, "HYPNOSIS", "NIGHT_SHADE", "CONFUSE_RAY", "TOXIC", hp=120)
    duel = versus("AGATHA", (blastoise,), (gengar,))
    duel = duel._replace(us=duel.us._replace(heals=(999,) * 8))
    cures = frozenset({"PSN", "PAR", "BRN", "FRZ", "SLP"})
    full_restore = UseItem(item="FULL_RESTORE", heal=None, cures=cures, member=0)
    x_attack = UseItem(item="X_ATTACK", heal=0, cures=frozenset(), member=-1)
    x_accuracy = UseItem(item="X_ACCURACY", heal=0, cures=frozenset(), member=-1)
    actions = [*attacks(duel), x_attack, x_accuracy, full_restore]
    verdict = search(duel, actions, boss_plies=2)
    assert verdict.best.action not in (x_attack, x_accuracy)
    assert verdict.best.action == full_restore, verdict.reason


@pytest.mark.parametrize(("room", "elixer_used"), [("RIVAL3", True), ("LANCE", False)])
def test_the_champion_is_the_last_battle_so_an_elixer_is_not_kept_for_later(
    room: str, elixer_used: bool
) -> None:
    # A BLASTOISE at the Champion's door with ICE BEAM and FISSURE at 0: priced as in the rooms before him
    # (an ELIXER weighs 30% of winning), it fought on with what was left and lost.
    dry = mon("BLASTOISE", 57, *BLASTOISE, pp=(0, 2, 3, 0))
    pidgeot = mon("PIDGEOT", 61, "WING_ATTACK", "MIRROR_MOVE", "SKY_ATTACK", "WHIRLWIND")
    duel = versus(room, (dry,), (pidgeot, mon("VENUSAUR", 65)))
    elixer = UseItem(item="ELIXER", heal=10, cures=frozenset(), member=0)
    verdict = search(duel, [*attacks(duel), elixer])
    assert (verdict.best.action == elixer) is elixer_used, verdict.reason


@pytest.mark.parametrize(("room", "elixer_used"), [("GIOVANNI", False), ("LANCE", True)])
def test_outside_the_gauntlet_an_elixer_is_kept_for_its_rooms_unless_the_battle_hangs_on_it(
    room: str, elixer_used: bool
) -> None:
    # A nurse gives PP back outside the rooms: 62% to win with ICE BEAM's last use does not pay for an
    # ELIXER there (a run drank its only one against GIOVANNI and met the Champion with 3 PP in SURF).
    dry = mon("BLASTOISE", 48, "ICE_BEAM", "SURF", "DIG", "DOUBLE_TEAM", pp=(1, 0, 0, 15))
    duel = versus(room, (dry,), (mon("GOLEM", 50),))
    elixer = UseItem(item="ELIXER", heal=10, cures=frozenset(), member=0)
    verdict = search(duel, [*attacks(duel), elixer])
    assert (verdict.best.action == elixer) is elixer_used, verdict.reason
    dry_to_the_end = versus(room, (dry._replace(pp=(0, 0, 0, 15)),), (mon("RHYDON", 50),))
    assert search(dry_to_the_end, [*attacks(dry_to_the_end), elixer]).best.action == elixer  # a lost battle


def test_a_line_that_never_knocks_out_earns_nothing_for_its_pace() -> None:
    never = Scored(action=Attack(0), win=0.0, kept=0.0, standing=0.0, turns_to_ko=1.0, ko=0.0)
    slow = Scored(action=Attack(1), win=0.0, kept=0.0, standing=0.0, turns_to_ko=9.0, ko=1.0)
    assert never.value < slow.value


def test_knock_out_turns_weigh_every_way_a_turn_ends_by_its_duel() -> None:
    pace = KnockOut()
    pace.add(0.5, duel_odds(wild(mon("PIDGEY", 5), mon("PIDGEY", 5, hp=0))))  # down this turn
    assert pace.turns == 1
    lost = duel_odds(wild(mon("PIDGEY", 5, hp=0), mon("PIDGEY", 5)))
    pace.add(0.5, lost)  # we went down: no knock-out to time
    assert pace.turns == 1 and pace.chance == 0.5
    assert math.isinf(KnockOut().turns)


def test_a_duel_lost_first_is_no_knock_out_to_time() -> None:
    """Our own knock-out curve alone said "KO in N turns" for a duel the enemy ends first."""
    odds = duel_odds(wild(mon("RATTATA", 5, hp=3), mon("ONIX", 40)))
    pace = KnockOut()
    pace.add(1.0, odds)
    assert odds.win < 0.01 and pace.chance < 0.01


# -- two-turn and locked moves -----------------------------------------------------------------------------
def test_a_charging_move_takes_two_turns_and_the_enemy_hits_in_between() -> None:
    duel = wild(mon("WARTORTLE", 30, "SKULL_BASH"), mon("RATTATA", 30, "TACKLE"))
    first = resolve_turn(duel, Attack(0), Attack(0), detail=2)
    assert all(after.us.fighter.charging == 0 for _, after in first)
    assert all(after.them.fighter.hp == duel.them.fighter.hp for _, after in first)
    hit_us = sum(p for p, after in first if after.us.fighter.hp < duel.us.fighter.hp)
    assert hit_us > 0.9
    assert all(after.us.fighter.pp == (14,) for _, after in first)
    _, charged = max(first, key=lambda pair: pair[0])
    second = resolve_turn(charged, Attack(0), Attack(0), detail=2)
    assert all(after.us.fighter.charging == -1 for _, after in second)
    assert all(after.us.fighter.pp == (14,) for _, after in second)  # the hit spends no second PP
    assert sum(p for p, after in second if after.them.fighter.hp < charged.them.fighter.hp) > 0.9


def test_a_charged_member_lands_its_hit_in_the_first_turn_of_the_race() -> None:
    ready = wild(mon("WARTORTLE", 40, "SKULL_BASH", charging=0), mon("PIDGEY", 12, "TACKLE"))
    assert duel_odds(ready).turns_to_ko == pytest.approx(1.0, abs=0.05)
    winding = wild(mon("WARTORTLE", 40, "SKULL_BASH"), mon("PIDGEY", 12, "TACKLE"))
    assert duel_odds(winding).turns_to_ko > 1.5


def test_nothing_but_swift_reaches_a_member_up_in_the_air() -> None:
    flying = mon("PIDGEOTTO", 30, "FLY", charging=0)
    for move, reached in (("TACKLE", False), ("SWIFT", True), ("THUNDER_WAVE", False)):
        duel = wild(flying, mon("RATICATE", 40, move))
        outcomes = resolve_turn(duel, Attack(0), Attack(0), detail=2)
        touched = sum(
            p for p, after in outcomes if after.us.fighter.hp < flying.hp or after.us.fighter.status != "OK"
        )
        assert (touched > 0.5) is reached, move


def test_thrash_goes_on_without_pp_then_confuses() -> None:
    duel = wild(mon("NIDOKING", 40, "THRASH", "EARTHQUAKE"), mon("SNORLAX", 50, "TACKLE"))
    after = [d for _, d in resolve_turn(duel, Attack(1), Attack(0), detail=3)]
    after = [d for _, d in resolve_turn(duel, Attack(0), Attack(0), detail=3)]
    assert {d.us.fighter.thrashing for d in after} == {2, 3} and all(d.us.fighter.pp[0] == 19 for d in after)
    two_left = next(d for d in after if d.us.fighter.thrashing == 2)
    assert locked_slot(two_left.us.fighter) == 0
    nxt = [d for _, d in resolve_turn(two_left, Attack(1), Attack(0), detail=3)]
    assert all(d.us.fighter.thrashing == 1 and d.us.fighter.pp == (19, 10) for d in nxt)  # EARTHQUAKE unused
    last = [d for _, d in resolve_turn(nxt[0], Attack(1), Attack(0), detail=3)]
    assert all(d.us.fighter.thrashing == 0 and d.us.fighter.confused > 0 for d in last)


def test_rage_locks_in_and_builds_when_hit() -> None:
    duel = wild(mon("MANKEY", 20, "RAGE", "KARATE_CHOP"), mon("RATTATA", 20, "TACKLE"))
    after = [d for _, d in resolve_turn(duel, Attack(0), Attack(0), detail=2)]
    assert all(d.us.fighter.raging and d.us.fighter.pp == (19, 25) for d in after)
    raging = wild(mon("MANKEY", 20, "RAGE", "KARATE_CHOP", raging=True), mon("RATTATA", 20, "TACKLE"))
    after = [d for _, d in resolve_turn(raging, Attack(1), Attack(0), detail=2)]
    assert all(d.us.fighter.pp == raging.us.fighter.pp for d in after)  # RAGE, and no PP spent
    hit = [d for d in after if d.us.fighter.hp < raging.us.fighter.hp and not d.us.fighter.fainted]
    assert hit and all(d.us.fighter.stages[ATTACK] == 1 for d in hit)
    assert all(d.us.fighter.stages[ATTACK] == 0 for d in after if d.us.fighter.hp == raging.us.fighter.hp)
    assert enemy.choices(Duel(us=raging.them, them=raging.us, wild=True)) == [(1.0, Attack(0))]


# -- TRANSFORM, METRONOME, MIMIC ---------------------------------------------------------------------------
def test_a_transformed_ditto_has_our_types_stats_stages_and_moves() -> None:
    blastoise = mon("BLASTOISE", 52, "SURF", "HYDRO_PUMP", "SKULL_BASH", "BITE", stages=(1, 0, 0, 0, 0, 0))
    ditto = mon("DITTO", 50, hp=80)
    copy = transform(ditto, blastoise)
    assert (copy.species, copy.types, copy.moves) == ("BLASTOISE", blastoise.types, blastoise.moves)
    assert (copy.stats, copy.battle, copy.stages) == (blastoise.stats, blastoise.battle, blastoise.stages)
    assert copy.pp == (5, 5, 5, 5) and (copy.level, copy.hp, copy.max_hp) == (50, 80, ditto.max_hp)
    after = [d for _, d in resolve_turn(wild(blastoise, ditto), Attack(2), Attack(0), detail=2)]
    assert all(d.them.fighter.transformed and d.them.fighter.moves == blastoise.moves for d in after)


def test_a_ditto_is_no_sure_win_for_the_member_it_copies() -> None:
    """A BLASTOISE with nothing but Normal moves left against the BLASTOISE a DITTO makes of it: its own
    moves (TRANSFORM alone) would call the DITTO harmless."""
    blastoise = mon("BLASTOISE", 52, "SURF", "HYDRO_PUMP", "SKULL_BASH", "BITE", pp=(0, 0, 3, 3), hp=80)
    duel = wild(blastoise, mon("DITTO", 50))
    played = sampled_win_rate(duel, 120, seed=3)
    assert played < 0.8
    assert abs(win_probability(duel) - played) < 0.25


def test_metronome_is_the_average_over_the_moves_it_may_call() -> None:
    clefairy = mon("CLEFAIRY", 30, "METRONOME")
    target = mon("RATTATA", 30)
    mean, _ = move_pace(clefairy, target, 0)
    pool = [m for m in game_data().moves_by_id.values() if m.name not in ("METRONOME", "STRUGGLE")]
    assert 0 < mean < max(move_pace(clefairy._replace(moves=(m.id,)), target, 0)[0] for m in pool)
    outcomes = resolve_turn(wild(clefairy, target), Attack(0), Attack(0), detail=3)
    assert sum(p for p, _ in outcomes) == pytest.approx(1.0)
    assert 0.2 < sum(p for p, d in outcomes if d.them.fighter.hp < target.hp) < 0.8


def test_the_enemys_mimic_takes_one_of_our_moves_at_random() -> None:
    ours = mon("SQUIRTLE", 20, "TACKLE", "BUBBLE")
    duel = wild(ours, mon("MR_MIME", 20, "MIMIC", "CONFUSION"))
    learned = {}
    for p, after in resolve_turn(duel, Attack(0), Attack(0), detail=2):
        move = game_data().moves_by_id[after.them.fighter.moves[0]].name
        learned[move] = learned.get(move, 0.0) + p
    assert learned["TACKLE"] == pytest.approx(learned["BUBBLE"], abs=0.01) and learned["TACKLE"] > 0.45


# -- stat items --------------------------------------------------------------------------------------------
def test_dire_hit_quarters_the_critical_hit_rate_as_focus_energy_does() -> None:
    """CriticalHitTest shifts the rate right where it means to shift it left: GETTING_PUMPED, which both
    DIRE HIT and FOCUS ENERGY set, leaves a quarter of the usual chance."""
    persian = mon("PERSIAN", 40, "SLASH", "BITE")
    pumped, _ = stat_item(persian, mon("RATTATA", 40), "DIRE_HIT", frozenset())
    assert pumped.focus_energy
    bite = MOVES["BITE"]
    assert crit_chance(bite, pumped) == pytest.approx(crit_chance(bite, persian) / 4, abs=0.005)
    assert crit_chance(MOVES["SLASH"], pumped) < crit_chance(MOVES["SLASH"], persian) / 2


def test_the_search_never_spends_a_dire_hit() -> None:
    persian = mon("PERSIAN", 40, "SLASH", "BITE")
    duel = versus("BROCK", (persian,), (mon("ONIX", 40, "TACKLE", "BIND"),))
    actions = [*attacks(duel), UseItem(item="DIRE_HIT", heal=0, cures=frozenset(), member=-1)]
    assert isinstance(search(duel, actions).best.action, Attack)


@pytest.mark.parametrize(
    ("item", "stat"), [("X_ATTACK", 0), ("X_DEFEND", 1), ("X_SPEED", 2), ("X_SPECIAL", 3)]
)
def test_an_x_item_raises_its_stage_and_the_badges_apply_again(item: str, stat: int) -> None:
    badge = ("BOULDER", "THUNDER", "SOUL", "VOLCANO")[stat]
    member = mon("NIDOKING", 40)
    raised, _ = stat_item(member, mon("RATTATA", 40), item, frozenset({badge}))
    assert raised.stages[stat] == 1
    boosted = member.stats[stat] * 3 // 2
    assert raised.battle[stat] == boosted + boosted // 8


def test_x_accuracy_makes_an_ohko_move_sure_when_the_user_is_not_slower() -> None:
    nidoking = mon("NIDOKING", 50, "HORN_DRILL")
    slow = mon("SLOWBRO", 40)
    sure, _ = stat_item(nidoking, slow, "X_ACCURACY", frozenset())
    assert hit_chance(MOVES["HORN_DRILL"], nidoking, slow) < 0.35
    assert hit_chance(MOVES["HORN_DRILL"], sure, slow) == 1.0
    assert duel_odds(wild(sure, slow)).win > 0.99
    assert not futile(MOVES["HORN_DRILL"], sure, slow)
    fast = mon("JOLTEON", 55)
    assert sure.battle[SPEED] < fast.battle[SPEED] and futile(MOVES["HORN_DRILL"], sure, fast)
    outcomes = resolve_turn(wild(sure, fast), Attack(0), Attack(0), detail=2)
    assert all(not after.them.fighter.fainted for _, after in outcomes)


def test_guard_spec_keeps_the_enemys_growl_off() -> None:
    guarded, _ = stat_item(mon("PIKACHU", 20, "THUNDERSHOCK"), mon("RATTATA", 20), "GUARD_SPEC", frozenset())
    duel = wild(guarded, mon("JIGGLYPUFF", 20, "GROWL"))
    assert all(after.us.fighter.stages[ATTACK] == 0 for _, after in resolve_turn(duel, Attack(0), Attack(0)))
    assert all(
        after.us.fighter.stages[ACCURACY] == 0 for _, after in resolve_turn(duel, Attack(0), Attack(0))
    )


def test_an_x_item_is_seen_by_the_enemys_ai_before_it_moves() -> None:
    duel = wild(mon("NIDOKING", 40, "HORN_DRILL"), mon("SLOWBRO", 38, "WATER_GUN"))
    x_accuracy = UseItem(item="X_ACCURACY", heal=0, cures=frozenset(), member=-1)
    assert enemy_answers(duel, x_accuracy) == enemy.choices(duel)


# -- PP items ----------------------------------------------------------------------------------------------
def _with_bag(state: GameState, *items: tuple[str, int]) -> GameState:
    ids = {entry.name: item_id for item_id, entry in game_data().items.items()}
    return state.model_copy(
        update={"bag": tuple(BagItem(item_id=ids[n], name=n, quantity=q) for n, q in items)}
    )


def test_pp_items_are_offered_on_the_moves_run_dry() -> None:
    state = _with_bag(
        fixture_state("red_brock_move_menu_0pp"), ("ETHER", 1), ("MAX_ELIXER", 1), ("POTION", 1)
    )
    offered = [a for a in legal_actions(state) if isinstance(a, UseItemAction)]
    assert offered == [
        UseItemAction(item="ETHER", target=0, move=2),
        UseItemAction(item="MAX_ELIXER", target=0),
    ]
    assert describe(offered[0], state) == "use ETHER on SQUIRTLE's BUBBLE"


def test_no_pp_item_while_every_move_has_pp() -> None:
    state = _with_bag(fixture_state("red_brock_main_menu"), ("ETHER", 1), ("ELIXER", 1))
    assert not [a for a in legal_actions(state) if isinstance(a, UseItemAction)]


def test_pp_items_restore_what_the_game_restores() -> None:
    squirtle = fixture_state("red_brock_move_menu_0pp").party[0]  # TACKLE 35/35, TAIL WHIP 30/30, BUBBLE 0/30
    assert pp_after(BATTLE_ITEMS["ETHER"], squirtle, 2) == (35, 30, 10)
    assert pp_after(BATTLE_ITEMS["MAX_ETHER"], squirtle, 2) == (35, 30, 30)
    assert pp_after(BATTLE_ITEMS["ELIXER"], squirtle, None) == (35, 30, 10)
    assert pp_after(BATTLE_ITEMS["MAX_ELIXER"], squirtle, None) == (35, 30, 30)
    ups = squirtle.model_copy(
        update={"moves": (squirtle.moves[0].model_copy(update={"pp": 2, "pp_ups": 3}),)}
    )
    assert pp_after(BATTLE_ITEMS["MAX_ETHER"], ups, 0) == (35 + 3 * 7,)  # a PP Up adds at most 7


def test_the_search_restores_the_pp_of_a_member_run_dry_against_a_ghost() -> None:
    blastoise = mon("BLASTOISE", 57, "SURF", "HYDRO_PUMP", "SKULL_BASH", "BITE", pp=(0, 0, 10, 10))
    duel = versus("AGATHA", (blastoise,), (mon("GENGAR", 40, *GENGAR),))
    ether = UseItem(item="ETHER", heal=0, cures=frozenset(), member=0, move=0)
    verdict = search(duel, [*attacks(duel), ether])
    assert verdict.best.action == ether
    state = duel_of(_with_bag(fixture_state("red_brock_move_menu_0pp"), ("ETHER", 1)), Fairness.FULL_RAM)
    assert state is not None and state.us.fighter.max_pp == (35, 30, 30)


# -- a switch fed to the enemy -----------------------------------------------------------------------------
def test_a_member_switched_in_to_be_knocked_out_is_judged_as_deep_as_an_attack() -> None:
    """A real run's rival battle: a PIDGEY L5 switched in before the WARTORTLE goes down to PIDGEOTTO's
    first hit; the judge alone then rated the WARTORTLE sent after it above the WARTORTLE attacking now."""
    rival = trainer_side("RIVAL1", 8)
    assert rival is not None
    wartortle = mon("WARTORTLE", 22, "TACKLE", "TAIL_WHIP", "BUBBLE", "WATER_GUN")
    duel = Duel(us=Side(members=(wartortle, mon("PIDGEY", 5, "GUST"))), them=rival._replace(turns_out=2))
    verdict = search(duel, [*attacks(duel), Switch(1)])
    assert verdict.best.action == Attack(3)
    water_gun, fed = verdict.scored[3], verdict.scored[4]
    assert fed.win < water_gun.win + 0.01


def test_a_transformed_enemy_on_screen_is_our_member_with_its_own_hp_bar() -> None:
    """Under visible_only the enemy shows our species once it has transformed; a player knows what it
    copied (our member's types, stats and moves) and that its HP is still the DITTO's."""
    state = fixture_state("red_wild_main_menu")
    battle = state.battle
    assert battle is not None and battle.enemy is not None and battle.player is not None
    ditto = game_data().species_by_name["DITTO"]
    copied = battle.enemy.model_copy(
        update={
            "species_id": battle.player.species_id,
            "species_name": battle.player.species_name,
            "level": 20,
            "hp": 25,
            "max_hp": 50,
        }
    )
    side = battle.enemy_side.model_copy(update={"status3": 1 << 3})  # TRANSFORMED
    shown = battle.model_copy(update={"enemy": copied, "enemy_side": side, "cur_opponent": ditto.index})
    duel = duel_of(state.model_copy(update={"battle": shown}), Fairness.VISIBLE_ONLY)
    assert duel is not None
    foe, ours = duel.them.fighter, duel.us.fighter
    assert (foe.species, foe.types, foe.moves, foe.battle) == (
        ours.species,
        ours.types,
        ours.moves,
        ours.battle,
    )
    assert foe.transformed and foe.max_hp == fighter_of("DITTO", 20).max_hp and foe.hp == foe.max_hp // 2


def test_in_a_long_sure_win_the_harder_hit_goes_first() -> None:
    """A real run's stall: the rival's VENUSAUR only uses POISONPOWDER on a BELLSPROUT it cannot poison.
    Every move wins; VINE WHIP (not very effective, 1 HP a use) came first by its place, turn after turn,
    and the knock-out took seventy turns where thirty-three were forecast with CUT."""
    bellsprout = mon("BELLSPROUT", 16, "VINE_WHIP", "GROWTH", "WRAP", "CUT")
    venusaur = mon("VENUSAUR", 40, "GROWL", "LEECH_SEED", "POISONPOWDER", "RAZOR_LEAF")
    duel = versus("RIVAL2", (bellsprout,), (venusaur,))
    assert enemy.choices(duel) == [(1.0, Attack(2))]  # POISONPOWDER, every turn
    verdict = search(duel, attacks(duel))
    assert all(s.win == 1.0 for s in verdict.scored)
    assert chosen(duel) == "CUT"


def test_a_charge_is_spent_by_the_duel_it_was_charged_in() -> None:
    """A duel's winner kept its charge, so SKULL BASH's hit landed again in every duel after: charging it
    against a real run's RHYHORN (water hits it four times over) was judged 99.98% against 88% for SURF."""
    rival = trainer_side("RIVAL2", 11)
    assert rival is not None
    members = tuple(m._replace(hp=0) if m.species == "PIDGEOT" else m for m in rival.members)
    stats = (128, 151, 132, 124)
    blastoise = mon("BLASTOISE", 56, "SURF", "HYDRO_PUMP", "SKULL_BASH", "STRENGTH", pp=(15, 4, 15, 15),
                    hp=185, max_hp=185, stats=stats, battle=(144, 169, 148, 139))  # fmt: skip
    team = (blastoise, mon("PIDGEY", 3, "GUST", "FLY"), mon("GLOOM", 22, "ABSORB", "CUT", "STUN_SPORE"))
    badges = frozenset({"BOULDER", "CASCADE", "THUNDER", "RAINBOW", "SOUL", "MARSH", "VOLCANO", "EARTH"})
    us = Side(members=team, badges=badges)
    duel = Duel(us=us, them=rival._replace(members=members, active=1, turns_out=2))
    verdict = search(duel, attacks(duel))
    assert chosen(duel) in ("SURF", "HYDRO_PUMP")
    assert verdict.scored[2].win < verdict.scored[0].win


def test_x_items_are_kept_for_the_bosses() -> None:
    """The bag's X items are stock for the bosses' forecasts: offered against BROCK, never in the wild or
    against a trainer the story passes on the way."""
    x_attack = UseItemAction(item="X_ATTACK")
    potion = UseItemAction(item="POTION", target=0)
    brock = _with_bag(fixture_state("red_brock_main_menu"), ("X_ATTACK", 3), ("POTION", 1))
    wild = _with_bag(fixture_state("red_wild_main_menu"), ("X_ATTACK", 3), ("POTION", 1))
    assert brock.battle is not None and brock.battle.trainer_class_name == "BROCK"
    camper = brock.model_copy(
        update={"battle": brock.battle.model_copy(update={"trainer_class_name": "BUG_CATCHER"})}
    )
    assert x_attack in legal_actions(brock) and x_attack in legal_actions(wild)
    assert not spends_boss_stock(brock, x_attack)
    assert spends_boss_stock(wild, x_attack)
    assert spends_boss_stock(camper, x_attack)
    assert not spends_boss_stock(wild, potion)
    chosen = Lookahead(Fairness.FULL_RAM).choose(wild, [x_attack])
    assert chosen is not None and chosen[0] == x_attack  # nothing else on offer: the game still goes on


def test_in_the_gauntlet_x_accuracy_comes_first_for_a_sure_fissure_as_the_chain_plays_it() -> None:
    blastoise = mon("BLASTOISE", 62, "SURF", "FISSURE")
    accuracy = UseItem(item="X_ACCURACY", heal=0, cures=frozenset(), member=0)
    foes = (mon("SLOWBRO", 54, "WATER_GUN"), mon("JYNX", 56, "LOVELY_KISS"))
    lorelei = versus("LORELEI", (blastoise,), foes)
    verdict = search(lorelei, [*attacks(lorelei), accuracy])
    assert verdict.best.action == accuracy and "FISSURE" in verdict.reason, verdict.reason
    sure = lorelei._replace(us=lorelei.us.with_fighter(blastoise._replace(x_accuracy=True)))
    assert search(sure, [*attacks(sure), accuracy]).best.action == Attack(1)  # FISSURE, sure now
    wild_duel = wild(blastoise, mon("SLOWBRO", 54, "WATER_GUN"))
    assert search(wild_duel, [*attacks(wild_duel), accuracy]).best.action != accuracy
