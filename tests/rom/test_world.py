"""The world model against the cartridge and the game itself: every map parses, warps and connections
hold together, the walkable grid is what the game allows, and `engine goto` reaches every kind of place."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import suppress
from dataclasses import replace
from pathlib import Path

import pytest

from engine.cli import main
from engine.config import EmulatorConfig
from engine.emulator.errors import FrameBudgetExceeded
from engine.emulator.session import EmulatorSession, LiveMemory, open_session
from engine.game.models import Direction
from engine.mechanics.battle_driver import by_policy
from engine.mechanics.role import EmulatorRole
from engine.mechanics.trip import take_trip
from engine.tactician.rule_based import RuleBasedPolicy
from engine.world.goals import Leg, MapGoal, ObjectGoal, SquareGoal
from engine.world.models import Square
from engine.world.places import parse_place
from engine.world.planner import Planner, Surroundings
from engine.world.tables import LAST_MAP
from engine.world.targets import MapTarget
from engine.world.world import OPPOSITE, World, load_world
from tests.support.romgen import write_rom
from tests.support.scenarios import set_party, set_party_hp, state_of
from tests.support.story import STARTS, story_state

pytestmark = pytest.mark.rom


@pytest.fixture(scope="module")
def world(rom_path: Path) -> World:
    return load_world(rom_path.read_bytes())


@pytest.fixture(scope="module")
def starts(rom_path: Path, world: World) -> dict[str, bytes]:
    states = {}
    for name, (stage, town) in STARTS.items():
        with open_session(rom_path, EmulatorConfig()) as session:
            story_state(session, world, stage, town)
            states[name] = session.export_state()
    return states


@pytest.fixture
def role(rom_path: Path) -> Iterator[EmulatorRole]:
    session = open_session(rom_path, EmulatorConfig())
    role = EmulatorRole.on_session(session)
    yield role
    session.close()


# -- the cartridge's maps ----------------------------------------------------------------------------
def test_every_map_of_the_game_parses(world: World) -> None:
    assert len(world.maps) >= 220
    for data in world.maps.values():
        assert data.width > 0 and data.height > 0 and len(data.blocks) == data.width * data.height
        assert data.tileset in world.tilesets
        assert all(data.inside(w.x, w.y) for w in data.warps), data.name
    pallet = world.by_name["PALLET_TOWN"]
    assert (pallet.squares_wide, pallet.squares_high) == (20, 18)
    assert {c.side for c in pallet.connections} == {"north", "south"}
    viridian_forest = world.by_name["VIRIDIAN_FOREST"]
    trainers = [o for o in viridian_forest.objects if o.is_trainer]
    assert len(trainers) == 3 and all(t.sight > 0 and t.beaten_event is not None for t in trainers)


def test_every_warp_leads_to_a_warp_that_exists(world: World) -> None:
    broken = []
    for data in world.maps.values():
        for warp in data.warps:
            if warp.to_map == LAST_MAP:
                continue
            target = world.maps.get(warp.to_map)
            if target is None or warp.to_warp >= len(target.warps):
                broken.append((data.name, warp.index))
    # The Silph Co. elevator's warps name a placeholder map: its floor menu writes the real destination
    # at run time (pret scripts/SilphCoElevator.asm).
    assert set(broken) == {("SILPH_CO_ELEVATOR", 0), ("SILPH_CO_ELEVATOR", 1)}


def test_map_connections_agree_both_ways(world: World) -> None:
    checked = 0
    for data in world.maps.values():
        for connection in data.connections:
            other = world.maps[connection.map_id]
            side = {"north": "south", "south": "north", "west": "east", "east": "west"}[connection.side]
            assert other.connection(side) is not None, (data.name, connection.side)
            assert other.connection(side).map_id == data.id  # type: ignore[union-attr]
            checked += _crossings_return(world, data.id, connection.side)
    assert checked > 300


def _crossings_return(world: World, map_id: int, side: str) -> int:
    """Cross from every walkable square on that edge and back: the same square again."""
    data = world.maps[map_id]
    direction = {"north": Direction.UP, "south": Direction.DOWN, "west": Direction.LEFT,
                 "east": Direction.RIGHT}[side]  # fmt: skip
    edge = {"north": [(x, 0) for x in range(data.squares_wide)],
            "south": [(x, data.squares_high - 1) for x in range(data.squares_wide)],
            "west": [(0, y) for y in range(data.squares_high)],
            "east": [(data.squares_wide - 1, y) for y in range(data.squares_high)]}[side]  # fmt: skip
    count = 0
    for x, y in edge:
        there = world.move((map_id, x, y), direction) if world.walkable(map_id, x, y) else None
        if there is None:
            continue
        back = world.move(there.to, OPPOSITE[direction])
        assert back is not None and back.to == (map_id, x, y), (data.name, x, y, there.to)
        count += 1
    return count


# -- the walkable grid against the game -------------------------------------------------------------
GRID_SAMPLE = 16  # squares a town, spread over the map, each next to something that blocks


def grid_squares(world: World, map_id: int) -> list[tuple[int, int]]:
    """Walkable squares with at least one blocked neighbour (where a wrong grid would show), spread
    evenly over the map."""
    edges = [(x, y) for x, y in world.squares(map_id) if world.walkable(map_id, x, y)
             and world.warp_at(map_id, x, y) is None
             and any(world.move((map_id, x, y), d) is None for d in Direction)]  # fmt: skip
    stride = max(1, len(edges) // GRID_SAMPLE)
    return edges[stride // 2 :: stride][:GRID_SAMPLE]


@pytest.mark.parametrize("town", list(STARTS))
def test_the_walkable_grid_is_what_the_game_allows(
    town: str, role: EmulatorRole, world: World, starts: dict[str, bytes]
) -> None:
    """Walk to each square, then press every direction from it (from a saved state each time): where
    the game lets the player go, the world model says so, and the other way round."""
    role.session.load_state(starts[town])
    map_id = world.by_name[STARTS[town][1]].id
    compared = 0
    for x, y in grid_squares(world, map_id):
        report = role.travel(Leg(goal=SquareGoal(map_id=map_id, x=x, y=y)))
        if report.outcome != "arrived":
            role.settle()
            continue
        compared += _compare_neighbours(role, world, (map_id, x, y))
    assert compared >= 30


def _compare_neighbours(role: EmulatorRole, world: World, at: Square) -> int:
    session = role.session
    here = session.save_state()
    people = {(at[0], s.x, s.y) for s in state_of(session).overworld.sprites}
    compared = 0
    for direction in Direction:
        predicted = world.move(at, direction)
        if predicted is not None and (predicted.to in people or world.warp_at(*predicted.to)):
            continue  # someone stands there, or the square is a door: not terrain alone
        session.load_state(here)
        moved = _press(session, direction, at)
        # Onto water or a tree the press moves no one who has not used SURF or CUT (never done here).
        on_foot = predicted is not None and not (predicted.surf or predicted.cut)
        expected = predicted.to if predicted is not None and on_foot else at
        assert moved == expected, (at, direction.value, moved, expected)
        compared += 1
    session.load_state(here)
    return compared


def _press(session: EmulatorSession, direction: Direction, at: Square) -> Square:
    """Hold the direction until the player stands elsewhere (let go on that frame, before the game
    starts a second step) or for long enough to know they will not move; a hop finishes by itself."""
    ram = session.ram_map

    def where(memory: LiveMemory) -> Square:
        return (memory[ram.wCurMap], memory[ram.wXCoord], memory[ram.wYCoord])

    session.hold(direction.button)
    with suppress(FrameBudgetExceeded):
        session.run_until(lambda memory: where(memory) != at, 48, check_every=1)
    session.release(direction.button)
    session.tick(40)
    return where(session.pyboy.memory)


# -- trips -----------------------------------------------------------------------------------------------
TRIPS = [
    ("viridian", "VIRIDIAN_POKECENTER", "a building across town"),
    ("viridian", "VIRIDIAN_MART", "a shop"),
    ("pallet", "VIRIDIAN_CITY", "the next town, through a route with grass and ledges"),
    ("viridian", "VIRIDIAN_FOREST", "into the forest"),
    ("viridian", "PEWTER_CITY", "through the forest to the next town"),
    ("pewter", "PEWTER_GYM", "a gym"),
]


@pytest.mark.parametrize(("start", "place", "kind"), TRIPS, ids=[t[1] for t in TRIPS])
def test_a_trip_reaches_its_place_step_by_checked_step(
    start: str, place: str, kind: str, role: EmulatorRole, world: World, starts: dict[str, bytes]
) -> None:
    role.session.load_state(starts[start])
    goal = parse_place(world, place)
    report = take_trip(role, Leg(goal=goal, max_steps=1500), by_policy(RuleBasedPolicy()))
    assert report.arrived, (kind, report.reason, report.interruptions)
    assert report.state is not None and report.state.overworld.map_name == place
    assert report.planned_steps is not None and report.steps <= report.planned_steps * 1.3 + 10
    assert all(outcome == "victory" for outcome in report.battles)


def test_talking_to_someone_reads_their_words(
    role: EmulatorRole, world: World, starts: dict[str, bytes]
) -> None:
    role.session.load_state(starts["viridian"])
    center = world.by_name["VIRIDIAN_POKECENTER"].id
    role.travel(Leg(goal=MapGoal(map_id=center)))
    nurse = ObjectGoal(map_id=center, index=1)  # across the counter
    report = role.travel(Leg(goal=nurse, interact=True, answer="no"))
    assert report.outcome == "arrived"
    assert any("POKéMON CENTER" in line for line in report.text), report.text
    assert state_of(role.session).decision_point.value == "overworld_free"


def test_a_door_costs_the_games_own_frames_not_a_wait_run_out(
    role: EmulatorRole, world: World, starts: dict[str, bytes]
) -> None:
    # Into a building and out again: two warps, each a fade and (going out) the game's step off the mat,
    # some 70 frames. A wait that ran out after each warp (600 frames) once doubled what a walk cost.
    role.session.load_state(starts["viridian"])
    inside = role.travel(Leg(goal=MapGoal(map_id=world.by_name["VIRIDIAN_POKECENTER"].id)))
    outside = role.travel(Leg(goal=MapGoal(map_id=world.by_name["VIRIDIAN_CITY"].id)))
    for report in (inside, outside):
        assert report.outcome == "arrived", report.reason
        assert report.frames <= 18 * report.steps + 200, (report.steps, report.frames)


def test_a_walk_planned_while_a_trainer_walks_up_stops_at_his_words_not_a_wait_run_out(
    role: EmulatorRole, world: World, starts: dict[str, bytes]
) -> None:
    # Pewter Gym's trainer sees the player on (4, 6) and walks up; the next leg's plan waits for the player
    # to be free, which his words (a text box waiting for a button) never allow: it once waited 600 frames.
    role.session.load_state(starts["pewter"])
    gym = world.by_name["PEWTER_GYM"].id
    assert role.travel(Leg(goal=MapGoal(map_id=gym))).outcome == "arrived"
    seen = role.travel(Leg(goal=SquareGoal(map_id=gym, x=4, y=6)))
    assert (seen.outcome, seen.reason) == ("script", "a trainer saw the player")
    next_leg = role.travel(Leg(goal=SquareGoal(map_id=gym, x=4, y=1)))
    assert (next_leg.outcome, next_leg.reason) == ("script", "a trainer saw the player")
    assert next_leg.frames < 400, next_leg.frames
    assert state_of(role.session).decision_point.value == "dialog_wait"


# -- the commands -------------------------------------------------------------------------------------
def test_engine_goto_reports_where_it_arrived(
    rom_path: Path, starts: dict[str, bytes], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    start, end = tmp_path / "viridian.state", tmp_path / "mart.state"
    start.write_bytes(starts["viridian"])
    code = main(["goto", "--rom", str(rom_path), "--state", str(start), "--to", "VIRIDIAN_MART",
                 "--save-state", str(end), "--json"])  # fmt: skip
    out, err = capsys.readouterr()
    report = json.loads(out)
    assert code == 0 and report["arrived"] and report["map"] == "VIRIDIAN_MART"
    assert set(report) >= {"arrived", "map", "x", "y", "steps", "frames", "battles", "interruptions",
                           "wall_seconds"}  # fmt: skip
    assert "walking to VIRIDIAN_MART" in err
    with open_session(rom_path, EmulatorConfig()) as session:
        session.load_state_file(end)
        assert state_of(session).overworld.map_name == "VIRIDIAN_MART"


def test_engine_goto_refuses_unknown_places_and_other_cartridges_states(
    rom_path: Path, starts: dict[str, bytes], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    start = tmp_path / "viridian.state"
    start.write_bytes(starts["viridian"])
    assert main(["goto", "--rom", str(rom_path), "--state", str(start), "--to", "VIRIDIAN_MARKET"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "did you mean VIRIDIAN_MART" in err[0]
    other = write_rom(tmp_path, title=b"POKEMON BLUE")
    foreign = tmp_path / "foreign.state"
    with EmulatorSession(other) as session:
        session.tick(60)
        foreign.write_bytes(session.export_state())
    assert main(["goto", "--rom", str(rom_path), "--state", str(foreign), "--to", "VIRIDIAN_MART"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "another cartridge" in err[0]


def test_engine_map_draws_the_players_map(
    rom_path: Path, starts: dict[str, bytes], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    start = tmp_path / "pallet.state"
    start.write_bytes(starts["pallet"])
    assert main(["map", "--rom", str(rom_path), "--state", str(start)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("PALLET_TOWN (20 x 18 squares)")
    assert sum(row.count("@") for row in out[1:19]) == 1 and out[-1].startswith("@ you")
    assert main(["map", "--rom", str(rom_path), "--state", str(start), "--map", "oaks_lab"]) == 0
    assert capsys.readouterr().out.startswith("OAKS_LAB (10 x 12 squares)")


def test_a_new_game_explores_from_pallet_town_to_viridian_city(rom_path: Path, tmp_path: Path) -> None:
    """From power-on, no model: the explorer leaves the house, meets Oak at the edge of town, takes a
    starter, and walks Route 1 to Viridian City."""
    code = main(["run", "--rom", str(rom_path), "--local", "--max-decisions", "400",
                 "--data-dir", str(tmp_path)])  # fmt: skip
    assert code == 0
    (run_dir,) = (tmp_path / "runs").iterdir()
    log = (run_dir / "run.log").read_text(encoding="utf-8")
    assert "overworld: ROUTE_1" in log and "overworld: VIRIDIAN_CITY" in log
    assert log.index("overworld: OAKS_LAB") < log.index("overworld: VIRIDIAN_CITY")


def test_every_tunnel_house_sends_its_door_to_the_route_it_names(world: World) -> None:
    """Both ends of each Underground Path (and Diglett's Cave) come out on their own route: the houses'
    map scripts set wLastMap, so the exits are known whichever way the tunnel is walked."""
    from engine.world.world import SCRIPTED_LAST_MAP

    for house, route in SCRIPTED_LAST_MAP.items():
        data = world.by_name[house]
        exits = [warp for warp in data.warps if warp.to_map == LAST_MAP]
        assert exits, house
        for warp in exits:
            landing = world.warp_destination(warp, came_from=None, from_map=data.id)
            assert landing is not None and world.maps[landing[0]].name == route, (house, warp.index)
    gate = world.by_name["ROUTE_22_GATE"]
    landings = [world.warp_destination(warp, came_from=None, from_map=gate.id) for warp in gate.warps]
    assert {world.maps[found[0]].name for found in landings if found is not None} == {"ROUTE_22", "ROUTE_23"}


def test_every_elevator_is_ridden_and_its_doors_are_never_walked_through(world: World) -> None:
    """Where an elevator's doors lead is what its panel last chose: a plan rides it (pret
    scripts/*Elevator.asm ...WarpMaps) and never takes the doors as if they led to their static warp."""
    for name, floors in (
        ("CELADON_MART_ELEVATOR", 5),
        ("SILPH_CO_ELEVATOR", 11),
        ("ROCKET_HIDEOUT_ELEVATOR", 3),
    ):
        lift = world.by_name[name]
        rides = [edge for x, y in world.squares(lift.id) for edge in world.edges((lift.id, x, y))
                 if edge.kind == "lift"]  # fmt: skip
        assert len(rides) == floors, name
        assert all(edge.to is not None and world.walkable(*edge.to) for edge in rides), name
    lift = world.by_name["CELADON_MART_ELEVATOR"]
    inside = Surroundings(here=(lift.id, 1, 3), came_from=None, indoor_group=frozenset(),
                          blocked=frozenset(), gated=frozenset(), watched=frozenset())  # fmt: skip
    found = Planner(world, inside).plan(MapTarget(world.by_name["CELADON_MART_1F"].id))
    assert found is not None and [edge.kind for edge in found.edges][-1] == "lift"
    assert found.edges[-1].floor == 0  # 1F, the menu's first entry


def test_the_sea_is_crossed_only_with_surf_and_seafoams_currents_are_not(world: World) -> None:
    pallet, cinnabar = world.by_name["PALLET_TOWN"], world.by_name["CINNABAR_ISLAND"]
    start = (pallet.id, 9, 12)
    on_foot = Surroundings(here=start, came_from=None, indoor_group=frozenset(), blocked=frozenset(),
                           gated=frozenset(), watched=frozenset())  # fmt: skip
    assert Planner(world, on_foot).plan(MapTarget(cinnabar.id)) is None
    surfing = replace(on_foot, field_moves=frozenset({"SURF"}))
    found = Planner(world, surfing).plan(MapTarget(cinnabar.id))
    assert found is not None and [edge.kind for edge in found.edges].count("surf") == 1
    assert {world.maps[edge.to[0]].name for edge in found.edges if edge.to} >= {"ROUTE_21"}
    cycling = world.by_name["ROUTE_17"]
    starts = [
        e for x, y in world.squares(cycling.id) for e in world.edges((cycling.id, x, y)) if e.kind == "surf"
    ]
    assert not starts
    # Seafoam's two lowest floors are swum only once their currents' gates open: every square a SURF
    # starts onto there is one of the gates' (all of the floor's water).
    from engine.world.gates import GATES
    from engine.world.planner import gate_squares

    for name in ("SEAFOAM_ISLANDS_B3F", "SEAFOAM_ISLANDS_B4F"):
        data = world.by_name[name]
        water = {square for gate in GATES if gate.map_name == name for square in gate_squares(world, gate)}
        onto = {
            e.to for x, y in world.squares(data.id) for e in world.edges((data.id, x, y)) if e.kind == "surf"
        }
        assert onto and onto <= water and len(water) == len(world.water_squares(data.id)), name


def test_the_doors_map_scripts_draw_stand_on_floor_and_the_mansions_holes_drop_a_floor(world: World) -> None:
    """Silph Co.'s locked doors, the mansion's switch doors and the Cinnabar Gym's gates are floor in the
    cartridge's blocks (the scripts draw them shut at run time): every gate square of theirs must be one
    the player could stand on once open."""
    from engine.world.gates import GATES

    drawn = [g for g in GATES if g.map_name.startswith(("SILPH_CO", "POKEMON_MANSION", "CINNABAR_GYM"))]
    assert len(drawn) == 20 + 13 + 6
    for gate in drawn:
        data = world.by_name[gate.map_name]
        assert all(world.walkable(data.id, x, y) for x, y in gate.squares), (gate.map_name, gate.squares)
    third, first = world.by_name["POKEMON_MANSION_3F"], world.by_name["POKEMON_MANSION_1F"]
    falls = [e for x, y in world.squares(third.id) for e in world.edges((third.id, x, y))
             if e.via is not None and e.via[1:] == (16, 14)]  # fmt: skip
    assert falls and all(e.to == (first.id, 16, 14) for e in falls)


def test_engine_goto_sees_a_nurse_first_when_the_team_is_worn(
    rom_path: Path, starts: dict[str, bytes], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with open_session(rom_path, EmulatorConfig()) as session:
        session.load_state(starts["viridian"])
        set_party(session, [("SQUIRTLE", 12)])
        set_party_hp(session, 0, 4)  # of 35: a walk through grass would end in a whiteout
        worn = tmp_path / "worn.state"
        worn.write_bytes(session.export_state())
    end = tmp_path / "end.state"
    code = main(["goto", "--rom", str(rom_path), "--state", str(worn), "--to", "VIRIDIAN_MART",
                 "--save-state", str(end), "--json"])  # fmt: skip
    out, err = capsys.readouterr()
    assert code == 0 and json.loads(out)["map"] == "VIRIDIAN_MART"
    assert "healed at VIRIDIAN_POKECENTER" in err, err
    with open_session(rom_path, EmulatorConfig()) as session:
        session.load_state_file(end)
        squirtle = state_of(session).party[0]
        assert squirtle.hp == squirtle.max_hp


def test_a_trip_too_hard_for_the_team_stops_in_one_line_after_its_whiteouts(
    role: EmulatorRole, world: World, starts: dict[str, bytes]
) -> None:
    role.session.load_state(starts["viridian"])
    set_party(role.session, [("MAGIKARP", 5, ["SPLASH"])])  # nothing it does hurts anyone
    goal = parse_place(world, "PEWTER_CITY")  # through the grass of Route 2 and the forest
    report = take_trip(role, Leg(goal=goal, max_steps=4000), by_policy(RuleBasedPolicy()))
    assert not report.arrived and report.outcome == "blocked"
    assert report.reason.startswith("the team is too weak for the way: lost to "), report.reason
    assert " and " in report.reason and report.battles.count("defeat") == 2
