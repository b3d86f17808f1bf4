"""Doors the story opens and shuts: Silph Co.'s locked doors walked through with the CARD KEY in the bag,
the Pokémon Mansion's switch doors and the search for the switch to press, the holes a floor drops the
player through, and room in a full bag (pret engine/events/card_key.asm, scripts/PokemonMansion*.asm,
data/items/key_items.asm)."""

from __future__ import annotations

from engine.game.bag_room import BAG_CAPACITY, has_room_for, least_needed
from engine.game.models import BagItem, GameState
from engine.puzzles.switch_doors import next_press, switch_on, with_switch
from engine.world.gates import MANSION_SWITCH, Condition, Gate, block_squares
from engine.world.planner import UNLOCK_COST, Planner, surroundings
from engine.world.targets import SquaresTarget
from engine.world.world import World
from tests.support.tiny_world import INDOOR, TinyMap, build_world, overworld_state, state_at
from tests.unit.test_field_moves import member

HALL = 1
# The switch at (4, 0) is pressed from (4, 1); the only way south is the door square (3, 2).
HALL_ART = (
    "####.###",
    "........",
    "###.####",
    "........",
)
PALLET = overworld_state()
SWITCH, BELOW = (HALL, 4, 0), (HALL, 4, 1)


def hall() -> World:
    return build_world(TinyMap(HALL, "HALL", HALL_ART, tileset=INDOOR))


def door(**fields: object) -> Gate:
    return Gate(map_name="HALL", squares=((3, 2),), scene="a door", source="a test", **fields)  # type: ignore[arg-type]


def with_bag(state: GameState, *names: str) -> GameState:
    return state.model_copy(
        update={"bag": tuple(BagItem(item_id=1, name=name, quantity=1) for name in names)}
    )


def test_a_locked_door_is_a_wall_without_its_key_and_a_priced_way_with_it() -> None:
    w, locked = (
        hall(),
        (door(opens=Condition(kind="event", name="EVENT_SILPH_CO_2_UNLOCKED_DOOR1"), key="CARD_KEY"),),
    )
    start, goal = state_at(PALLET, HALL, 0, 1), SquaresTarget({(HALL, 7, 3): None})
    without = surroundings(w, start, gates=locked)
    assert (HALL, 3, 2) in without.gated and Planner(w, without).plan(goal) is None
    keyed = surroundings(w, with_bag(start, "CARD_KEY"), gates=locked)
    assert (HALL, 3, 2) in keyed.unlockable and (HALL, 3, 2) not in keyed.gated
    found = Planner(w, keyed).plan(goal)
    assert found is not None and found.cost == found.steps + UNLOCK_COST


def test_a_switch_door_shuts_or_opens_with_the_switch_and_negation_reads_the_other_way() -> None:
    off = state_at(PALLET, HALL, 0, 1)
    on = with_switch(off, True)
    assert switch_on(on) and not switch_on(off) and not switch_on(with_switch(on, False))
    shut_when_off = door(opens=Condition(kind="event", name=MANSION_SWITCH))
    shut_when_on = door(opens=Condition(kind="event", name=MANSION_SWITCH, negate=True))
    assert shut_when_off.closed(off) and not shut_when_off.closed(on)
    assert shut_when_on.closed(on) and not shut_when_on.closed(off)
    assert block_squares(3, 2) == ((6, 4), (7, 4), (6, 5), (7, 5))


def test_the_switch_to_press_is_found_and_none_when_the_way_is_open_or_no_press_helps() -> None:
    w, goal = hall(), SquaresTarget({(HALL, 7, 3): None})
    gates = (door(opens=Condition(kind="event", name=MANSION_SWITCH)),)
    off = state_at(PALLET, HALL, 0, 1)
    around = surroundings(w, off, gates=gates)
    assert next_press(w, off, around, goal, stands={SWITCH: BELOW}, gates=gates) == SWITCH
    on = with_switch(off, True)
    assert (
        next_press(w, on, surroundings(w, on, gates=gates), goal, stands={SWITCH: BELOW}, gates=gates) is None
    )
    walled = (door(opens=Condition(kind="event", name="EVENT_GOT_HM01")),)  # no switch opens this one
    around = surroundings(w, off, gates=walled)
    assert next_press(w, off, around, goal, stands={SWITCH: BELOW}, gates=walled) is None


def test_a_full_bag_makes_room_by_a_useless_machine_first_and_never_a_key_item_or_an_hm() -> None:
    names = ["S_S_TICKET", "HM_SURF", "CARD_KEY", "NUGGET", "TM_BIDE", "POTION"]
    names += [f"ITEM_{number}" for number in range(BAG_CAPACITY - len(names))]
    full = with_bag(PALLET, *names)
    assert not has_room_for(full, "SECRET_KEY") and has_room_for(full, "POTION")  # a POTION stacks
    assert has_room_for(with_bag(PALLET, "POTION"), "SECRET_KEY")
    # A RHYDON cannot learn TELEPORT: that machine goes before a cheaper POTION; BIDE it can learn.
    team = PALLET.model_copy(update={"party": (member("TACKLE"),)})
    bag = ("S_S_TICKET", "HM_SURF", "NUGGET", "POTION", "TM_TELEPORT", "TM_BIDE")
    assert least_needed(with_bag(team, *bag)) == ("TM_TELEPORT", 1)
    assert least_needed(with_bag(team, "S_S_TICKET", "NUGGET", "POTION", "TM_BIDE")) == ("POTION", 1)
    assert least_needed(with_bag(PALLET, "NUGGET", "POTION", "S_S_TICKET")) == ("POTION", 1)  # cheaper
    assert least_needed(with_bag(PALLET, "S_S_TICKET", "HM_CUT", "CARD_KEY")) is None
    # What the engine uses goes last, whatever its price: no Mart sells an ELIXER (Red seed 54 threw one
    # away at the Elite Four's door for room for a FULL HEAL).
    assert least_needed(with_bag(PALLET, "ELIXER", "POTION", "S_S_TICKET")) == ("POTION", 1)
    # The gauntlet's stock never goes: tossed for room and bought again, it went round in a loop.
    assert least_needed(with_bag(PALLET, "X_SPECIAL", "FULL_RESTORE", "ELIXER")) == ("ELIXER", 1)
    assert least_needed(with_bag(PALLET, "X_SPECIAL", "FULL_RESTORE", "S_S_TICKET")) is None
