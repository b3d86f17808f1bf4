"""The Elite Four: the rooms' doors as story gates, the bag mending a team between rooms, the stock bought
before them, the lobby's nurse as the place a whiteout comes back to, and the run's end in the Hall of
Fame."""

from __future__ import annotations

import itertools

from engine.game.mending import next_mend
from engine.game.models import BagItem, GameState, PartyMon
from engine.game.stock import MONEY_KEPT, gauntlet_stock
from engine.game.tables import game_data
from engine.menus.item_use import can_give
from engine.story.conditions import holds, party_pp
from engine.story.graph import story_graph
from engine.story.progress import progress
from engine.tactician.explorer import Explorer
from engine.tactician.pilot import Pilot
from engine.world.gates import closed_gates
from engine.world.goals import Give, HereGoal, ObjectGoal
from tests.unit.test_pilot import CENTER, in_town, world
from tests.unit.test_story import with_story
from tests.unit.test_team import member, oddish, wartortle


def bag(*items: tuple[str, int]) -> tuple[BagItem, ...]:
    return tuple(BagItem(item_id=game_data().item_ids[name], name=name, quantity=n) for name, n in items)


def hurt(mon: PartyMon, hp: int, status: str = "OK") -> PartyMon:
    return mon.model_copy(update={"hp": hp, "status": status})


def party_of(*members: PartyMon, items: tuple[BagItem, ...] = (), money: int = 0) -> GameState:
    base = in_town()
    progress_ = base.progress.model_copy(update={"money": money})
    return base.model_copy(update={"party": members, "bag": items, "progress": progress_})


def blastoise(slot: int = 0) -> PartyMon:
    return member("BLASTOISE", 58, ("SURF", "HYDRO_PUMP", "SKULL_BASH", "STRENGTH"), slot=slot)


# -- the rooms' doors --------------------------------------------------------------------------------
def _closed_squares(state: GameState, room: str) -> set[tuple[int, int]]:
    return {square for gate in closed_gates(state) if gate.map_name == room for square in gate.squares}


def test_each_rooms_exit_opens_with_its_trainer_beaten_and_its_entrance_shuts_once_walked_in() -> None:
    fresh = with_story(in_town())
    assert {(4, 0), (5, 0)} <= _closed_squares(fresh, "LORELEIS_ROOM")
    assert (5, 11) not in _closed_squares(fresh, "LORELEIS_ROOM")
    inside = with_story(in_town(), "EVENT_AUTOWALKED_INTO_LORELEIS_ROOM")
    assert (5, 11) in _closed_squares(inside, "LORELEIS_ROOM")
    beaten = with_story(
        in_town(), "EVENT_AUTOWALKED_INTO_LORELEIS_ROOM", "EVENT_BEAT_LORELEIS_ROOM_TRAINER_0"
    )
    assert {(4, 0), (5, 0)}.isdisjoint(_closed_squares(beaten, "LORELEIS_ROOM"))
    assert {(4, 0), (5, 0)} <= _closed_squares(beaten, "BRUNOS_ROOM")  # the next room's exit still shut
    locked = with_story(in_town(), "EVENT_LANCES_ROOM_LOCK_DOOR")
    assert {(4, 12), (7, 13)} <= _closed_squares(locked, "LANCES_ROOM")
    assert not _closed_squares(fresh, "LANCES_ROOM")


# -- mending from the bag ----------------------------------------------------------------------------
def test_a_fainted_fighter_is_revived_first_and_an_hm_carrier_far_below_is_left_alone() -> None:
    weak = hurt(member("PIDGEY", 5, ("GUST",), slot=2), 0)
    state = party_of(hurt(blastoise(), 100), hurt(wartortle().model_copy(update={"slot": 1, "level": 50}), 0),
                     weak, items=bag(("REVIVE", 2), ("SUPER_POTION", 3)))  # fmt: skip
    mend = next_mend(state)
    assert mend is not None and (mend.item, mend.member) == ("REVIVE", 1)
    only_pidgey_down = party_of(blastoise(), weak, items=bag(("REVIVE", 2)))
    assert next_mend(only_pidgey_down) is None


def test_a_status_is_cured_with_the_cheapest_cure_and_a_full_restore_only_when_nothing_else_does() -> None:
    asleep = hurt(blastoise(), 150, "SLP")
    mend = next_mend(party_of(asleep, items=bag(("FULL_RESTORE", 3), ("AWAKENING", 1), ("FULL_HEAL", 1))))
    assert mend is not None and mend.item == "AWAKENING"
    mend = next_mend(party_of(asleep, items=bag(("FULL_RESTORE", 3))))
    assert mend is not None and mend.item == "FULL_RESTORE"


