"""The team planner's pure part: a boxed Pokémon decoded with the stats the game would give it, a stone's
evolution worked out on paper, a member that waits for a move, and the changes the forecast asks for (a
stone used or bought, a boxed Pokémon taken in place of the weakest member, never the only CUT carrier)."""

from __future__ import annotations

from engine.game.decoders import decode_box
from engine.game.memory import MemoryImage
from engine.game.models import BagItem, GameState, MoveSlot, PartyMon
from engine.game.ram import RED_BLUE
from engine.game.stats import NO_STAT_EXP, computed_stats, split_dvs
from engine.game.tables import game_data
from engine.team.evolution import evolved, stone_evolutions, waits_for
from engine.team.planner import TeamPlanner, to_weigh
from tests.unit.test_story import with_party

MID_GAME = (("ERIKA", 1), ("GIOVANNI", 1), ("KOGA", 1))


def member(species: str, level: int, moves: tuple[str, ...], slot: int = 0, dvs: int = 0x9888) -> PartyMon:
    data = game_data()
    found = data.species_by_name[species]
    max_hp, stats = computed_stats(found, level, dvs, NO_STAT_EXP)
    type1, type2 = (data.types_by_name[name] for name in found.types)
    slots = tuple(
        MoveSlot(move_id=data.moves_by_name[m].id, name=m, pp=data.moves_by_name[m].pp, pp_ups=0)
        for m in moves
    )
    return PartyMon(
        species_id=found.index, species_name=species, nickname=species, level=level, hp=max_hp,
        max_hp=max_hp, status="OK", status_byte=0, type1=type1.id, type2=type2.id, type1_name=type1.name,
        type2_name=type2.name, moves=slots, stats=stats, dvs=dvs, slot=slot, ot_id=1, exp=level**3,
    )  # fmt: skip


def team(
    *members: PartyMon, box: tuple[PartyMon, ...] = (), bag: tuple[str, ...] = (), money: int = 9000
) -> GameState:
    base = with_party()
    items = tuple(BagItem(item_id=game_data().item_ids[name], name=name, quantity=1) for name in bag)
    progress = base.progress.model_copy(update={"money": money, "box_count": len(box)})
    return base.model_copy(update={"party": members, "box": box, "bag": items, "progress": progress})


def wartortle() -> PartyMon:
    return member("WARTORTLE", 34, ("TACKLE", "BITE", "WATER_GUN", "WITHDRAW"))


def pikachu(level: int = 30) -> PartyMon:
    return member("PIKACHU", level, ("THUNDERSHOCK", "QUICK_ATTACK", "THUNDER_WAVE"), slot=1)


def oddish() -> PartyMon:
    return member("ODDISH", 20, ("ABSORB", "POISONPOWDER"), slot=2)


# -- stats and evolution on paper ------------------------------------------------------------------------
def test_the_hp_dv_is_made_of_the_other_four_lowest_bits() -> None:
    assert split_dvs(0xFEDC) == (0b1010, 15, 14, 13, 12)
    assert split_dvs(0x0000) == (0, 0, 0, 0, 0)


def test_a_boxed_pokemon_is_decoded_with_the_stats_the_game_gives_it_on_withdrawal() -> None:
    ram, data = RED_BLUE, game_data()
    struct = bytearray(ram.party.box_size)
    struct[0] = data.species_by_name["PIKACHU"].index
    struct[1:3] = (41).to_bytes(2, "big")  # its HP as the box keeps it
    struct[3] = 30  # the level
    struct[8] = data.moves_by_name["THUNDERSHOCK"].id
    struct[0x17:0x19] = (10_000).to_bytes(2, "big")  # Speed stat experience: a root of 100, a bonus of 25
    struct[0x1B:0x1D] = (0x00F0).to_bytes(2, "big")  # Speed DV 15, the rest 0
    image = MemoryImage.from_regions({ram.wBoxCount: bytes([1]), ram.wBoxMons: bytes(struct)})
    (boxed,) = decode_box(image, ram, data)
    assert (boxed.species_name, boxed.level, boxed.hp) == ("PIKACHU", 30, 41)
    assert boxed.stats.speed == ((90 + 15) * 2 + 25) * 30 // 100 + 5 == 75  # base Speed 90
    assert boxed.max_hp == (35 + 2) * 2 * 30 // 100 + 30 + 10  # base HP 35, HP DV 2 (the Speed DV's bit)
    assert [slot.name for slot in boxed.moves] == ["THUNDERSHOCK"]


