"""Bill's PC on a real cartridge: a member deposited in the box and withdrawn again from a Pokémon Center's
PC, party and box counted in RAM, the last member refused, and the player free to walk after each."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.config import EmulatorConfig
from engine.emulator.session import open_session
from engine.game.models import Direction
from engine.game.state import decode_state
from engine.mechanics.role import EmulatorRole
from engine.world.goals import Leg, MapGoal, PcOrder, ThingGoal
from engine.world.world import load_world
from tests.support.story import story_state

pytestmark = pytest.mark.rom

PC_SQUARE = (13, 3)  # pret data/events/hidden_events.asm: OpenPokemonCenterPC, faced from below


def test_a_member_goes_into_the_box_and_comes_back(rom_path: Path) -> None:
    with open_session(rom_path, EmulatorConfig()) as session:
        world = load_world(session.rom_bytes)
        story_state(session, world, "pokedex", "VIRIDIAN_CITY", party=(("SQUIRTLE", 12), ("PIDGEY", 5)))
        role = EmulatorRole.on_session(session)
        center = world.by_name["VIRIDIAN_POKECENTER"].id
        assert role.travel(Leg(goal=MapGoal(map_id=center))).outcome == "arrived"
        pc = ThingGoal(map_id=center, x=PC_SQUARE[0], y=PC_SQUARE[1], facing=Direction.UP)

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