def test_hp_is_filled_with_the_cheapest_potion_that_fills_it_and_a_nearly_full_member_gets_none() -> None:
    mon = blastoise()
    short = hurt(mon, mon.max_hp - 40)
    mend = next_mend(party_of(short, items=bag(("SUPER_POTION", 1), ("HYPER_POTION", 1), ("MAX_POTION", 1))))
    assert mend is not None and mend.item == "SUPER_POTION"
    low = hurt(mon, 10)
    mend = next_mend(party_of(low, items=bag(("POTION", 4), ("SUPER_POTION", 1))))
    assert mend is not None and mend.item == "SUPER_POTION"  # none fills it: the largest
    assert next_mend(party_of(hurt(mon, mon.max_hp - 5), items=bag(("POTION", 4)))) is None
    assert next_mend(party_of(low)) is None  # nothing in the bag helps


def in_room(state: GameState, room: str = "LANCES_ROOM") -> GameState:
    return state.model_copy(update={"overworld": state.overworld.model_copy(update={"map_name": room})})


def drained(mon: PartyMon, *pp: int) -> PartyMon:
    moves = tuple(slot.model_copy(update={"pp": left}) for slot, left in zip(mon.moves, pp, strict=True))
    return mon.model_copy(update={"moves": moves})


def test_between_rooms_an_elixer_gives_a_fighter_its_pp_back_once_it_misses_twenty() -> None:
    # SURF 15, HYDRO_PUMP 5, SKULL_BASH 15, STRENGTH 15 in full.
    dry = drained(blastoise(), 1, 0, 15, 3)
    mend = next_mend(in_room(party_of(dry, items=bag(("MAX_ELIXER", 1), ("ELIXER", 2)))))
    assert mend is not None and (mend.item, mend.member) == ("ELIXER", 0) and "miss 31 PP" in mend.why
    assert next_mend(in_room(party_of(drained(blastoise(), 5, 5, 15, 15), items=bag(("ELIXER", 2))))) is None
    # HP before PP; and outside the rooms a nurse gives PP back, the ELIXERs are kept for the gauntlet.
    mend = next_mend(in_room(party_of(hurt(dry, 20), items=bag(("ELIXER", 1), ("HYPER_POTION", 1)))))
    assert mend is not None and mend.item == "HYPER_POTION"
    assert next_mend(party_of(dry, items=bag(("ELIXER", 2)))) is None
    assert can_give("ELIXER") and not can_give("ETHER")  # an ETHER asks for a move: used in battle only


def test_a_heal_from_the_bag_is_a_leg_in_place_and_the_step_ends_when_nothing_more_helps() -> None:
    graph = story_graph()
    step = graph.named("beat_bruno").steps[0]
    w = world()
    state = party_of(hurt(blastoise(), 20), items=bag(("HYPER_POTION", 1)))
    leg = Pilot(w, graph, Explorer(w), 3)._leg_for(graph.named("beat_bruno"), step, state, cross_gates=False)
    assert leg is not None and isinstance(leg.goal, HereGoal)
    assert leg.give == Give(item="HYPER_POTION", member=0) and "BLASTOISE at 20/" in leg.reason
    assert not step.done(state)
    assert step.done(state.model_copy(update={"bag": ()}))
    cured = party_of(hurt(blastoise(), 150, "PAR"))
    assert progress(step, cured, party_of(hurt(blastoise(), 150))) == "a status cured"


# -- the stock -------------------------------------------------------------------------------------
def test_the_stock_is_full_restores_first_within_the_money_and_revives_only_for_other_fighters() -> None:
    solo = party_of(blastoise(), oddish(), money=50_000)
    assert gauntlet_stock(solo) == (("FULL_RESTORE", 16), ("FULL_HEAL", 1))
    two = party_of(blastoise(), blastoise(slot=1), money=100_000)
    assert gauntlet_stock(two) == (("FULL_RESTORE", 20), ("REVIVE", 2), ("FULL_HEAL", 5))
    stocked = two.model_copy(update={"bag": bag(("FULL_RESTORE", 20), ("REVIVE", 2), ("FULL_HEAL", 5))})
    assert gauntlet_stock(stocked) == ()
    poor = party_of(blastoise(), money=MONEY_KEPT + 2_999)
    assert gauntlet_stock(poor) == (("FULL_HEAL", 4),)  # a FULL_RESTORE would eat the money kept
    step = story_graph().named("beat_lorelei").steps[1]
    assert step.stock == "gauntlet" and step.done(stocked) and not step.done(two)


