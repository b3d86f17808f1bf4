"""The Elite Four and the Champion as one chain, played out in the turn model: what the bag holds for it,
the greedy policy's choices (the move that saves PP, a potion in danger, an X item while safe, a switch to
a better member as a foe comes out), the mending between rooms, and chances that move the right way."""

from __future__ import annotations

from engine.combat.fighter import Attack, Duel, Side, Switch, UseItem, fighter_of
from engine.combat.hits import sure_knock_out
from engine.combat.position import our_fighters, trainer_side
from engine.game.growth import experience_for_level
from engine.game.models import BagItem
from engine.game.stats import raised
from engine.game.tables import game_data
from engine.team.gauntlet import (
    CONFIRM_SAMPLES,
    PLAN_SAMPLES,
    PROJECTED_GAINS,
    Bag,
    _mend,
    _with_growth,
    bag_of,
    gauntlet_forecast,
    greedy,
    grown,
    levels_to,
    planned_forecast,
    settled_forecast,
)
from engine.team.planner import GAUNTLET, gauntlet
from tests.unit.test_team import member, team

CHAMPION = ("RIVAL3", 2)


def moves(*names: str) -> list:  # type: ignore[type-arg]
    return [game_data().moves_by_name[name] for name in names]


def holding(state, **items: int):  # type: ignore[no-untyped-def]
    ids = game_data().item_ids
    bag = tuple(BagItem(item_id=ids[name], name=name, quantity=n) for name, n in items.items())
    return state.model_copy(update={"bag": bag})


def test_the_bag_is_counted_by_what_the_chain_does_with_it() -> None:
    state = holding(team(member("BLASTOISE", 60, ("SURF",))), FULL_RESTORE=3, SUPER_POTION=2, REVIVE=2,
                    FULL_HEAL=1, ELIXER=1, X_SPECIAL=4, POKE_BALL=5)  # fmt: skip
    bag = bag_of(state)
    assert bag.heals == [999, 999, 999, 50, 50]  # largest first; a full restore heals everything
    assert (bag.revives, bag.cures, bag.elixers, bag.boosts) == ([2, 2], 1, 1, {"X_SPECIAL": 4})


def test_greedy_saves_the_strong_moves_pp_when_a_weaker_move_knocks_out_as_fast() -> None:
    us = fighter_of("BLASTOISE", 60, moves("HYDRO_PUMP", "SURF", "TACKLE"))
    weak = fighter_of("CHARMANDER", 10)
    duel = Duel(us=Side(members=(us,)), them=Side(members=(weak,)))
    # Every move knocks a L10 CHARMANDER out in one turn: TACKLE has the most PP to spare.
    assert greedy(duel, Bag()) == Attack(2)
    strong = fighter_of("RHYDON", 60)
    duel = Duel(us=Side(members=(us,)), them=Side(members=(strong,)))
    assert greedy(duel, Bag()) in (Attack(0), Attack(1))  # a water move: TACKLE barely scratches it


def test_greedy_drinks_a_potion_only_in_danger() -> None:
    us = fighter_of("BLASTOISE", 40, moves("SURF"))
    foe = fighter_of("VENUSAUR", 60, moves("RAZOR_LEAF"))
    safe = Duel(us=Side(members=(us,), heals=(999,)), them=Side(members=(foe,)))
    assert not isinstance(greedy(safe, Bag()), UseItem)
    hurt = safe._replace(us=safe.us.with_fighter(us.with_hp(10)))
    action = greedy(hurt, Bag())
    assert isinstance(action, UseItem) and action.heal is None and action.member == 0


def test_greedy_raises_the_stat_its_best_move_uses_while_the_foe_is_no_threat() -> None:
    us = fighter_of("BLASTOISE", 60, moves("SURF"))
    slow = fighter_of("SLOWBRO", 50, moves("WATER_GUN"))
    duel = Duel(us=Side(members=(us,)), them=Side(members=(slow,), turns_out=1))
    assert greedy(duel, Bag(boosts={"X_SPECIAL": 2})) == UseItem("X_SPECIAL", 0, frozenset(), 0)
    assert greedy(duel, Bag()) == Attack(0)  # none held


def test_greedy_switches_to_a_much_better_member_as_a_foe_comes_out() -> None:
    blastoise = fighter_of("BLASTOISE", 55, moves("SURF"))
    jolteon = fighter_of("JOLTEON", 55, moves("THUNDERBOLT"))
    gyarados = fighter_of("GYARADOS", 58)
    duel = Duel(us=Side(members=(blastoise, jolteon)), them=Side(members=(gyarados,)))
    assert greedy(duel, Bag()) == Switch(1)
    settled = duel._replace(them=duel.them._replace(turns_out=1))
    assert isinstance(greedy(settled, Bag()), Attack)  # only as it comes out


