"""Catch where a species fills a gap: a wild species near at hand that brings the next boss within reach is
proposed (a DIGLETT against LT_SURGE) and looked for on its map until it joins, a useless one is not, and
nothing is proposed with a full party, no ball or a boss already within reach."""

from __future__ import annotations

from engine.combat.position import forecast
from engine.game.models import BagItem, GameState
from engine.game.tables import game_data
from engine.story.graph import Step, parse_graph
from engine.tactician.explorer import Explorer
from engine.tactician.recruiting import MAX_LEGS, MAX_SECONDS, Recruiting
from engine.team.recruits import MAX_FRAMES_TO_MEET, MIN_RISE, frames_to_meet, recruits_for, wild_member
from engine.world.models import WildTable
from engine.world.world import World
from tests.support.tiny_world import INDOOR, TinyMap, build_world, state_at
from tests.unit.test_team import member, team

TOWN, CAVE = 1, 0x30  # the cave an indoor map: wild Pokémon on every floor square
ART = ("#" * 8, *("#......#" for _ in range(6)), "#" * 8)


def world(cave_name: str = "CAVE", slots: tuple[tuple[int, str], ...] | None = None) -> World:
    town = TinyMap(TOWN, "TOWN", ["#D" + ART[0][2:], *ART[1:]], warps=[(1, 0, CAVE, 0)])
    cave = TinyMap(CAVE, cave_name, ["#D" + ART[0][2:], *ART[1:]], tileset=INDOOR, warps=[(1, 0, TOWN, 0)])
    w = build_world(town, cave)
    w.wild = {CAVE: WildTable(rate=20, slots=slots or ((22, "DIGLETT"),) * 9 + ((8, "RATTATA"),))}
    return w


def surge(state: GameState) -> float | None:
    return forecast(state, "LT_SURGE", 1, healed=True)


def surge_step() -> Step:
    """A story step that trains for LT_SURGE (the recruit's boss)."""
    return parse_graph({"objectives": [
        {"name": "beat_surge", "title": "beat Surge", "done": [["badge:THUNDER"]], "source": "test",
         "steps": [{"do": "train", "boss": ["LT_SURGE", 1], "win_at": 0.7}, {"do": "go", "map": "TOWN"}]},
    ]}).named("beat_surge").steps[0]  # fmt: skip


def weak(*extra: BagItem, size: int = 2) -> GameState:
    fighters = [member("WARTORTLE", 22, ("BITE", "WATER_GUN", "WITHDRAW", "TAIL_WHIP")),
                member("PIDGEY", 9, ("GUST",), slot=1)]  # fmt: skip
    members = fighters + [member("RATTATA", 5, ("TACKLE",), slot=at) for at in range(2, size)]
    base = team(*members)
    balls = (BagItem(item_id=game_data().item_ids["POKE_BALL"], name="POKE_BALL", quantity=3), *extra)
    return state_at(base.model_copy(update={"bag": balls}), TOWN, 3, 3)


def test_a_species_that_brings_the_boss_within_reach_is_proposed_and_a_useless_one_is_not() -> None:
    found = recruits_for(weak(), world(), {TOWN, CAVE}, surge, 0.7)
    assert [r.species for r in found] == ["DIGLETT"]  # a RATTATA fills no gap
    assert found[0].after >= 0.7 > found[0].before and found[0].map_id == CAVE
    assert "DIGLETT" in found[0].reason and "→" in found[0].reason


def test_nothing_is_proposed_with_a_full_party_no_ball_or_the_boss_within_reach() -> None:
    assert recruits_for(weak(size=6), world(), {CAVE}, surge, 0.7) == []
    no_balls = weak().model_copy(update={"bag": ()})
    assert recruits_for(no_balls, world(), {CAVE}, surge, 0.7) == []
    ready = weak().model_copy(update={"party": (*weak().party, wild_member("DIGLETT", 22))})
    assert recruits_for(ready, world(), {CAVE}, surge, 0.7) == []


