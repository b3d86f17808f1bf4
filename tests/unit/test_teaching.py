"""Teaching a TM or HM: who learns it (compatibility from the species' lists), which move makes room (the
least useful, never an HM), the story's conditions on it, the pilot's leg, and catching only a species that
can learn it."""

from __future__ import annotations

from engine.game.actions import legal_actions
from engine.game.models import GameState, MoveSlot, PartyMon, Stats
from engine.game.tables import game_data
from engine.game.teaching import can_learn, choose_student, level_up_room, machine_move, move_values
from engine.story.conditions import holds
from engine.tactician.catching import catch_decision
from engine.world.goals import HereGoal, Leg, Teach
from tests.support.tiny_world import overworld_state
from tests.unit.test_actions_and_policy import fixture_state
from tests.unit.test_catching import with_balls

PALLET = overworld_state()


def member(species: str, level: int, *moves: str) -> PartyMon:
    data = game_data()
    entry = data.species_by_name[species]
    types = [data.types_by_name[name] for name in entry.types]
    slots = tuple(MoveSlot(move_id=data.moves_by_name[m].id, name=m, pp=10, pp_ups=0) for m in moves)
    return PartyMon(
        species_id=entry.index, species_name=species, nickname=species, level=level, hp=30, max_hp=30,
        status="OK", status_byte=0, type1=types[0].id, type2=types[-1].id, type1_name=types[0].name,
        type2_name=types[-1].name, moves=slots, stats=Stats(attack=30, defense=30, speed=30, special=30),
        dvs=0, slot=0, ot_id=1, exp=0,
    )  # fmt: skip


def party(*members: PartyMon) -> GameState:
    return PALLET.model_copy(update={"party": members})


def test_compatibility_comes_from_the_species_lists() -> None:
    assert machine_move("HM_CUT") == "CUT" and machine_move("TM_BUBBLEBEAM") == "BUBBLEBEAM"
    assert can_learn("ODDISH", "HM_CUT") and can_learn("BULBASAUR", "HM_CUT")
    assert not can_learn("SQUIRTLE", "HM_CUT") and not can_learn("PIDGEY", "HM_CUT")
    assert not can_learn(None, "HM_CUT") and not can_learn("ODDISH", "NOT_AN_ITEM")


def test_a_free_slot_costs_nothing_and_the_lowest_level_learns_between_equals() -> None:
    state = party(member("IVYSAUR", 30, "VINE_WHIP", "TACKLE"), member("ODDISH", 12, "ABSORB"))
    lesson = choose_student(state, "HM_CUT")
    assert lesson is not None and (lesson.member, lesson.forget) == (1, None)
    assert "free slot" in lesson.reason


def test_with_full_slots_the_least_useful_move_goes_and_never_an_hm() -> None:
    full = member("ODDISH", 14, "ABSORB", "POISONPOWDER", "CUT", "ACID")
    values = move_values(full)
    assert values[2] == float("inf")  # an HM stays
    assert values[1] < values[0] < values[3]  # a status move, then ABSORB (20, GRASS STAB), ACID (40)
    state = party(member("ODDISH", 14, "ABSORB", "POISONPOWDER", "STUN_SPORE", "ACID"))
    lesson = choose_student(state, "HM_CUT")
    assert lesson is not None and lesson.forget == 1 and "POISONPOWDER" in lesson.reason


def test_a_move_another_covers_better_counts_half() -> None:
    mon = member("WARTORTLE", 26, "TACKLE", "BUBBLE", "WATER_GUN", "BITE")
    values = move_values(mon)
    bubble, water_gun = values[1], values[2]
    assert bubble == 20 * 1.5 * 0.5 and water_gun == 40 * 1.5  # BUBBLE is covered by WATER_GUN


