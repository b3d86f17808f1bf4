"""FLY on a real cartridge: from the party menu and the town map to a visited town, landing where the
game's table says (pret data/maps/special_warps.asm FlyWarpDataPtr), and the leg that asks for it."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.config import EmulatorConfig
from engine.emulator.session import open_session
from engine.game.state import decode_state
from engine.mechanics.role import EmulatorRole
from engine.world.goals import HereGoal, Leg, MapGoal
from engine.world.tables import FLY_SPOTS
from engine.world.world import load_world
from tests.support.scenarios import teach_move
from tests.support.story import story_state

pytestmark = pytest.mark.rom

VISITED = {"PALLET_TOWN": 0, "VIRIDIAN_CITY": 1, "PEWTER_CITY": 2}  # wTownVisitedFlag bits


@pytest.mark.parametrize("town", ["VIRIDIAN_CITY", "PEWTER_CITY"])
def test_fly_lands_on_the_towns_square(rom_path: Path, town: str) -> None:
    with open_session(rom_path, EmulatorConfig()) as session:
        world = load_world(session.rom_bytes)
        story_state(session, world, "pokedex", "PALLET_TOWN", party=(("PIDGEOTTO", 30), ("SQUIRTLE", 12)))
        teach_move(session, 0, 1, "FLY")
        session.pyboy.game_wrapper.set_badge("thunder")
        session.write_u8(session.ram_map.wTownVisitedFlag, sum(1 << bit for bit in VISITED.values()))
        report = EmulatorRole.on_session(session).travel(Leg(goal=HereGoal(), fly=town))
        state = decode_state(session.memory_image(), session.ram_map)
    assert report.outcome == "arrived", report.reason
    assert report.field_moves == (f"FLY to {town}",)
    where = state.overworld
    assert (where.map_name, (where.x, where.y)) == (town, FLY_SPOTS[town])
    assert state.decision_point.value == "overworld_free"


def test_fly_is_refused_indoors(rom_path: Path) -> None:
    with open_session(rom_path, EmulatorConfig()) as session:
        world = load_world(session.rom_bytes)
        story_state(session, world, "pokedex", "VIRIDIAN_CITY", party=(("PIDGEOTTO", 30),))
        teach_move(session, 0, 1, "FLY")
        session.pyboy.game_wrapper.set_badge("thunder")
        role = EmulatorRole.on_session(session)
        center = world.by_name["VIRIDIAN_POKECENTER"].id
        assert role.travel(Leg(goal=MapGoal(map_id=center))).outcome == "arrived"
        report = role.travel(Leg(goal=HereGoal(), fly="PALLET_TOWN"))
    assert report.outcome == "blocked" and "only outdoors" in report.reason