def test_the_recruit_is_looked_for_on_its_map_until_it_joins_or_for_so_long() -> None:
    boss = surge_step()
    w = world()
    recruiting = Recruiting(w, Explorer(w))
    leg = recruiting.leg(weak(), boss, None)
    assert leg is not None and leg.reason.startswith("recruit: catch a DIGLETT")
    assert recruiting.species() == "DIGLETT"
    joined = weak().model_copy(update={"party": (*weak().party, wild_member("DIGLETT", 22))})
    assert recruiting.leg(joined, boss, None) is None and recruiting.species() is None
    again = Recruiting(w, Explorer(w))
    legs = [again.leg(weak(), boss, None) for _ in range(MAX_LEGS + 1)]
    assert all(legs[:MAX_LEGS]) and legs[MAX_LEGS] is None  # given up, and not proposed again for this boss


def test_no_recruit_is_looked_for_on_the_seafoam_islands_whose_holes_drop_one_way() -> None:
    # Blue seed 34 went in for a SLOWBRO, fell to B4F and found no walk out.
    boss = surge_step()
    for name, looked_for in (("CAVE", True), ("SEAFOAM_ISLANDS_1F", False)):
        w = world(name)
        assert (Recruiting(w, Explorer(w)).leg(weak(), boss, None) is not None) is looked_for, name


def test_a_species_met_too_rarely_is_not_worth_looking_for() -> None:
    """DIGLETT in the last slot only (3 of 256 encounters): about 118,000 frames before one appears."""
    rare = world(slots=((8, "RATTATA"),) * 9 + ((22, "DIGLETT"),))
    common = world(slots=((22, "DIGLETT"),) * 2 + ((8, "RATTATA"),) * 8)
    assert frames_to_meet(rare.wild[CAVE], 3 / 256) > MAX_FRAMES_TO_MEET
    assert frames_to_meet(common.wild[CAVE], 102 / 256) < MAX_FRAMES_TO_MEET
    assert recruits_for(weak(), rare, {CAVE}, surge, 0.7) == []
    assert [r.species for r in recruits_for(weak(), common, {CAVE}, surge, 0.7)] == ["DIGLETT"]


def test_a_recruit_is_given_up_when_the_balls_run_out() -> None:
    boss = surge_step()
    w = world()
    recruiting = Recruiting(w, Explorer(w))
    assert recruiting.leg(weak(), boss, None) is not None and recruiting.species() == "DIGLETT"
    thrown = weak().model_copy(update={"bag": ()})
    assert recruiting.leg(thrown, boss, None) is None and recruiting.species() is None
    assert "no ball left" in recruiting.note


def at_clock(state: GameState, seconds: int) -> GameState:
    clock = f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"
    return state.model_copy(update={"progress": state.progress.model_copy(update={"play_time": clock})})


def test_a_recruit_is_given_up_when_the_game_clock_spent_on_it_runs_out() -> None:
    """Other legs between the hunt's count too: the clock runs from the choice."""
    boss = surge_step()
    w = world()
    recruiting = Recruiting(w, Explorer(w))
    assert recruiting.leg(at_clock(weak(), 3600), boss, None) is not None
    assert recruiting.leg(at_clock(weak(), 3600 + MAX_SECONDS - 1), boss, None) is not None
    restored = Recruiting(w, Explorer(w))
    restored.restore(recruiting.snapshot())  # a checkpoint keeps the hunt's start
    for hunt in (recruiting, restored):
        assert hunt.leg(at_clock(weak(), 3600 + MAX_SECONDS), boss, None) is None and hunt.species() is None
        assert f"{MAX_SECONDS} s of play" in hunt.note


def test_a_recruit_that_reaches_the_bar_by_a_few_points_is_not_worth_looking_for() -> None:
    """The bar set just under what the DIGLETT brings: reached, but by less than MIN_RISE over today's."""
    before = surge(weak())
    after = surge(weak().model_copy(update={"party": (*weak().party, wild_member("DIGLETT", 22))}))
    assert before is not None and after is not None and after >= before + MIN_RISE
    assert [r.species for r in recruits_for(weak(), world(), {CAVE}, surge, after)] == ["DIGLETT"]

    def nearly(state: GameState) -> float | None:  # the same boss, the recruit's gain squeezed under MIN_RISE
        found = surge(state)
        return None if found is None else min(found, before + MIN_RISE / 2)

    assert recruits_for(weak(), world(), {CAVE}, nearly, before + MIN_RISE / 4) == []
