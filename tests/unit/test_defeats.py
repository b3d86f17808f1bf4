"""A defeat changes the plan: the boss's next try waits for a better forecast, in one line that says what
changed and why; a battle that is no boss's changes nothing; training that stops moving the forecast is
not waited on for ever; and a snapshot keeps the raised bars."""

from __future__ import annotations

import logging

import pytest

from engine.game.models import BattleState, GameState
from engine.game.stats import raised
from engine.game.stock import gauntlet_stock
from engine.story.graph import GAUNTLET_KEY, StoryGraph, parse_graph
from engine.tactician.explorer import Explorer
from engine.tactician.pilot import (
    BAR_RAISE,
    FIRST_ENTRY_BAR,
    MAX_TRAINING,
    MAX_TRAINING_EXP,
    MAX_TRAINING_SECONDS,
    MAX_TRAINING_TOTAL_SECONDS,
    Pilot,
)
from engine.tactician.spots import TrainerSpot
from engine.team.gauntlet import PROJECTED_GAINS, levels_to, settled_forecast
from engine.team.planner import TeamPlanner, gauntlet
from engine.world.goals import HereGoal, Leg
from engine.world.world import World
from tests.support.tiny_world import INDOOR, TinyMap, build_world, person, state_at
from tests.unit.test_gauntlet import holding
from tests.unit.test_pilot import CENTER_ART, ROAD, in_town, world
from tests.unit.test_team import member, team


def graph() -> StoryGraph:
    return parse_graph({"objectives": [
        {"name": "beat_brock", "title": "beat Brock", "done": [["badge:BOULDER"]], "source": "test",
         "steps": [{"do": "train", "boss": ["BROCK", 1], "win_at": 0.7, "why": "rocks"},
                   {"do": "go", "map": "ROAD", "why": "the gym"}]},
    ]})  # fmt: skip


def pilot() -> Pilot:
    w = world()
    return Pilot(w, graph(), Explorer(w), stuck_legs=3, team=TeamPlanner())


def squirtle(level: int) -> GameState:
    return in_town(team(member("SQUIRTLE", level, ("TACKLE", "BUBBLE", "WATER_GUN"))))


def test_a_lost_boss_raises_the_bar_of_its_next_try_and_says_why() -> None:
    ready = squirtle(30)
    chance = graph().named("beat_brock").steps[0].forecast(ready)
    assert chance is not None and chance >= 0.7  # ready: the plan walks to the gym
    flown = pilot()
    leg = flown.leg(ready, "beat_brock")
    assert leg is not None and "go" in leg.reason
    line = flown.battle_ended("defeat", "BROCK #1", ready)
    assert line is not None and line.startswith("lost to BROCK #1")
    assert f"waits for L32 and {0.7 + BAR_RAISE:.0%}" in line  # the bar it was fought at, raised
    after = flown.leg(ready, "beat_brock")  # the same team is not tried again: it trains first
    assert after is not None and "train" in after.reason
    assert flown.leg(squirtle(32), "beat_brock").goal.model_dump().get("map_id") == ROAD  # type: ignore[union-attr]


def test_a_won_battle_changes_no_plan() -> None:
    flown = pilot()
    assert flown.battle_ended("victory", "BROCK #1", squirtle(10)) is None
    assert flown.battle_ended("victory", "BUG_CATCHER #3", squirtle(10)) is None
    assert flown.bars == {} and flown.catch_up == 0


def charmander(level: int) -> GameState:
    return in_town(team(member("CHARMANDER", level, ("SCRATCH", "GROWL"))))


def test_training_that_has_raised_the_strongest_member_long_enough_no_longer_waits_for_the_forecast() -> None:
    flown = pilot()
    leg = flown.leg(charmander(6), "beat_brock")
    assert leg is not None and "train" in leg.reason  # SCRATCH against rocks: hopeless
    grown = charmander(6 + MAX_TRAINING)
    chance = graph().named("beat_brock").steps[0].forecast(grown)
    assert chance is not None and chance < 0.7  # still short of the bar
    assert "train" in (flown.leg(charmander(6 + MAX_TRAINING - 1), "beat_brock") or leg).reason
    leg = flown.leg(grown, "beat_brock")
    assert leg is not None and leg.goal.model_dump().get("map_id") == ROAD  # trained long enough: go