def test_an_empty_box_decodes_to_nothing() -> None:
    assert decode_box(MemoryImage.from_regions({}), RED_BLUE, game_data()) == ()


def test_stones_name_what_each_makes_of_the_species() -> None:
    assert stone_evolutions("EEVEE") == {
        "FIRE_STONE": "FLAREON", "THUNDER_STONE": "JOLTEON", "WATER_STONE": "VAPOREON",
    }  # fmt: skip
    assert stone_evolutions("PIKACHU") == {"THUNDER_STONE": "RAICHU"}
    assert stone_evolutions("CHARMANDER") == {}


def test_an_evolved_member_has_its_new_species_stats_and_the_hp_it_gained() -> None:
    before = pikachu().model_copy(update={"hp": 20})
    after = evolved(before, "RAICHU")
    assert (after.species_name, after.type1_name, after.level) == ("RAICHU", "ELECTRIC", 30)
    assert after.stats.attack > before.stats.attack and after.max_hp > before.max_hp
    assert after.hp == 20 + after.max_hp - before.max_hp
    assert after.moves == before.moves
    assert evolved(before.model_copy(update={"hp": 0}), "RAICHU").hp == 0


def test_a_member_waits_for_a_stronger_move_its_own_form_learns_soon() -> None:
    assert waits_for(pikachu(36), "RAICHU") == ("THUNDER", 43)  # RAICHU never learns it
    assert waits_for(pikachu(30), "RAICHU") is None  # THUNDER is 13 levels away
    vine = member("WEEPINBELL", 21, ("VINE_WHIP", "WRAP"))
    assert waits_for(vine, "VICTREEBEL") == ("ACID", 29)
    knows = member("WEEPINBELL", 38, ("RAZOR_LEAF", "ACID"))
    assert waits_for(knows, "VICTREEBEL") is None


# -- the bosses weighed ------------------------------------------------------------------------------------
def test_the_bosses_weighed_are_the_storys_then_the_elite_four_and_champion() -> None:
    state = team(wartortle())
    story = state.model_copy(update={"story": state.story.model_copy(update={"rival_starter": "BULBASAUR"})})
    assert to_weigh(story, (("BLAINE", 1),)) == (("BLAINE", 1), ("LORELEI", 1), ("BRUNO", 1))
    assert to_weigh(story, (), count=9)[-1] == ("RIVAL3", 2)
    assert to_weigh(story, (("KOGA", 1), ("KOGA", 1))) == (("KOGA", 1), ("LORELEI", 1), ("BRUNO", 1))


# -- stones --------------------------------------------------------------------------------------------------
def test_a_stone_in_the_bag_evolves_the_member_the_forecast_wants_evolved() -> None:
    state = team(wartortle(), pikachu(), oddish(), bag=("THUNDER_STONE",))
    change = TeamPlanner().evolution(state, MID_GAME)
    assert change is not None and (change.member, change.stone, change.into) == (1, "THUNDER_STONE", "RAICHU")
    assert change.after > change.before
    assert "THUNDER_STONE on PIKACHU for a RAICHU" in change.reason and "→" in change.reason


def test_no_stone_for_a_species_kept_unevolved_nor_one_that_waits_nor_without_a_stone() -> None:
    state = team(wartortle(), pikachu(), oddish(), bag=("THUNDER_STONE",))
    assert TeamPlanner(frozenset({"PIKACHU"})).evolution(state, MID_GAME) is None
    assert TeamPlanner(stones=False).evolution(state, MID_GAME) is None
    waiting = team(wartortle(), pikachu(36), oddish(), bag=("THUNDER_STONE",))
    assert TeamPlanner().evolution(waiting, MID_GAME) is None
    assert TeamPlanner().evolution(team(wartortle(), pikachu(), oddish()), MID_GAME) is None


def test_a_stone_is_bought_only_when_it_pays_off_and_money_is_left_for_heals() -> None:
    wanted = TeamPlanner().stone_to_buy(team(wartortle(), pikachu(), oddish(), money=9000), MID_GAME)
    assert wanted is not None and wanted.stone == "THUNDER_STONE"
    assert TeamPlanner().stone_to_buy(team(wartortle(), pikachu(), oddish(), money=2500), MID_GAME) is None
    no_taker = team(wartortle(), oddish(), money=9000)
    assert TeamPlanner().stone_to_buy(no_taker, MID_GAME) is None  # GLOOM's LEAF_STONE: ODDISH is no GLOOM


# -- the box ------------------------------------------------------------------------------------------------
def weak(slot: int, moves: tuple[str, ...] = ("TACKLE", "TAIL_WHIP")) -> PartyMon:
    return member("RATTATA", 5 + slot, moves, slot=slot)


