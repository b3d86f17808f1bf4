"""Bill's PC on a real cartridge: a member deposited in the box and withdrawn again from a Pokémon Center's
PC, party and box counted in RAM, the last member refused, and the player free to walk after each."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.config import EmulatorConfig
from engine.emulator.session import EmulatorSession, open_session
from engine.game.models import Direction
from engine.game.state import decode_state
from engine.mechanics.role import EmulatorRole
from engine.world.goals import Leg, MapGoal, PcOrder, ThingGoal
from engine.world.tables import PC_SQUARE
from engine.world.world import load_world
from tests.support.story import story_state

pytestmark = pytest.mark.rom


def at_the_pc(session: EmulatorSession) -> tuple[EmulatorRole, ThingGoal]:
    """SQUIRTLE and PIDGEY in the Viridian Pokémon Center, and the goal that faces its PC."""
    world = load_world(session.rom_bytes)
    story_state(session, world, "pokedex", "VIRIDIAN_CITY", party=(("SQUIRTLE", 12), ("PIDGEY", 5)))
    role = EmulatorRole.on_session(session)
    center = world.by_name["VIRIDIAN_POKECENTER"].id
    assert role.travel(Leg(goal=MapGoal(map_id=center))).outcome == "arrived"
    return role, ThingGoal(map_id=center, x=PC_SQUARE[0], y=PC_SQUARE[1], facing=Direction.UP)


def test_a_member_goes_into_the_box_and_comes_back(rom_path: Path) -> None:
    with open_session(rom_path, EmulatorConfig()) as session:
        role, pc = at_the_pc(session)

        stored = role.travel(Leg(goal=pc, pc=PcOrder(deposit=1)))
        after = decode_state(session.memory_image(), session.ram_map)
        assert stored.outcome == "arrived", stored.reason
        assert [mon.species_name for mon in after.party] == ["SQUIRTLE"]
        assert session.read_u8(session.ram_map.wBoxCount) == 1
        assert any("deposited member 2" in used for used in stored.used)
        assert after.decision_point.value == "overworld_free"

        refused = role.travel(Leg(goal=pc, pc=PcOrder(deposit=0)))
        assert refused.outcome == "blocked" and "last member" in refused.reason

        back = role.travel(Leg(goal=pc, pc=PcOrder(withdraw=0)))
        again = decode_state(session.memory_image(), session.ram_map)
    assert back.outcome == "arrived", back.reason
    assert [mon.species_name for mon in again.party] == ["SQUIRTLE", "PIDGEY"]
    assert again.decision_point.value == "overworld_free"


def test_a_new_box_is_chosen_and_the_deposit_goes_into_it(rom_path: Path) -> None:
    with open_session(rom_path, EmulatorConfig()) as session:
        role, pc = at_the_pc(session)
        assert role.travel(Leg(goal=pc, pc=PcOrder(deposit=1))).outcome == "arrived"  # box 1 holds PIDGEY
        report = role.travel(Leg(goal=pc, pc=PcOrder(change_box=1, withdraw=None)))
        ram = session.ram_map
        box, count = session.read_u8(ram.wCurrentBoxNum) & 0x7F, session.read_u8(ram.wBoxCount)
        state = decode_state(session.memory_image(), ram)
    assert report.outcome == "arrived", report.reason
    assert (box, count) == (1, 0)  # box 2, empty: box 1 (with PIDGEY) went to the cartridge's save
    assert any("changed to box 2" in used for used in report.used) and "saved" in " ".join(
        report.text + report.used
    )
    assert state.decision_point.value == "overworld_free"


def test_items_are_stored_in_the_pc_and_taken_out_again(rom_path: Path) -> None:
    from tests.support.scenarios import set_bag

    # Nineteen kinds, the NUGGET deep in the scrolling list: only what was asked for moves.
    machines = ["TM_BIDE", "TM_BUBBLEBEAM", "TM_DIG", "TM_MEGA_DRAIN", "TM_TOXIC", "TM_THUNDERBOLT"]
    keys = ["TOWN_MAP", "S_S_TICKET", "BICYCLE", "LIFT_KEY", "SILPH_SCOPE", "POKE_FLUTE", "HM_CUT", "HM_SURF"]
    bag = [("POTION", 3), *((name, 1) for name in keys + machines), ("DOME_FOSSIL", 1), ("RARE_CANDY", 1),
           ("POKE_BALL", 4), ("NUGGET", 2)]  # fmt: skip
    with open_session(rom_path, EmulatorConfig()) as session:
        role, pc = at_the_pc(session)
        set_bag(session, bag)
        stored = role.travel(Leg(goal=pc, pc=PcOrder(store=("NUGGET", 2))))
        fossil = role.travel(Leg(goal=pc, pc=PcOrder(store=("DOME_FOSSIL", 1))))  # a key item: no "How many?"
        middle = decode_state(session.memory_image(), session.ram_map)
        taken = role.travel(Leg(goal=pc, pc=PcOrder(take=("NUGGET", 1))))
        refused = role.travel(Leg(goal=pc, pc=PcOrder(store=("POTION", 4))))
        after = decode_state(session.memory_image(), session.ram_map)
    assert (stored.outcome, fossil.outcome, taken.outcome) == ("arrived",) * 3, (stored.reason, taken.reason)
    kept = [entry for entry in bag if entry[0] not in ("NUGGET", "DOME_FOSSIL")]
    assert [(i.name, i.quantity) for i in middle.bag] == kept
    assert {(i.name, i.quantity) for i in middle.pc_items} >= {("NUGGET", 2), ("DOME_FOSSIL", 1)}
    assert [(i.name, i.quantity) for i in after.bag] == [*kept, ("NUGGET", 1)]
    assert ("NUGGET", 1) in {(i.name, i.quantity) for i in after.pc_items} and len(after.pc_items) == 3
    assert "stored 2 NUGGET in the PC" in stored.used and "took 1 NUGGET from the PC" in taken.used
    assert refused.outcome == "blocked" and "the bag holds 3" in refused.reason
    assert after.decision_point.value == "overworld_free"