def test_between_rooms_the_fighters_are_revived_and_filled_but_not_the_field_move_carriers() -> None:
    fighter = fighter_of("BLASTOISE", 60, moves("SURF"))
    carrier = fighter_of("PIDGEY", 5, moves("FLY"))
    members = (fighter.with_hp(0), carrier.with_hp(1))
    tops = ((15,), (15,))
    bag = Bag(heals=[999], revives=[2])
    mended = _mend(members, tops, bag)
    assert mended[0].hp == fighter.max_hp  # revived to half, then a full restore
    assert mended[1].hp == 1  # far below the strongest: left as it is
    assert (bag.heals, bag.revives) == ([], [])


def test_the_chain_is_sure_for_a_team_far_above_it_and_hopeless_for_one_far_below() -> None:
    strong = team(member("MEWTWO", 100, ("PSYCHIC_M", "ICE_BEAM", "THUNDERBOLT", "RECOVER")))
    weak = team(member("RATTATA", 10, ("TACKLE",)))
    bosses = (*GAUNTLET, CHAMPION)
    high, low = gauntlet_forecast(strong, bosses, samples=8), gauntlet_forecast(weak, bosses, samples=8)
    assert high is not None and low is not None
    assert high.chance == 1.0 and low.chance == 0.0
    assert low.beaten[0] == 0.0 and high.beaten == (1.0,) * 5


def test_the_chain_rises_with_levels_and_with_the_bag() -> None:
    bosses = (*GAUNTLET, CHAMPION)
    moveset = ("SURF", "BLIZZARD", "EARTHQUAKE", "BODY_SLAM")
    low = gauntlet_forecast(team(member("BLASTOISE", 55, moveset)), bosses, samples=24)
    high = gauntlet_forecast(team(member("BLASTOISE", 75, moveset)), bosses, samples=24)
    stocked = gauntlet_forecast(holding(team(member("BLASTOISE", 75, moveset)), FULL_RESTORE=20), bosses,
                                samples=24)  # fmt: skip
    assert low is not None and high is not None and stocked is not None
    assert sum(low.beaten) < sum(high.beaten) <= sum(stocked.beaten)


def test_the_planned_forecast_counts_the_stock_as_bought_and_is_remembered() -> None:
    state = team(member("BLASTOISE", 70, ("SURF", "BLIZZARD", "EARTHQUAKE", "BODY_SLAM")))
    without = planned_forecast(state, gauntlet(state))
    stocked = planned_forecast(state, gauntlet(state), (("FULL_RESTORE", 20),))
    assert without is not None and stocked is not None
    assert sum(stocked.beaten) >= sum(without.beaten)
    assert planned_forecast(state, gauntlet(state), (("FULL_RESTORE", 20),)) is stocked
    # What the chain never uses (balls, an HM) asks for no new forecast; a potion does.
    assert planned_forecast(holding(state, POKE_BALL=5, HM_SURF=1), gauntlet(state)) is without
    assert planned_forecast(holding(state, SUPER_POTION=1), gauntlet(state)) is not without


def test_an_unknown_boss_or_no_party_gives_no_forecast() -> None:
    assert gauntlet_forecast(team(), GAUNTLET) is None
    assert gauntlet_forecast(team(member("BLASTOISE", 60, ("SURF",))), (("NOBODY", 1),)) is None


def test_a_chance_near_a_bar_is_drawn_again_before_it_is_believed() -> None:
    strong = team(member("MEWTWO", 100, ("PSYCHIC_M", "ICE_BEAM", "THUNDERBOLT", "RECOVER")))
    weak = team(member("RATTATA", 10, ("TACKLE",)))
    sure, hopeless = settled_forecast(strong, gauntlet(strong)), settled_forecast(weak, gauntlet(weak))
    assert sure is not None and hopeless is not None
    assert sure.samples == CONFIRM_SAMPLES and sure.chance == 1.0
    assert hopeless.samples == PLAN_SAMPLES and hopeless.chance == 0.0  # far from any bar: no more draws


def test_the_levels_to_a_bar_are_the_fewest_projected_gains_that_reach_it_or_none() -> None:
    strong = team(member("MEWTWO", 90, ("PSYCHIC_M", "ICE_BEAM", "THUNDERBOLT", "RECOVER")))
    weak = team(member("RATTATA", 10, ("TACKLE",)))
    assert levels_to(strong, gauntlet(strong), 0.7) == PROJECTED_GAINS[0]
    assert levels_to(weak, gauntlet(weak), 0.7) is None  # L26 is hopeless still
    mid = holding(team(member("BLASTOISE", 64, ("SURF", "BLIZZARD", "EARTHQUAKE", "BODY_SLAM"))),
                  FULL_RESTORE=16, X_SPECIAL=6)  # fmt: skip
    gain = levels_to(mid, gauntlet(mid), 0.7)
    assert gain is not None and gain > PROJECTED_GAINS[0]
    below = raised(mid.party[0], 64 + gain - PROJECTED_GAINS[0])
    short = settled_forecast(mid.model_copy(update={"party": (below,)}), gauntlet(mid))
    assert short is not None and short.chance < 0.7  # the gain before it does not reach the bar


