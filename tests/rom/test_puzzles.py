"""The puzzle floors on a real cartridge: the arrow tables read from the ROM land on floor, a walk across
the Viridian Gym's spinners arrives where the world model says, with every spin waited out, and a walk
over Saffron Gym's pads (warps within one map) lands on each pad the plan names."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.config import EmulatorConfig
from engine.emulator.session import open_session
from engine.mechanics.battle_driver import by_policy
from engine.mechanics.role import EmulatorRole
from engine.mechanics.trip import TripReport, take_trip
from engine.tactician.rule_based import RuleBasedPolicy
from engine.world.goals import Leg
from engine.world.places import parse_place
from engine.world.world import load_world
from tests.support.story import story_state

pytestmark = pytest.mark.rom

# Arrows per floor, as pret's tables list them (scripts/RocketHideoutB2F.asm, RocketHideoutB3F.asm,
# ViridianGym.asm).
ARROWS = {"ROCKET_HIDEOUT_B2F": 43, "ROCKET_HIDEOUT_B3F": 16, "VIRIDIAN_GYM": 12}


def test_every_arrow_and_every_landing_is_floor(rom_path: Path) -> None:
    world = load_world(rom_path.read_bytes())
    found = {world.maps[map_id].name: arrows for map_id, arrows in world.spinners.items()}
    assert {name: len(arrows) for name, arrows in found.items()} == ARROWS
    for name, arrows in found.items():
        map_id = world.by_name[name].id
        assert all(
            world.walkable(map_id, *at) and world.walkable(map_id, *spin.to) for at, spin in arrows.items()
        )
    # pret: map_coord_movement 4, 9, RocketHideout2ArrowMovement1 (db PAD_LEFT, 2).
    assert found["ROCKET_HIDEOUT_B2F"][(4, 9)].to == (2, 9)


def trips(rom_path: Path, stage: str, town: str, *places: str) -> list[TripReport]:
    """From `town` at a story `stage`, one trip to each place in turn (400 steps each at most)."""
    world = load_world(rom_path.read_bytes())
    with open_session(rom_path, EmulatorConfig()) as session:
        story_state(session, world, stage, town)
        start = session.export_state()
    role = EmulatorRole.on_session(open_session(rom_path, EmulatorConfig()))
    try:
        role.start(start)
        policy = by_policy(RuleBasedPolicy())
        return [
            take_trip(role, Leg(goal=parse_place(world, place), max_steps=400), policy) for place in places
        ]
    finally:
        role.close()


def test_a_walk_across_the_viridian_gyms_spinners_arrives(rom_path: Path) -> None:
    into, report = trips(rom_path, "viridian_gym_open", "VIRIDIAN_CITY", "VIRIDIAN_GYM", "VIRIDIAN_GYM:18,1")
    assert into.arrived
    assert report.arrived, report.reason
    where = report.state.overworld if report.state is not None else None
    assert where is not None and (where.map_name, where.x, where.y) == ("VIRIDIAN_GYM", 18, 1)
    # The shortest way runs over three arrows (the world model's plan: 12 steps); trainers may stop a
    # leg, and the walk goes on.
    assert report.spins >= 3 and report.planned_steps is not None


def test_a_walk_over_saffron_gyms_pads_reaches_sabrina_and_leaves(rom_path: Path) -> None:
    # Sabrina's room is only reached over pads; each lands the player on another pad, which a button held a
    # frame too long takes again.
    inside, out = trips(rom_path, "saffron_gym_cleared", "SAFFRON_CITY", "SAFFRON_GYM:10,10", "SAFFRON_CITY")
    assert inside.arrived, inside.reason
    assert (inside.legs, inside.steps) == (1, inside.planned_steps), inside.as_json()
    assert out.arrived, out.reason
    where = out.state.overworld if out.state is not None else None
    assert where is not None and where.map_name == "SAFFRON_CITY"