def test_a_snapshot_keeps_the_bars_and_where_training_began() -> None:
    flown = pilot()
    flown.leg(charmander(6), "beat_brock")
    flown.battle_ended("defeat", "BROCK #1", charmander(6))
    restored = pilot()
    restored.restore(flown.snapshot())
    assert restored.bars == flown.bars and restored.bars
    assert restored.training_from == flown.training_from
    assert restored.floors == flown.floors == {"BROCK": 8}


def test_experience_is_wanted_while_the_next_boss_is_not_forecast_to_fall() -> None:
    flown = pilot()
    assert flown.wants_experience(charmander(10))  # BROCK's rocks: Charmander needs levels
    assert not pilot().wants_experience(squirtle(30))  # ready for BROCK: wild battles only cost time


def test_a_hunt_for_a_recruit_wants_its_encounters_whatever_the_boss_reads() -> None:
    """No REPEL while a recruit is looked for: Blue seed 139 used a MAX_REPEL 21 times during such a hunt."""
    from engine.team.changes import Recruit

    hunting = pilot()
    assert hunting.recruiting is not None
    hunting.recruiting.recruit = Recruit.model_construct(
        species="GEODUDE", level=8, map_id=1, map_name="X", share=0.2
    )
    assert hunting.wants_experience(squirtle(30))


def hurt(state: GameState, share: float) -> GameState:
    party = tuple(mon.model_copy(update={"hp": max(1, int(mon.max_hp * share))}) for mon in state.party)
    return state.model_copy(update={"party": party})


def test_a_heal_before_setting_out_is_not_walked_back_to_for_a_scratch() -> None:
    g = parse_graph({"objectives": [
        {"name": "reach_road", "title": "reach the road", "done": [["map:ROAD"]], "source": "test",
         "steps": [{"do": "heal", "on_the_way": True, "until": [["hp>=1.0"]], "why": "trainers ahead"},
                   {"do": "go", "map": "ROAD", "why": "it is there"}]},
    ]})  # fmt: skip
    w = world()
    flown = Pilot(w, g, Explorer(w), stuck_legs=3)
    scratched = hurt(squirtle(20), 0.9)
    first = flown.leg(scratched, "reach_road")
    assert first is not None and "heal" in first.reason  # not healed yet for this objective
    assert "go" in (flown.leg(squirtle(20), "reach_road") or first).reason  # healed: on its way
    again = flown.leg(scratched, "reach_road")
    assert again is not None and "go" in again.reason  # a scratch on the way: no walk back
    # A floor of the Pokémon Tower's worth of battles: still no walk back (it went back and forth 100 times).
    worn = flown.leg(hurt(squirtle(20), 0.6), "reach_road")
    assert worn is not None and "go" in worn.reason
    beaten = flown.leg(hurt(squirtle(20), 0.4), "reach_road")
    assert beaten is not None and "heal" in beaten.reason  # real damage: back to the nurse


def test_a_heal_before_a_boss_is_always_to_full_health() -> None:
    g = parse_graph({"objectives": [
        {"name": "reach_road", "title": "beat the boss on the road", "done": [["map:ROAD"]], "source": "test",
         "steps": [{"do": "heal", "until": [["hp>=1.0"]], "why": "full health before the gym"},
                   {"do": "go", "map": "ROAD", "why": "the boss"}]},
    ]})  # fmt: skip
    w = world()
    flown = Pilot(w, g, Explorer(w), stuck_legs=3)
    assert "go" in (flown.leg(squirtle(20), "reach_road") or Leg(goal=HereGoal())).reason
    scratched = flown.leg(hurt(squirtle(20), 0.9), "reach_road")
    assert scratched is not None and "heal" in scratched.reason