# -- the lobby, PP, the end ----------------------------------------------------------------------------
def test_the_lobby_heal_wants_full_pp_and_the_lobby_as_the_place_a_whiteout_returns_to() -> None:
    mon = blastoise()
    spent = mon.model_copy(update={"moves": tuple(slot.model_copy(update={"pp": 0}) for slot in mon.moves)})
    assert party_pp(party_of(mon)) == 1.0 and party_pp(party_of(spent)) == 0.0
    state = party_of(mon)
    story = state.story.model_copy(update={"blackout_map": "INDIGO_PLATEAU"})
    lobby = state.model_copy(update={"story": story})
    assert holds("blackout:INDIGO_PLATEAU", lobby) and not holds("blackout:INDIGO_PLATEAU", state)
    heal = story_graph().named("beat_lorelei").steps[2]
    assert heal.do == "heal" and heal.done(lobby) and not heal.done(state)


def test_the_story_ends_in_the_hall_of_fame_after_the_champion() -> None:
    graph = story_graph()
    assert graph.final.name == "enter_hall_of_fame"
    order = ["beat_lorelei", "beat_bruno", "beat_agatha", "beat_lance", "beat_champion", "enter_hall_of_fame"]
    for before, after in itertools.pairwise(order):
        assert graph.named(after).after == (before,)
    champion = with_story(in_town(), "EVENT_BEAT_CHAMPION_RIVAL")
    done = graph.done(champion)
    assert {"beat_lorelei", "beat_lance", "beat_champion"} <= done and "enter_hall_of_fame" not in done


def test_a_weak_team_inside_the_rooms_heals_from_the_bag_not_at_the_lobbys_nurse() -> None:
    graph = story_graph()
    objective = graph.named("beat_lorelei")
    fight = objective.steps[-1]
    w = world()
    low = party_of(hurt(blastoise(), 20), items=bag(("FULL_RESTORE", 2)))
    inside = low.model_copy(
        update={"overworld": low.overworld.model_copy(update={"map_name": "LORELEIS_ROOM"})}
    )
    leg = Pilot(w, graph, Explorer(w), 3)._leg_for(objective, fight, inside, cross_gates=False)
    assert leg is not None and leg.give == Give(item="FULL_RESTORE", member=0)
    outside = Pilot(w, graph, Explorer(w), 3)._leg_for(objective, fight, low, cross_gates=False)
    assert outside is not None and outside.goal == ObjectGoal(map_id=CENTER, index=1)  # outside: the nurse


def test_after_a_whiteout_the_rooms_events_count_as_cleared_until_the_player_is_back_in_a_room() -> None:
    from engine.game.capture import load_capture
    from engine.game.decoders import decode_story
    from engine.game.memory import MemoryImage
    from engine.game.ram import RED_BLUE
    from tests.conftest import GEN1_FIXTURES
    from tests.unit.test_story import EVENT_INDEX

    image = load_capture(GEN1_FIXTURES / "red_wild_main_menu")
    raw = bytearray(image.u8(address) for address in range(0x10000))
    beaten = EVENT_INDEX["EVENT_BEAT_LORELEIS_ROOM_TRAINER_0"]
    raw[RED_BLUE.wEventFlags + beaten // 8] |= 1 << (beaten % 8)
    data = game_data()

    def story(started: bool, map_name: str) -> frozenset[str]:
        raw[RED_BLUE.wElite4Flags] = 0b10 if started else 0
        raw[RED_BLUE.wCurMap] = next(i for i, entry in data.maps.items() if entry.name == map_name)
        return decode_story(MemoryImage(bytes(raw)), RED_BLUE, data).events

    assert "EVENT_BEAT_LORELEIS_ROOM_TRAINER_0" in story(False, "INDIGO_PLATEAU")
    assert "EVENT_BEAT_LORELEIS_ROOM_TRAINER_0" not in story(True, "INDIGO_PLATEAU")
    assert "EVENT_BEAT_LORELEIS_ROOM_TRAINER_0" in story(True, "BRUNOS_ROOM")