def test_the_chain_raises_the_strongest_member_by_the_experience_of_the_rooms_before() -> None:
    blastoise = member("BLASTOISE", 55, ("SURF",))
    blastoise = blastoise.model_copy(update={"exp": experience_for_level("GROWTH_MEDIUM_SLOW", 55)})
    state = team(member("PIDGEY", 20, ("GUST",)), blastoise)
    rooms = [trainer_side(*boss) for boss in (*GAUNTLET, CHAMPION)]
    top, levels = grown(state, [room for room in rooms if room is not None])
    assert top == 1 and levels[0] is None  # nothing gained before LORELEI
    reached = [55 if fighter is None else fighter.level for fighter in levels]
    assert reached == sorted(reached) and reached[-1] >= 59  # about a level a room at L55
    grown_up = levels[-1]
    assert grown_up is not None and grown_up.max_hp > blastoise.max_hp
    assert grown_up.stats[0] > blastoise.stats.attack


def test_a_level_gained_adds_its_max_hp_and_a_fainted_member_gains_nothing() -> None:
    state = team(member("BLASTOISE", 55, ("SURF",)))
    now = our_fighters(state)[0]
    later = our_fighters(state.model_copy(update={"party": (raised(state.party[0], 58),)}))[0]
    hurt = now._replace(hp=10)
    (up,) = _with_growth((hurt,), (0, (None, later)), 1)
    assert (up.level, up.max_hp, up.hp) == (58, later.max_hp, 10 + later.max_hp - now.max_hp)
    assert _with_growth((hurt,), (0, (None, later)), 0) == (hurt,)  # the first room: nothing yet
    fallen = now._replace(hp=0)
    assert _with_growth((fallen,), (0, (None, later)), 1) == (fallen,)


def test_each_room_opens_with_the_member_best_placed_against_its_first_foe() -> None:
    # LORELEI's DEWGONG has REST: a HAUNTER in front (NIGHT SHADE) never wins and, played first, never left.
    haunter = member("HAUNTER", 44, ("LICK", "PSYWAVE", "NIGHT_SHADE", "HYPNOSIS"))
    blastoise = member("BLASTOISE", 62, ("SURF", "STRENGTH", "ICE_BEAM", "BODY_SLAM"), slot=1)
    bosses = (*GAUNTLET, CHAMPION)
    weak_first = gauntlet_forecast(holding(team(haunter, blastoise), FULL_RESTORE=20), bosses, samples=8)
    strong_first = gauntlet_forecast(
        holding(team(blastoise.model_copy(update={"slot": 0}), haunter.model_copy(update={"slot": 1})),
                FULL_RESTORE=20), bosses, samples=8)  # fmt: skip
    assert weak_first is not None and strong_first is not None
    assert weak_first.beaten[0] >= 0.75 and abs(weak_first.beaten[0] - strong_first.beaten[0]) <= 0.25


def test_greedy_takes_x_accuracy_for_a_sure_fissure_where_the_foe_is_slower_and_not_immune() -> None:
    us = fighter_of("BLASTOISE", 60, moves("SURF", "FISSURE"))
    slowbro = fighter_of("SLOWBRO", 54, moves("WATER_GUN"))
    aerodactyl = fighter_of("AERODACTYL", 60, moves("BITE"))  # a flier, and faster
    duel = Duel(us=Side(members=(us,)), them=Side(members=(slowbro,), turns_out=1))
    accuracy = Bag(boosts={"X_ACCURACY": 1})
    assert sure_knock_out(us, slowbro) == 1 and sure_knock_out(us, aerodactyl) is None
    assert greedy(duel, accuracy) == UseItem("X_ACCURACY", 0, frozenset(), 0)
    sure = duel._replace(us=duel.us.with_fighter(us._replace(x_accuracy=True)))
    assert greedy(sure, accuracy) == Attack(1)  # FISSURE: one turn for any SLOWBRO
    assert greedy(duel, Bag()) == Attack(0)  # none held: SURF
    flier = duel._replace(them=Side(members=(aerodactyl,), turns_out=1))
    assert greedy(flier, accuracy) != UseItem("X_ACCURACY", 0, frozenset(), 0)


def test_x_accuracy_and_fissure_raise_the_chain() -> None:
    bosses = (*GAUNTLET, CHAMPION)
    state = team(member("BLASTOISE", 62, ("SURF", "ICE_BEAM", "FISSURE", "BODY_SLAM")))
    plain = gauntlet_forecast(holding(state, FULL_RESTORE=10), bosses, samples=24)
    sure = gauntlet_forecast(holding(state, FULL_RESTORE=10, X_ACCURACY=5), bosses, samples=24)
    assert plain is not None and sure is not None
    assert sum(sure.beaten) > sum(plain.beaten)
    print(f"with 5 X ACCURACY: {sure.words()}; without: {plain.words()}")