def test_a_bosss_heal_is_done_once_and_its_fights_see_to_a_fit_team() -> None:
    g = parse_graph({"objectives": [
        {"name": "beat_brock", "title": "beat Brock", "done": [["badge:BOULDER"]], "source": "test",
         "steps": [{"do": "train", "boss": ["BROCK", 1], "win_at": 0.7},
                   {"do": "heal", "until": [["hp>=1.0"]], "why": "full health before the hideout"},
                   {"do": "fight", "map": "ROAD", "why": "a Rocket by the door"},
                   {"do": "fight", "map": "ROAD", "why": "the boss behind it"}]},
    ]})  # fmt: skip
    w = world()
    flown = Pilot(w, g, Explorer(w), stuck_legs=3)
    first = flown.leg(hurt(squirtle(30), 0.9), "beat_brock")
    assert first is not None and "heal" in first.reason  # not healed yet for this objective
    assert "fight" in (flown.leg(squirtle(30), "beat_brock") or first).reason
    # The first fight left a scratch: on to the next one (it went back up the hideout's elevator for each).
    again = flown.leg(hurt(squirtle(30), 0.9), "beat_brock")
    assert again is not None and "fight" in again.reason and "not fit" not in again.reason
    # Worn below what a boss is fought with: the fight's own check sends the team to the nurse.
    worn = flown.leg(hurt(squirtle(30), 0.7), "beat_brock")
    assert worn is not None and "not fit" in worn.reason
    # Another objective in hand forgets the heal: back to full health first.
    fresh = Pilot(w, g, Explorer(w), stuck_legs=3).leg(hurt(squirtle(30), 0.9), "beat_brock")
    assert fresh is not None and "heal" in fresh.reason


def test_training_that_earned_enough_experience_no_longer_waits_either() -> None:
    flown = pilot()
    start = charmander(10)
    assert "train" in (flown.leg(start, "beat_brock") or Leg(goal=HereGoal())).reason
    party = tuple(mon.model_copy(update={"exp": mon.exp + MAX_TRAINING_EXP}) for mon in start.party)
    rich = start.model_copy(update={"party": party})
    leg = flown.leg(rich, "beat_brock")
    assert leg is not None and leg.goal.model_dump().get("map_id") == ROAD


def test_a_trainer_no_step_trains_for_asks_for_levels_before_going_on() -> None:
    flown = pilot()
    line = flown.battle_ended("defeat", "BROCK #2", charmander(10))  # not the boss the story trains for
    assert line is not None and "2 levels (to 12 in all) before going on" in line and flown.bars == {}
    leg = flown.leg(charmander(11), "beat_brock")
    assert leg is not None and leg.reason.startswith("after a defeat, train the party to 12 levels in all")
    assert not (flown.leg(charmander(12), "beat_brock") or leg).reason.startswith("after a defeat")


def test_the_levels_a_defeat_asks_for_are_trained_for_ten_minutes_of_game_time_at_most() -> None:
    from engine.tactician.pilot import MAX_CATCH_UP_SECONDS

    flown = pilot()
    flown.battle_ended("defeat", "BROCK #2", played(charmander(10), 600))
    leg = flown.leg(played(charmander(10), 600 + MAX_CATCH_UP_SECONDS), "beat_brock")
    assert leg is not None and leg.reason.startswith("after a defeat")  # still within its time
    later = flown.leg(played(charmander(11), 601 + MAX_CATCH_UP_SECONDS), "beat_brock")
    assert later is None or not later.reason.startswith("after a defeat")
    assert flown.catch_up == 0 and flown.snapshot().catch_up == 0  # it goes on, one level short
    flown.battle_ended("defeat", "BROCK #2", played(charmander(11), 2000))  # a new defeat: a new ten minutes
    leg = flown.leg(played(charmander(11), 2000 + MAX_CATCH_UP_SECONDS), "beat_brock")
    assert leg is not None and leg.reason.startswith("after a defeat")
    assert flown.snapshot().catch_up_since == 2000


def test_the_levels_a_defeat_asks_for_may_come_to_any_member() -> None:
    flown = pilot()
    strong, weak = charmander(30).party[0], charmander(10).party[0].model_copy(update={"slot": 1})
    two = charmander(30).model_copy(update={"party": (weak, strong)})
    flown.battle_ended("defeat", "BROCK #2", two)
    assert flown.wants_experience(two)
    # The lead trains: two levels of it are the two levels asked, the strongest member still at L30.
    trained = two.model_copy(update={"party": (raised(weak, 11), strong)})
    owed = flown.leg(trained, "beat_brock")  # one level of the two: still owed
    assert owed is not None and owed.reason.startswith("after a defeat"), owed
    trained = two.model_copy(update={"party": (raised(weak, 12), strong)})
    leg = flown.leg(trained, "beat_brock")
    assert leg is None or not leg.reason.startswith("after a defeat")
    assert flown.battle_ended("defeat", "PIDGEY", charmander(12)) is None  # a wild one: the whiteout's heal