def test_a_move_beside_an_hm_of_its_type_is_the_spare_one() -> None:
    # SURF stays for the sea, so HYDRO PUMP is the spare: STRENGTH takes its place, not ICE BEAM's.
    blastoise = member("BLASTOISE", 50, "SURF", "ICE_BEAM", "BODY_SLAM", "HYDRO_PUMP")
    lesson = choose_student(party(blastoise), "HM_STRENGTH")
    assert lesson is not None and lesson.forget == 3 and "HYDRO_PUMP" in lesson.reason
    # And at level 52 a HYDRO PUMP offered beside SURF is let go rather than take ICE BEAM's place.
    carrier = member("BLASTOISE", 52, "SURF", "STRENGTH", "ICE_BEAM", "EARTHQUAKE")
    assert level_up_room(carrier, "HYDRO_PUMP") is None
    assert level_up_room(member("BLASTOISE", 52, "TACKLE", "STRENGTH", "ICE_BEAM", "DIG"), "HYDRO_PUMP") == 0


def test_a_move_that_hits_every_other_turn_counts_half() -> None:
    # SKULL BASH's charge turn: its 100 power is worth less than BODY SLAM's 85 every turn.
    fighter = member("BLASTOISE", 42, "SURF", "BODY_SLAM", "ICE_BEAM", "STRENGTH")
    assert level_up_room(fighter, "SKULL_BASH") is None
    # DIG is the move a STRENGTH or a HYDRO PUMP takes the place of, never ICE BEAM.
    digger = member("BLASTOISE", 50, "SURF", "ICE_BEAM", "DIG", "HYDRO_PUMP")
    lesson = choose_student(party(digger), "HM_STRENGTH")
    assert lesson is not None and lesson.forget == 2 and "DIG" in lesson.reason
    assert level_up_room(member("BLASTOISE", 52, "SURF", "STRENGTH", "ICE_BEAM", "DIG"), "HYDRO_PUMP") == 3


def test_a_one_hit_knock_out_move_is_kept_for_the_x_accuracy_plan() -> None:
    # FISSURE's power in the game's table is 1: weighed by it, STRENGTH took its place before Victory Road.
    state = party(member("BLASTOISE", 55, "ICE_BEAM", "SURF", "FISSURE", "HYDRO_PUMP"))
    lesson = choose_student(state, "HM_STRENGTH")
    assert lesson is not None and lesson.forget == 3  # HYDRO_PUMP, beside SURF
    assert move_values(state.party[0])[2] > move_values(state.party[0])[0]  # above ICE_BEAM


def test_no_one_learns_what_no_one_can_or_what_everyone_who_can_knows() -> None:
    assert choose_student(party(member("SQUIRTLE", 10, "TACKLE")), "HM_CUT") is None
    assert choose_student(party(member("ODDISH", 10, "CUT")), "HM_CUT") is None


def test_the_story_conditions_on_moves_and_machines() -> None:
    can = party(member("ODDISH", 12, "ABSORB"))
    knows = party(member("ODDISH", 12, "ABSORB", "CUT"))
    assert holds("can_learn:HM_CUT", can) and not holds("knows:CUT", can)
    assert holds("knows:CUT", knows) and not holds("can_learn:HM_CUT", knows)
    assert not holds("can_learn:HM_CUT", party(member("SQUIRTLE", 10, "TACKLE")))


def test_a_teaching_leg_walks_nowhere() -> None:
    leg = Leg(goal=HereGoal(), teach=Teach(item="HM_CUT", member=1, forget=None), reason="r")
    again = Leg.model_validate_json(leg.model_dump_json())
    assert again == leg and isinstance(again.goal, HereGoal)


def test_catching_for_a_machine_skips_what_cannot_learn_it() -> None:
    pidgey = with_balls(fixture_state("red_wild_main_menu"))  # SQUIRTLE L6 against a wild PIDGEY
    battle = pidgey.battle
    assert battle is not None and battle.enemy is not None
    as_oddish = battle.enemy.model_copy(update={"species_name": "ODDISH"})
    oddish = pidgey.model_copy(update={"battle": battle.model_copy(update={"enemy": as_oddish})})
    assert catch_decision(oddish, legal_actions(oddish), learns="HM_CUT") is not None
    assert catch_decision(pidgey, legal_actions(pidgey), learns="HM_CUT") is None  # fought, not caught
    assert catch_decision(pidgey, legal_actions(pidgey)) is not None
