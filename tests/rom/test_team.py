"""The team planner on a real cartridge: a stone in the bag evolves the member the forecast wants evolved,
and a strong Pokémon left in the box is fetched from the Pokémon Center's PC in place of the weakest
member, with the stats the box decoder worked out equal to those the game gives it on withdrawal."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.config import EmulatorConfig
from engine.emulator.session import EmulatorSession, open_session
from engine.game.models import GameState
from engine.game.state import decode_state
from engine.mechanics.role import EmulatorRole
from engine.story.graph import story_graph
from engine.tactician.explorer import Explorer
from engine.tactician.pilot import Pilot
from engine.team.planner import TeamPlanner
from engine.world.goals import Give, Leg, MapGoal, PcOrder
from engine.world.world import World, load_world
from tests.rom.test_pc import at_the_pc
from tests.support.scenarios import set_bag, set_party
from tests.support.story import story_state

pytestmark = pytest.mark.rom

STAT_EXP_AT = 0x11  # box_struct: five big-endian words of stat experience


def state_of(session: EmulatorSession) -> GameState:
    return decode_state(session.memory_image(), session.ram_map)


def pilot(world: World) -> Pilot:
    return Pilot(world, story_graph(), Explorer(world), 12, TeamPlanner())


def test_a_stone_in_the_bag_evolves_the_member_in_the_field(rom_path: Path) -> None:
    with open_session(rom_path, EmulatorConfig()) as session:
        world = load_world(session.rom_bytes)
        story_state(session, world, "pokedex", "PEWTER_CITY", party=(("SQUIRTLE", 14), ("PIKACHU", 24)))
        set_bag(session, [("POKE_BALL", 5), ("THUNDER_STONE", 1)])
        before = state_of(session)
        leg = pilot(world).leg(before, "beat_brock")
        assert leg is not None and leg.give == Give(item="THUNDER_STONE", member=1), leg
        report = EmulatorRole.on_session(session).travel(leg)
        after = state_of(session)
    assert report.outcome == "arrived", report.reason
    assert [mon.species_name for mon in after.party] == ["SQUIRTLE", "RAICHU"]
    assert after.party[1].max_hp > before.party[1].max_hp
    assert "THUNDER_STONE" not in {item.name for item in after.bag}
    assert any("evolved into RAICHU" in used for used in report.used)
    assert after.decision_point.value == "overworld_free"


def test_a_strong_boxed_pokemon_is_fetched_in_place_of_the_weakest_member(rom_path: Path) -> None:
    with open_session(rom_path, EmulatorConfig()) as session:
        role, pc = at_the_pc(session)
        six = [("SQUIRTLE", 14), ("RAICHU", 40), ("PIDGEY", 3), ("RATTATA", 4), ("SPEAROW", 5), ("WEEDLE", 3)]
        set_party(session, six)
        ram = session.ram_map
        raichu = ram.wPartyMon1 + ram.party.size
        for word, value in enumerate((4000, 9000, 2500, 30000, 700)):  # stat experience from battles
            session.write_u8(raichu + STAT_EXP_AT + 2 * word, value >> 8)
            session.write_u8(raichu + STAT_EXP_AT + 2 * word + 1, value & 0xFF)
        assert role.travel(Leg(goal=pc, pc=PcOrder(deposit=1))).outcome == "arrived"
        six[1] = ("CATERPIE", 3)
        set_party(session, six)  # six again, RAICHU in the box
        boxed = state_of(session).box
        leg = pilot(role.world).leg(state_of(session), "reach_pewter")
        assert leg is not None and leg.pc is not None and leg.pc.withdraw == 0, leg
        assert leg.pc.deposit is not None and leg.pc.deposit > 0  # a weak member, not the lead
        report = role.travel(leg)
        after = state_of(session)
    assert report.outcome == "arrived", report.reason
    assert after.party[-1].species_name == "RAICHU" and len(after.party) == 6
    assert (after.party[-1].max_hp, after.party[-1].stats) == (boxed[0].max_hp, boxed[0].stats)
    assert after.party[-1].stat_exp == (4000, 9000, 2500, 30000, 700)
    assert [mon.species_name for mon in after.box] == [six[leg.pc.deposit][0]]
    assert after.decision_point.value == "overworld_free"


def test_outside_a_pokemon_center_the_box_waits(rom_path: Path) -> None:
    with open_session(rom_path, EmulatorConfig()) as session:
        role, pc = at_the_pc(session)
        set_party(session, [("SQUIRTLE", 14), ("RAICHU", 40)])
        assert role.travel(Leg(goal=pc, pc=PcOrder(deposit=1))).outcome == "arrived"
        city = role.world.by_name["VIRIDIAN_CITY"].id
        assert role.travel(Leg(goal=MapGoal(map_id=city))).outcome == "arrived"
        leg = pilot(role.world).leg(state_of(session), "reach_pewter")
    assert leg is not None and leg.pc is None