def test_training_after_a_defeat_fights_wild_battles_and_is_never_counted_as_stuck() -> None:
    flown = pilot()
    ready = squirtle(30)  # BROCK forecast to fall: on its own, a wild battle only costs time
    assert not flown.wants_experience(ready)
    flown.battle_ended("defeat", "BROCK #2", ready)
    assert flown.wants_experience(ready)  # the defeat asked for L32: a wild battle is training now
    walked = ready.model_copy(
        update={"overworld": ready.overworld.model_copy(update={"x": ready.overworld.x + 1})}
    )
    for _ in range(10):  # three idle legs would be "stuck" here; training legs that walk never are
        leg = flown.leg(ready, "beat_brock")
        assert leg is not None and leg.reason.startswith("after a defeat"), leg.reason
        flown.travelled(ready, walked)
    assert flown.idle_legs == 0 and not flown.wants_experience(squirtle(32))
    for _ in range(3):  # a training walk that found no way at all is a leg lost: the pilot tries other ways
        flown.leg(ready, "beat_brock")
        flown.travelled(ready, ready)
    assert flown.idle_legs == 3 and flown.stage != "plan"


def fight_graph() -> StoryGraph:
    """BROCK trained for, then fought on the road (a `fight` step, which sees to a fit team)."""
    return parse_graph({"objectives": [
        {"name": "beat_brock", "title": "beat Brock", "done": [["badge:BOULDER"]], "source": "test",
         "steps": [{"do": "train", "boss": ["BROCK", 1], "win_at": 0.7},
                   {"do": "fight", "map": "ROAD", "why": "the gym"}]},
    ]})  # fmt: skip


def test_a_boss_is_fought_only_by_a_fit_team() -> None:
    g = fight_graph()
    w = world()
    flown = Pilot(w, g, Explorer(w), stuck_legs=3)
    ready = squirtle(30)
    assert "fight" in (flown.leg(ready, "beat_brock") or Leg(goal=HereGoal())).reason
    asleep = ready.model_copy(
        update={"party": tuple(m.model_copy(update={"status": "SLP"}) for m in ready.party)}
    )
    leg = flown.leg(asleep, "beat_brock")
    assert leg is not None and "not fit" in leg.reason  # no AWAKENING in the bag: the nurse
    # Full HP, but the PP of its water moves spent on the gym's trainers: the forecast the plan waited
    # for counted on them, so the nurse first too.
    young = squirtle(14)  # sure to win healed; with TACKLE alone against rocks, sure to lose
    dry = tuple(
        mon.model_copy(update={"moves": tuple(
            slot.model_copy(update={"pp": 0}) if slot.name != "TACKLE" else slot for slot in mon.moves
        )})
        for mon in young.party
    )  # fmt: skip
    assert "fight" in (Pilot(w, g, Explorer(w), stuck_legs=3).leg(young, "beat_brock") or leg).reason
    leg = Pilot(w, g, Explorer(w), stuck_legs=3).leg(young.model_copy(update={"party": dry}), "beat_brock")
    assert leg is not None and "not fit" in leg.reason, leg.reason