def test_a_strong_boxed_pokemon_takes_the_place_of_the_weakest_member() -> None:
    party = (wartortle(), *(weak(slot) for slot in range(1, 6)))
    raichu = member("RAICHU", 40, ("THUNDERBOLT", "QUICK_ATTACK", "THUNDER_WAVE"))
    state = team(*party, box=(member("PIDGEY", 3, ("GUST",)), raichu))
    change = TeamPlanner().swap(state, MID_GAME)
    assert change is not None and change.withdraw == 1 and change.deposit == 1  # the L6 RATTATA goes
    assert change.after >= change.before + 0.02
    assert change.reason.startswith("RAICHU from the box in place of RATTATA: forecast against ERIKA")


def test_the_only_carrier_of_a_field_move_stays_in_the_party() -> None:
    party = (wartortle(), weak(1, ("CUT", "TACKLE")), *(weak(slot) for slot in range(2, 6)))
    raichu = member("RAICHU", 40, ("THUNDERBOLT", "QUICK_ATTACK", "THUNDER_WAVE"))
    change = TeamPlanner().swap(team(*party, box=(raichu,)), MID_GAME)
    assert change is not None and change.deposit == 2  # the next weakest, not the CUT carrier


def test_with_room_in_the_party_the_boxed_pokemon_just_joins_it() -> None:
    raichu = member("RAICHU", 40, ("THUNDERBOLT", "QUICK_ATTACK", "THUNDER_WAVE"))
    change = TeamPlanner().swap(team(wartortle(), oddish(), box=(raichu,)), MID_GAME)
    assert change is not None and (change.deposit, change.withdraw) == (None, 0)


def test_nothing_changes_for_a_weaker_boxed_pokemon_an_empty_box_or_with_swaps_off() -> None:
    raichu = member("RAICHU", 40, ("THUNDERBOLT", "QUICK_ATTACK", "THUNDER_WAVE"))
    assert (
        TeamPlanner().swap(team(wartortle(), pikachu(), box=(member("PIDGEY", 3, ("GUST",)),)), MID_GAME)
        is None
    )
    assert TeamPlanner().swap(team(wartortle(), pikachu()), MID_GAME) is None
    assert TeamPlanner(swaps=False).swap(team(wartortle(), box=(raichu,)), MID_GAME) is None


def test_a_full_box_takes_no_deposit_so_no_swap_is_proposed() -> None:
    party = (wartortle(), *(weak(slot) for slot in range(1, 6)))
    raichu = member("RAICHU", 40, ("THUNDERBOLT", "QUICK_ATTACK", "THUNDER_WAVE"))
    state = team(*party, box=(raichu,))
    full = state.model_copy(update={"progress": state.progress.model_copy(update={"box_count": 20})})
    assert TeamPlanner().swap(full, MID_GAME) is None


# -- the bag's room ------------------------------------------------------------------------------------------
def bagged(*items: tuple[str, int]) -> GameState:
    ids = game_data().item_ids
    bag = tuple(BagItem(item_id=ids[name], name=name, quantity=count) for name, count in items)
    return team(wartortle(), pikachu()).model_copy(update={"bag": bag})


def test_what_goes_into_the_pc_is_what_the_engine_never_uses_a_useless_tm_first() -> None:
    from engine.game.bag_room import to_store

    # WARTORTLE can learn BLIZZARD; neither it nor PIKACHU can learn WHIRLWIND.
    state = bagged(("POTION", 3), ("NUGGET", 1), ("TM_WHIRLWIND", 1), ("TM_BLIZZARD", 1), ("HM_CUT", 1))
    assert to_store(state) == ("TM_WHIRLWIND", 1)
    # A NUGGET is sold at a Mart (game/selling.py), never stored.
    assert to_store(bagged(("POTION", 3), ("NUGGET", 2), ("TM_BLIZZARD", 1))) == ("TM_BLIZZARD", 1)
    assert to_store(bagged(("POTION", 3), ("NUGGET", 2))) is None
    assert to_store(bagged(("DOME_FOSSIL", 1), ("TM_BLIZZARD", 1))) == ("DOME_FOSSIL", 1)
    assert to_store(bagged(("TM_BLIZZARD", 1), ("POTION", 3))) == ("TM_BLIZZARD", 1)
    kept = bagged(("POKE_BALL", 5), ("ESCAPE_ROPE", 1), ("THUNDER_STONE", 1), ("HM_SURF", 1), ("BICYCLE", 1))
    assert to_store(kept) is None
