"""The game's own menus on a real cartridge: an HM taught from the bag (into a free slot, and over the
least useful move when the four slots are full), every screen recognised in RAM, and the player free to
walk afterwards; the cartridge's TM/HM table agrees with the package's."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.emulator.session import EmulatorSession
from engine.game.models import DecisionPoint
from engine.game.tables import game_data
from engine.game.teaching import choose_student
from engine.mechanics.walking import OverworldDriver
from engine.menus.errors import ItemUseError, PartyOrderError, TeachError
from engine.menus.item_use import ItemUser
from engine.menus.party import PartyOrder
from engine.menus.teach import Teacher
from engine.world.tables import rom_offset
from tests.support.scenarios import set_bag, set_move_pp, set_party, set_party_hp, state_of

pytestmark = pytest.mark.rom

# pret data/pokemon/base_stats/*.asm: 28 bytes a species, by Pokédex number, at BaseStats (bank $0E); the
# TM/HM bits start at byte 20 (MEW's entry is elsewhere, MewBaseStats in bank $01).
BASE_STATS = (0x0E, 0x43DE)
ENTRY, TMHM_AT, TMHM_BYTES, TMS = 28, 20, 7, 50


def taught(game: EmulatorSession, moves: list[str]) -> tuple[list[str], list[str], list[str]]:
    set_party(game, [("WARTORTLE", 26, ["TACKLE", "BITE", "BUBBLE", "WATER_GUN"]), ("ODDISH", 14, moves)])
    set_bag(game, [("POKE_BALL", 3), ("HM_CUT", 1)])
    lesson = choose_student(state_of(game), "HM_CUT")
    assert lesson is not None and lesson.member == 1  # WARTORTLE cannot learn CUT
    lines: list[str] = []
    Teacher(game, OverworldDriver(game)).teach("HM_CUT", lesson, read=lambda shown: lines.extend(shown))
    after = state_of(game)
    assert after.decision_point is DecisionPoint.OVERWORLD_FREE
    assert [item.name for item in after.bag] == ["POKE_BALL", "HM_CUT"]  # an HM is not used up
    return (
        [slot.name or "" for slot in after.party[1].moves],
        lines,
        [m.name or "" for m in after.party[0].moves],
    )


def test_an_hm_goes_into_a_free_slot(game: EmulatorSession) -> None:
    moves, lines, lead = taught(game, ["ABSORB", "POISONPOWDER"])
    assert moves == ["ABSORB", "POISONPOWDER", "CUT"] and lead == ["TACKLE", "BITE", "BUBBLE", "WATER_GUN"]
    assert any("learned" in line for line in lines)


def test_with_four_moves_the_least_useful_one_is_forgotten(game: EmulatorSession) -> None:
    moves, lines, _ = taught(game, ["ABSORB", "POISONPOWDER", "STUN_SPORE", "ACID"])
    # POISONPOWDER and STUN_SPORE are both status moves worth little; the first of them goes.
    assert moves == ["ABSORB", "CUT", "STUN_SPORE", "ACID"]
    assert any("Poof" in line for line in lines) and any("forgot" in line for line in lines)


def test_a_machine_not_in_the_bag_is_refused_with_the_menus_closed(game: EmulatorSession) -> None:
    set_party(game, [("ODDISH", 14, ["ABSORB"])])
    set_bag(game, [("POKE_BALL", 3)])
    lesson = choose_student(state_of(game), "HM_CUT")
    assert lesson is not None
    with pytest.raises(TeachError, match="no HM_CUT"):
        Teacher(game, OverworldDriver(game)).teach("HM_CUT", lesson)
    assert state_of(game).decision_point is DecisionPoint.OVERWORLD_FREE


def test_the_packaged_tm_hm_lists_match_the_cartridge(rom_path: Path) -> None:
    rom, data = rom_path.read_bytes(), game_data()
    for entry in data.species_by_name.values():
        if entry.dex == 151:
            continue  # MEW's base stats live apart
        start = rom_offset(*BASE_STATS) + (entry.dex - 1) * ENTRY + TMHM_AT
        bits = int.from_bytes(rom[start : start + TMHM_BYTES], "little")
        names = {f"TM{n + 1:02d}" if n < TMS else f"HM{n - TMS + 1:02d}" for n in range(56) if bits >> n & 1}
        assert names == set(entry.tmhm), entry.name


def test_an_item_is_used_from_the_bag_and_its_text_read(game: EmulatorSession) -> None:
    set_party(game, [("WARTORTLE", 26, ["TACKLE", "BITE"])])
    set_bag(game, [("POKE_BALL", 3), ("POKE_FLUTE", 1)])
    lines: list[str] = []
    ItemUser(game, OverworldDriver(game)).use("POKE_FLUTE", read=lambda shown: lines.extend(shown))
    after = state_of(game)
    # No SNORLAX beside the player: the flute only plays (pret PlayedFluteNoEffectText), and stays.
    assert after.decision_point is DecisionPoint.OVERWORLD_FREE
    assert any("FLUTE" in line for line in lines), lines
    assert [item.name for item in after.bag] == ["POKE_BALL", "POKE_FLUTE"]


def test_a_potion_given_to_a_hurt_member_heals_it_and_is_used_up(game: EmulatorSession) -> None:
    set_party(game, [("WARTORTLE", 26, ["TACKLE", "BITE"]), ("ODDISH", 14, ["ABSORB"])])
    set_party_hp(game, 1, 10)
    set_bag(game, [("POKE_BALL", 3), ("POTION", 2)])
    lines: list[str] = []
    done = ItemUser(game, OverworldDriver(game)).give("POTION", 1, read=lambda shown: lines.extend(shown))
    after = state_of(game)
    assert after.decision_point is DecisionPoint.OVERWORLD_FREE
    assert after.party[1].hp == min(after.party[1].max_hp, 30) and "10 to" in done
    assert [(item.name, item.quantity) for item in after.bag] == [("POKE_BALL", 3), ("POTION", 1)]
    assert any("recovered" in line for line in lines), lines


def test_an_elixer_given_out_of_battle_gives_every_move_ten_pp(game: EmulatorSession) -> None:
    # Between the Elite Four's rooms the bag is the only way back to PP (game/mending.py).
    set_party(game, [("WARTORTLE", 26, ["TACKLE", "BITE"])])
    set_move_pp(game, 0, 0, 5)
    set_move_pp(game, 0, 1, 2)
    set_bag(game, [("POTION", 1), ("ELIXER", 1)])
    done = ItemUser(game, OverworldDriver(game)).give("ELIXER", 0)
    after = state_of(game)
    assert after.decision_point is DecisionPoint.OVERWORLD_FREE
    assert [slot.pp for slot in after.party[0].moves][:2] == [15, 12] and "PP" in done
    assert [(item.name, item.quantity) for item in after.bag] == [("POTION", 1)]


def test_a_stone_evolves_the_member_it_is_given_to(game: EmulatorSession) -> None:
    set_party(game, [("WARTORTLE", 26, ["TACKLE", "BITE"]), ("NIDORINO", 20, ["PECK", "LEER"])])
    set_bag(game, [("MOON_STONE", 1)])
    done = ItemUser(game, OverworldDriver(game)).give("MOON_STONE", 1)
    after = state_of(game)
    assert after.decision_point is DecisionPoint.OVERWORLD_FREE
    assert after.party[1].species_name == "NIDOKING" and "evolved into NIDOKING" in done
    assert after.bag == ()


def test_an_item_that_does_nothing_is_refused_with_the_menus_closed(game: EmulatorSession) -> None:
    set_party(game, [("WARTORTLE", 26, ["TACKLE", "BITE"])])
    set_bag(game, [("POTION", 1)])
    with pytest.raises(ItemUseError, match="changed nothing on WARTORTLE"):
        ItemUser(game, OverworldDriver(game)).give("POTION", 0)  # at full HP: "It won't have any effect."
    after = state_of(game)
    assert after.decision_point is DecisionPoint.OVERWORLD_FREE
    assert [(item.name, item.quantity) for item in after.bag] == [("POTION", 1)]


def candy(game: EmulatorSession, level: int, moves: list[str]) -> tuple[str, list[str], int]:
    set_party(game, [("WARTORTLE", 26, ["TACKLE", "BITE"]), ("CHARMANDER", level, moves)])
    set_bag(game, [("RARE_CANDY", 2)])
    done = ItemUser(game, OverworldDriver(game)).give("RARE_CANDY", 1)
    after = state_of(game)
    assert after.decision_point is DecisionPoint.OVERWORLD_FREE
    assert [(item.name, item.quantity) for item in after.bag] == [("RARE_CANDY", 1)]
    return done, [slot.name or "" for slot in after.party[1].moves], after.party[1].level


def test_a_rare_candy_level_learns_its_move_over_the_least_useful_one(game: EmulatorSession) -> None:
    done, moves, level = candy(game, 8, ["SCRATCH", "GROWL", "TAIL_WHIP", "LEER"])
    assert level == 9 and moves == ["SCRATCH", "EMBER", "TAIL_WHIP", "LEER"], done  # EMBER at 9


def test_a_rare_candy_level_lets_a_weaker_move_go(game: EmulatorSession) -> None:
    done, moves, level = candy(game, 14, ["SCRATCH", "EMBER", "SLASH", "FLAMETHROWER"])
    assert level == 15 and moves == ["SCRATCH", "EMBER", "SLASH", "FLAMETHROWER"], done  # LEER at 15


def test_some_of_an_item_is_tossed_and_the_rest_kept(game: EmulatorSession) -> None:
    set_party(game, [("WARTORTLE", 26, ["TACKLE", "BITE"])])
    set_bag(game, [("POKE_BALL", 3), ("POTION", 5), ("ANTIDOTE", 2)])
    lines: list[str] = []
    ItemUser(game, OverworldDriver(game)).toss("POTION", 3, read=lambda shown: lines.extend(shown))
    after = state_of(game)
    assert after.decision_point is DecisionPoint.OVERWORLD_FREE
    assert [(i.name, i.quantity) for i in after.bag] == [("POKE_BALL", 3), ("POTION", 2), ("ANTIDOTE", 2)]
    assert any("Threw away" in line for line in lines), lines


def test_a_key_item_is_not_tossed(game: EmulatorSession) -> None:
    set_party(game, [("WARTORTLE", 26, ["TACKLE", "BITE"])])
    set_bag(game, [("POKE_FLUTE", 1)])
    with pytest.raises(ItemUseError, match="will not toss it"):
        ItemUser(game, OverworldDriver(game)).toss("POKE_FLUTE", 1)
    with pytest.raises(ItemUseError, match="the bag holds 1"):
        ItemUser(game, OverworldDriver(game)).toss("POKE_FLUTE", 2)
    after = state_of(game)
    assert after.decision_point is DecisionPoint.OVERWORLD_FREE and after.bag[0].name == "POKE_FLUTE"


def test_two_members_swap_places_and_keep_everything_they_had(game: EmulatorSession) -> None:
    set_party(game, [("WARTORTLE", 26, ["TACKLE", "BITE"]), ("ODDISH", 14, ["ABSORB"]), ("PIDGEY", 9)])
    set_party_hp(game, 1, 11)
    before = state_of(game).party
    PartyOrder(game, OverworldDriver(game)).swap(0, 2)
    after = state_of(game)
    assert after.decision_point is DecisionPoint.OVERWORLD_FREE
    assert [m.species_name for m in after.party] == ["PIDGEY", "ODDISH", "WARTORTLE"]
    assert (after.party[2].level, after.party[2].moves) == (before[0].level, before[0].moves)
    assert after.party[1].hp == 11


def test_a_swap_with_no_second_member_is_refused(game: EmulatorSession) -> None:
    set_party(game, [("WARTORTLE", 26, ["TACKLE", "BITE"])])
    with pytest.raises(PartyOrderError, match="cannot swap members 1 and 2 of 1"):
        PartyOrder(game, OverworldDriver(game)).swap(0, 1)


def test_the_bicycle_is_got_on_outdoors_rides_twice_as_fast_and_is_left_at_a_door(
    game: EmulatorSession,
) -> None:
    from engine.mechanics.role import EmulatorRole
    from engine.world.goals import HereGoal, Leg, SquareGoal
    from engine.world.places import parse_place
    from engine.world.world import load_world

    set_party(game, [("WARTORTLE", 26, ["TACKLE", "BITE"])])
    set_bag(game, [("BICYCLE", 1)])
    role, world = EmulatorRole.on_session(game), load_world(game.rom_bytes)
    indoors = role.travel(Leg(goal=HereGoal(), use="BICYCLE"))  # the bedroom: no cycling here
    assert indoors.outcome == "blocked" and state_of(game).overworld.mode == "walk"
    pallet = world.by_name["PALLET_TOWN"].id
    assert role.travel(Leg(goal=SquareGoal(map_id=pallet, x=5, y=6))).outcome == "arrived"
    walked = role.travel(Leg(goal=SquareGoal(map_id=pallet, x=17, y=15)))
    assert walked.outcome == "arrived" and walked.steps >= 10, walked.reason
    on = role.travel(Leg(goal=HereGoal(), use="BICYCLE"))
    assert on.outcome == "arrived" and "BICYCLE!" in " ".join(on.text)
    assert state_of(game).overworld.mode == "bike"
    ridden = role.travel(Leg(goal=SquareGoal(map_id=pallet, x=5, y=6)))
    assert ridden.outcome == "arrived" and ridden.steps == ridden.planned_steps
    # Back the same way: half the frames a step (walking takes 16).
    assert ridden.frames / ridden.steps < 0.6 * walked.frames / walked.steps
    lab = role.travel(Leg(goal=parse_place(world, "OAKS_LAB")))
    assert lab.outcome == "arrived" and state_of(game).overworld.mode == "walk"  # off at the door
    assert [item.name for item in state_of(game).bag] == ["BICYCLE"]  # the bicycle is not used up