def test_a_plan_that_moves_nothing_on_for_so_long_stops_with_its_reason(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import engine.tactician.pilot as pilot_module

    monkeypatch.setattr(pilot_module, "MAX_IDLE", 5)
    flown = pilot()
    state = charmander(6)
    for _ in range(6):
        leg = flown.leg(state, "beat_brock")
        assert leg is not None and leg.stop is None
        flown.travelled(state, state)
    stop = flown.leg(state, "beat_brock")
    assert stop is not None and stop.stop is not None and "nothing moved on in 5 legs" in stop.stop
    flown.travelled(state, charmander(7))  # a level gained: the play moves on again
    assert (flown.leg(charmander(7), "beat_brock") or stop).stop is None


def test_an_hour_of_game_time_that_moves_nothing_on_stops_the_run_too() -> None:
    flown = pilot()

    def at(clock: str) -> GameState:
        state = charmander(6)
        return state.model_copy(update={"progress": state.progress.model_copy(update={"play_time": clock})})

    flown.travelled(at("0:10:00"), charmander(7).model_copy(update={"progress": at("0:10:00").progress}))
    for clock in ("0:40:00", "1:09:00"):
        flown.travelled(at(clock), at(clock).model_copy(update={"party": charmander(7).party}))
        leg = flown.leg(at(clock), "beat_brock")
        assert leg is not None and leg.stop is None  # a few legs, under an hour
    flown.travelled(at("1:10:00"), at("1:10:00").model_copy(update={"party": charmander(7).party}))
    stop = flown.leg(at("1:10:00"), "beat_brock")
    assert stop is not None and stop.stop is not None and "60 minutes of game time" in stop.stop


def nurse_behind_pewters_guard(floor_name: str) -> World:
    """A floor (named `floor_name`) whose door leads to a town named after Pewter City, whose only way to
    its Pokémon Center is the east exit pret's PewterCityCheckPlayerLeavingEastScript guards."""
    floor_id, town_id, center_id = 0x30, 2, 3
    art = ["#" * 40 for _ in range(22)]
    art[16] = "#D" + "#" * 35 + "D" + "##"  # doors are walked into going up
    art[17] = "#" + "." * 37 + "##"
    town = TinyMap(town_id, "PEWTER_CITY", art, warps=[(1, 16, floor_id, 0), (37, 16, center_id, 0)])
    # 16 squares a side: room for the block Victory Road 1F's switch swaps in (world/tables OPENED_BLOCKS).
    floor_art = ["#D" + "#" * 14, *("#" + "." * 14 + "#" for _ in range(14)), "#" * 16]
    floor = TinyMap(floor_id, floor_name, floor_art, tileset=INDOOR, warps=[(1, 0, town_id, 0)])
    center = TinyMap(center_id, "PEWTER_POKECENTER", CENTER_ART, tileset=INDOOR, warps=[(1, 4, town_id, 1)],
                     objects=(person(1, 2, 1),))  # fmt: skip
    return build_world(floor, town, center)


def test_on_victory_roads_floors_a_nurse_only_a_closed_gate_leads_to_is_no_nurse() -> None:
    for name, heals in (("CAVE", True), ("VICTORY_ROAD_1F", False)):
        w = nurse_behind_pewters_guard(name)
        flown = Pilot(w, graph(), Explorer(w), stuck_legs=3)
        worn = state_at(hurt(charmander(20), 0.2), 0x30, 3, 3)
        leg = flown.leg(worn, "beat_brock")
        assert leg is not None and ("heal first" in leg.reason) is heals, (name, leg.reason)


def test_a_team_that_wants_no_experience_walks_out_of_trainers_eyes() -> None:
    ready = pilot().leg(squirtle(30), "beat_brock")  # BROCK forecast to fall: a battle on the way is waste
    assert ready is not None and "go" in ready.reason and ready.intent == "pass"
    # The walk to a trainer to fight is no walk past one.
    g = fight_graph()
    w = world()
    fight = Pilot(w, g, Explorer(w), stuck_legs=3).leg(squirtle(30), "beat_brock")
    assert fight is not None and "fight" in fight.reason and fight.intent == "travel"


def test_training_whose_forecast_still_rises_gets_a_new_budget_and_stops_once_it_does_not() -> None:
    flown = pilot()
    assert "train" in (flown.leg(charmander(12), "beat_brock") or Leg(goal=HereGoal())).reason  # 0%
    risen = charmander(12 + MAX_TRAINING)  # 56% now: the budget is spent, but the levels paid
    leg = flown.leg(risen, "beat_brock")
    assert leg is not None and "train" in leg.reason
    assert flown.training_from["BROCK"] == 12 + MAX_TRAINING and flown.training_chance["BROCK"] > 0.5
    party = tuple(mon.model_copy(update={"exp": mon.exp + MAX_TRAINING_EXP}) for mon in risen.party)
    flat = risen.model_copy(update={"party": party})  # a second budget spent without a level: no rise
    leg = flown.leg(flat, "beat_brock")
    assert leg is not None and leg.goal.model_dump().get("map_id") == ROAD
    restored = pilot()
    restored.restore(flown.snapshot())
    assert restored.training_chance == flown.training_chance and restored.latest_chance


def dry(state: GameState, pp: int) -> GameState:
    mon = state.party[0]
    moves = tuple(slot.model_copy(update={"pp": pp}) for slot in mon.moves)
    return state.model_copy(update={"party": (mon.model_copy(update={"moves": moves}),)})


def test_a_strongest_member_whose_attacks_ran_dry_sees_a_nurse_before_the_next_fight() -> None:
    flown = pilot()
    ready = squirtle(30)
    assert "go" in (flown.leg(dry(ready, 5), "beat_brock") or Leg(goal=HereGoal())).reason  # 15 uses left
    leg = flown.leg(dry(ready, 0), "beat_brock")  # full HP, but only STRUGGLE
    assert leg is not None and "heal first: SQUIRTLE's attacks have run dry" in leg.reason
    abra = in_town(
        team(member("ABRA", 30, ("TELEPORT",)))
    )  # nothing to run dry: no endless walk to the nurse
    assert "heal" not in (flown.leg(dry(abra, 0), "beat_brock") or Leg(goal=HereGoal())).reason


def gauntlet_graph() -> StoryGraph:
    return parse_graph({"objectives": [
        {"name": "beat_the_league", "title": "beat the league", "done": [["badge:BOULDER"]], "source": "test",
         "steps": [{"do": "train", "boss": ["LORELEI", 1], "gauntlet": True, "win_at": 0.7,
                    "why": "five in a row"},
                   {"do": "go", "map": "ROAD", "why": "the plateau"}]},
    ]})  # fmt: skip


def blastoise(level: int, exp: int = 0) -> GameState:
    state = holding(team(member("BLASTOISE", level, ("SURF", "BLIZZARD", "EARTHQUAKE", "BODY_SLAM"))),
                    FULL_RESTORE=16, X_SPECIAL=6)  # fmt: skip
    mon = state.party[0]
    return in_town(state).model_copy(update={"party": (mon.model_copy(update={"exp": mon.exp + exp}),)})


def test_a_flat_gauntlet_budget_trains_on_to_the_level_a_projection_reaches_the_bar_at() -> None:
    w = world()
    flown = Pilot(w, gauntlet_graph(), Explorer(w), stuck_legs=3)
    first = flown.leg(blastoise(60), "beat_the_league")
    assert first is not None and "train" in first.reason and "to finish the Elite Four" in first.reason
    flat = blastoise(60, exp=MAX_TRAINING_EXP)  # a budget spent, the forecast where it was (below 50%)
    gain = levels_to(flat, gauntlet(flat), FIRST_ENTRY_BAR, gauntlet_stock(flat))
    assert gain is not None and gain in PROJECTED_GAINS
    leg = flown.leg(flat, "beat_the_league")
    assert (
        leg is not None and "train" in leg.reason and f"L{60 + gain} reaches it by projection" in leg.reason
    )
    assert flown.projected[GAUNTLET_KEY] == 60 + gain
    restored = Pilot(w, gauntlet_graph(), Explorer(w), stuck_legs=3)
    restored.restore(flown.snapshot())
    assert restored.projected == flown.projected
    there = flown.leg(blastoise(60 + gain, exp=MAX_TRAINING_EXP), "beat_the_league")
    assert there is not None and there.goal.model_dump().get("map_id") == ROAD


def test_a_flat_gauntlet_budget_no_projected_level_rescues_enters_the_chain_as_before() -> None:
    w = world()
    flown = Pilot(w, gauntlet_graph(), Explorer(w), stuck_legs=3)
    assert "train" in (flown.leg(blastoise(46), "beat_the_league") or Leg(goal=HereGoal())).reason
    leg = flown.leg(blastoise(46, exp=MAX_TRAINING_EXP), "beat_the_league")  # L62 is below 50%: no rescue
    assert leg is not None and leg.goal.model_dump().get("map_id") == ROAD
    assert flown.projected[GAUNTLET_KEY] == 0
    lost = flown.battle_ended("defeat", "LANCE #1", blastoise(46, exp=MAX_TRAINING_EXP))
    assert lost is not None and GAUNTLET_KEY not in flown.projected  # the next budget may project again


def test_a_lost_gauntlet_keeps_its_bar_and_waits_for_two_more_levels() -> None:
    w = world()
    flown = Pilot(w, gauntlet_graph(), Explorer(w), stuck_legs=3)
    lost = flown.battle_ended("defeat", "LANCE #1", blastoise(64))
    assert lost is not None and "waited for a forecast of 50%" in lost
    assert "the next try waits for L66 and 50%" in lost
    assert flown.bars[GAUNTLET_KEY] == FIRST_ENTRY_BAR  # a boss's bar rises ten points; the chain's holds


def test_a_training_leg_that_meets_its_battle_is_never_counted_as_stuck() -> None:
    flown = pilot()
    weak = charmander(10)  # far below BROCK's bar: the step trains
    fighting = weak.model_copy(update={"battle": BattleState.model_construct(kind="trainer")})
    for _ in range(10):
        leg = flown.leg(weak, "beat_brock")
        assert leg is not None and "train" in leg.reason
        flown.travelled(weak, fighting)  # each walk ended where a trainer saw the player
    assert flown.idle_legs == 0
    for _ in range(3):
        flown.leg(weak, "beat_brock")
        flown.travelled(weak, weak)  # a walk that went nowhere and met no one is a leg lost
    assert flown.idle_legs == 3


def stocked(level: int, **boosts: int) -> GameState:
    state = holding(team(member("BLASTOISE", level, ("SURF", "BLIZZARD", "EARTHQUAKE", "BODY_SLAM"))),
                    FULL_RESTORE=16, **boosts)  # fmt: skip
    return in_town(state)


def test_the_gauntlets_first_entry_waits_for_half_and_a_retry_for_the_same_bar_two_levels_on() -> None:
    w = world()
    flown = Pilot(w, gauntlet_graph(), Explorer(w), stuck_legs=3)
    even = stocked(65, X_SPECIAL=5)  # 61%: over the first entry's bar, under the step's 70%
    chance = settled_forecast(even, gauntlet(even), gauntlet_stock(even))
    assert chance is not None and FIRST_ENTRY_BAR <= chance.chance < 0.7
    leg = flown.leg(even, "beat_the_league")
    assert leg is not None and leg.goal.model_dump().get("map_id") == ROAD
    flown.battle_ended("defeat", "LANCE #1", even)
    assert flown.bars[GAUNTLET_KEY] == FIRST_ENTRY_BAR
    leg = flown.leg(stocked(66, X_SPECIAL=5), "beat_the_league")
    assert leg is not None and "train" in leg.reason and "L67" in leg.reason  # two levels on first
    leg = flown.leg(stocked(67, X_SPECIAL=5), "beat_the_league")  # over half: not held for the step's 70%
    assert leg is not None and leg.goal.model_dump().get("map_id") == ROAD


def played(state: GameState, seconds: int) -> GameState:
    clock = f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"
    return state.model_copy(update={"progress": state.progress.model_copy(update={"play_time": clock})})


def test_a_training_budget_ends_after_its_game_time_even_without_levels_or_experience() -> None:
    """A lone fighter far above the grass earns a level in many battles: the clock bounds the budget."""
    flown = pilot()
    start = 2 * 3600
    assert "train" in (flown.leg(played(charmander(12), start), "beat_brock") or Leg(goal=HereGoal())).reason
    almost = flown.leg(played(charmander(12), start + MAX_TRAINING_SECONDS - 60), "beat_brock")
    assert almost is not None and "train" in almost.reason  # the budget still runs
    spent = flown.leg(played(charmander(12), start + MAX_TRAINING_SECONDS), "beat_brock")
    assert spent is not None and spent.goal.model_dump().get("map_id") == ROAD  # flat forecast: go
    restored = pilot()
    restored.restore(flown.snapshot())
    assert restored.training_clock == flown.training_clock == {"BROCK": start}


def test_a_rising_forecast_renews_budgets_only_until_the_bars_total_game_time_is_spent(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="engine.tactician")
    flown = pilot()
    start, renewed = 3600, 3600 + MAX_TRAINING_TOTAL_SECONDS * 2 // 3
    flown.leg(played(charmander(12), start), "beat_brock")
    # 0% to 56% over the budget's levels: a new budget, which has not run out when the bar's time has.
    risen = played(charmander(12 + MAX_TRAINING), renewed)
    leg = flown.leg(risen, "beat_brock")
    assert leg is not None and "train" in leg.reason
    assert flown.training_clock["BROCK"] == renewed and flown.training_began["BROCK"] == start
    late = played(charmander(12 + MAX_TRAINING), start + MAX_TRAINING_TOTAL_SECONDS - 60)
    assert "train" in (flown.leg(late, "beat_brock") or Leg(goal=HereGoal())).reason  # the new budget runs
    done = played(charmander(12 + MAX_TRAINING), start + MAX_TRAINING_TOTAL_SECONDS)
    leg = flown.leg(done, "beat_brock")
    assert leg is not None and leg.goal.model_dump().get("map_id") == ROAD  # the bar's half hour is spent: go
    said = [r.getMessage() for r in caplog.records if "trained for BROCK" in r.getMessage()]
    assert len(said) == 1 and "fought as the team is" in said[0]
    flown.leg(done, "beat_brock")
    assert len([r for r in caplog.records if "minutes of game time trained" in r.getMessage()]) == 1  # once


def test_a_defeat_starts_the_bars_game_time_again_and_its_levels_cap_it_too() -> None:
    flown = pilot()
    flown.leg(played(charmander(12), 3600), "beat_brock")
    flown.battle_ended("defeat", "BROCK #1", played(charmander(12), 3600 + MAX_TRAINING_TOTAL_SECONDS))
    assert "BROCK" not in flown.training_began  # a new bar: its time counts from the next training leg
    after = played(charmander(12), 3600 + MAX_TRAINING_TOTAL_SECONDS + 10)
    assert "train" in (flown.leg(after, "beat_brock") or Leg(goal=HereGoal())).reason  # L14 first
    capped = played(charmander(12), 3600 + 2 * MAX_TRAINING_TOTAL_SECONDS + 10)
    leg = flown.leg(capped, "beat_brock")
    assert leg is not None and leg.goal.model_dump().get("map_id") == ROAD  # not even the floor holds on


def test_a_spent_gauntlet_budget_held_only_by_a_defeats_level_enters_without_a_projection() -> None:
    """Red seed 126 lost to the Champion, read 84% after restocking, trained 15 minutes for the two levels
    the defeat asked, and then a projection sent it on to L69 for a bar it already met: 36 minutes in all."""
    w = world()
    flown = Pilot(w, gauntlet_graph(), Explorer(w), stuck_legs=3)
    ready = blastoise(72)  # 96%: over the 70% bar
    flown.floors[GAUNTLET_KEY] = 74  # what a defeat at L72 asks
    leg = flown.leg(ready, "beat_the_league")
    assert leg is not None and "train" in leg.reason and "training until L74" in leg.reason
    spent = blastoise(72, exp=MAX_TRAINING_EXP)
    leg = flown.leg(spent, "beat_the_league")
    assert leg is not None and leg.goal.model_dump().get("map_id") == ROAD  # the budget is spent: enter
    assert flown.projected.get(GAUNTLET_KEY, 0) == 0


def test_a_forecast_that_rose_past_the_bar_earns_no_new_budget_for_a_defeats_levels() -> None:
    """Blue seed 124 trained half an hour for the two levels Route 22's rival asked, its forecast 58% to
    94% against 60%: each budget the rising forecast renewed held the fight back."""
    flown = pilot()
    line = flown.battle_ended("defeat", "BROCK #1", charmander(24))
    assert line is not None and "L26 and 80%" in line
    assert "train" in (flown.leg(charmander(24), "beat_brock") or Leg(goal=HereGoal())).reason  # 56%
    risen = charmander(25)  # 99% now, L25 under the L26 the defeat asked
    party = tuple(mon.model_copy(update={"exp": mon.exp + MAX_TRAINING_EXP}) for mon in risen.party)
    leg = flown.leg(risen.model_copy(update={"party": party}), "beat_brock")
    assert leg is not None and leg.goal.model_dump().get("map_id") == ROAD  # the budget is spent: fight


class OneTrainerNear:
    """Spots with one unbeaten trainer worth more than the grass: on `map_id`, object 3."""

    def __init__(self, map_id: int) -> None:
        self.hunt = TrainerSpot(leg=Leg(goal=HereGoal(), reason="fight BUG_CATCHER #5 for experience"),
                                exp_per_frame=0.11, trainer="BUG_CATCHER #5", key=(map_id, 3))  # fmt: skip

    def trainer(self, state: GameState) -> TrainerSpot:
        return self.hunt

    def rate(self, state: GameState) -> float:
        return 0.05

    def best(self, state: GameState, avoid: frozenset[int] = frozenset()) -> None:
        return None  # no grass known: the explorer's nearest


def test_after_losing_to_a_trainer_the_levels_are_not_sought_from_another_on_the_same_map() -> None:
    """Blue seed 172 lost to YOUNGSTER #1 on Route 3 and was sent to a BUG CATCHER further along it: it met
    the youngster again on the way, three times."""
    flown = pilot()
    weak = charmander(10)
    flown.battle_ended("defeat", "YOUNGSTER #1", weak)
    flown.spots = OneTrainerNear(weak.overworld.map_id)  # type: ignore[assignment]
    leg = flown.leg(weak, "beat_brock")
    assert leg is not None and leg.reason.startswith("after a defeat") and "BUG_CATCHER" not in leg.reason
    flown.spots = OneTrainerNear(weak.overworld.map_id + 1)  # type: ignore[assignment]
    leg = flown.leg(weak, "beat_brock")
    assert leg is not None and "fight BUG_CATCHER #5" in leg.reason  # another map's trainer is fine
