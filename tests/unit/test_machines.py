"""The TM planner: a TM is taught where it raises the team's potential against the bosses ahead, to the
member it helps most, over the move that matters least (never an HM's), and a TM in the PC is flagged to
be taken out first; a TM that helps no one, or that no member can learn, is left alone."""

from __future__ import annotations

from engine.game.models import BagItem, PartyMon
from engine.game.stats import computed_stats
from engine.game.tables import game_data
from engine.team.machines import SATURATED, MachinePlanner, _taught
from engine.team.planner import GAUNTLET
from tests.unit.test_team import member, team

CHAIN = (*GAUNTLET, ("RIVAL3", 2))


def trained(species: str, level: int, moves: tuple[str, ...]) -> PartyMon:
    """A member as a long journey leaves it: its stat experience well up (the game's forecasts weigh it)."""
    mon = member(species, level, moves).model_copy(update={"stat_exp": (25_000,) * 5})
    max_hp, stats = computed_stats(game_data().species_by_name[species], level, mon.dvs, mon.stat_exp)
    return mon.model_copy(update={"max_hp": max_hp, "hp": max_hp, "stats": stats})


def with_pc(state, *items: str):  # type: ignore[no-untyped-def]
    stored = tuple(BagItem(item_id=game_data().item_ids[name], name=name, quantity=1) for name in items)
    return state.model_copy(update={"pc_items": stored})


def test_a_tm_that_fills_a_gap_against_the_gauntlet_is_taught_over_the_weakest_move() -> None:
    blastoise = trained("BLASTOISE", 58, ("SURF", "HYDRO_PUMP", "SKULL_BASH", "STRENGTH"))
    state = team(blastoise, bag=("TM_BLIZZARD",))
    lesson = MachinePlanner().lesson(state, CHAIN)
    assert lesson is not None
    assert (lesson.item, lesson.move, lesson.member, lesson.in_pc) == ("TM_BLIZZARD", "BLIZZARD", 0, False)
    assert lesson.forgotten != "STRENGTH"  # an HM's move is never forgotten
    assert lesson.after >= lesson.before + 0.02
    assert "BLIZZARD" in lesson.reason and "→" in lesson.reason


def test_a_tm_in_the_pc_is_proposed_to_be_taken_out() -> None:
    blastoise = trained("BLASTOISE", 58, ("SURF", "HYDRO_PUMP", "SKULL_BASH", "STRENGTH"))
    lesson = MachinePlanner().lesson(with_pc(team(blastoise), "TM_BLIZZARD"), CHAIN)
    assert lesson is not None and lesson.in_pc and lesson.item == "TM_BLIZZARD"


def test_a_tm_no_member_can_learn_or_that_adds_nothing_is_left_alone() -> None:
    pidgeot = trained("PIDGEOT", 50, ("WING_ATTACK", "QUICK_ATTACK", "FLY", "SAND_ATTACK"))
    assert MachinePlanner().lesson(team(pidgeot, bag=("TM_BLIZZARD",)), CHAIN) is None  # cannot learn it
    strong = trained("BLASTOISE", 58, ("SURF", "BLIZZARD", "EARTHQUAKE", "STRENGTH"))
    assert MachinePlanner().lesson(team(strong, bag=("TM_TELEPORT",)), CHAIN) is None
    assert MachinePlanner().lesson(team(strong), CHAIN) is None  # no TM at all


def test_the_potential_weighs_moves_and_species_not_todays_levels() -> None:
    planner = MachinePlanner()
    low = team(trained("BLASTOISE", 40, ("SURF", "BLIZZARD", "EARTHQUAKE", "STRENGTH")))
    high = team(trained("BLASTOISE", 55, ("SURF", "BLIZZARD", "EARTHQUAKE", "STRENGTH")))
    # Raised to each boss's top level, the same species and moves weigh the same whatever the level now.
    assert planner.potential(low, low.party, CHAIN) == planner.potential(high, high.party, CHAIN)


def rival_chose(state, starter: str):  # type: ignore[no-untyped-def]
    return state.model_copy(update={"story": state.story.model_copy(update={"rival_starter": starter})})


def test_the_gauntlet_is_weighed_at_its_strongest_level_with_the_lobbys_stock() -> None:
    # Weighed at the first room's level with the bag of today (no potion), every chain of a strong team was
    # lost early: its potential was 0.013, and a FISSURE's lucky knock-outs looked worth WATER GUN's place.
    # With the lobby's stock and a few X ACCURACYs, FISSURE is sure against every foe not faster than
    # BLASTOISE: it takes DIG's place (Ground as FISSURE is), not a water move's.
    blastoise = trained("BLASTOISE", 50, ("HYDRO_PUMP", "DIG", "SURF", "WATER_GUN"))
    state = rival_chose(team(blastoise, bag=("TM_FISSURE",)), "BULBASAUR")
    potential = MachinePlanner().potential(state, state.party, CHAIN)
    assert potential is not None and potential > 0.3
    lesson = MachinePlanner().lesson(state, CHAIN)
    assert lesson is not None and (lesson.move, lesson.forgotten) == ("FISSURE", "DIG")


def test_the_potential_counts_the_bags_battle_items() -> None:
    # The forecasts drink the bag's potions: the same team with a HYPER_POTION is no cached bare team.
    planner = MachinePlanner()
    wartortle = trained("WARTORTLE", 30, ("BITE", "BUBBLE", "WATER_GUN", "TACKLE"))
    bare, rich = team(wartortle), team(wartortle, bag=("HYPER_POTION",))
    sabrina = (("SABRINA", 1),)
    without = planner.potential(bare, bare.party, sabrina)
    with_potion = planner.potential(rich, rich.party, sabrina)
    assert without is not None and with_potion is not None and with_potion > without


def test_a_saturated_potential_still_teaches_a_one_hit_knock_out_move_for_x_accuracy() -> None:
    """Red 50's case: X items in the bag make every lesson weigh about the same near 100%; FISSURE goes to
    the strongest fighter in place of its least useful move (the X ACCURACYs follow, team/boosts.py)."""
    blastoise = trained("BLASTOISE", 54, ("BODY_SLAM", "SURF", "STRENGTH", "ICE_BEAM"))
    state = rival_chose(team(blastoise, bag=("TM_FISSURE",)), "BULBASAUR")
    ids = game_data().item_ids
    rich = tuple(BagItem(item_id=ids[name], name=name, quantity=n)
                 for name, n in (("TM_FISSURE", 1), ("X_SPECIAL", 12), ("X_ATTACK", 9)))  # fmt: skip
    saturated = state.model_copy(update={"bag": rich})
    planner = MachinePlanner()
    before = planner.potential(saturated, saturated.party, CHAIN)
    assert before is not None and before >= SATURATED
    lesson = planner.lesson(saturated, CHAIN)
    assert lesson is not None and lesson.move == "FISSURE" and lesson.forgotten in ("BODY_SLAM", "ICE_BEAM")
    assert "sure under X ACCURACY" in lesson.reason
    knows = saturated.model_copy(update={"party": (_taught(blastoise, "FISSURE", 0),)})
    assert planner.lesson(knows, CHAIN) is None  # one is enough
