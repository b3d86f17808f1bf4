"""Travel: trips from fixed story states, walking throughput against raw emulation, and the Ray path.

    .venv/bin/python -m benchmarks.trips --rom ROM [--rom ROM2] [--rounds 3] [--no-ray] [--only TEXT]

Start states are built from power-on on each cartridge (tests/support/story.py: the story's event flags,
people and party, then a warp to a town), and for the later trips played: the engine's own run from
power-on until an objective (PLAYED), its stop checkpoint. Each trip is one `take_trip` (what `engine
goto` runs): legs planned on the cartridge's maps and walked with every step checked on RAM, battles on
the way played by the rule-based policy. Printed per trip: arrived, steps walked against the planner's own
shortest plan at the start, battles, emulated frames and wall seconds (median over the rounds),
in-process and on Ray (one EmulatorActor of a private Ray instance, the trip driven from this process: one
actor call per leg, per battle decision and per cleared dialog).

Walking throughput: six legs back and forth across Viridian City (no grass, no trainers); frames emulated
per wall second, planning included, against `PyBoy.tick` running the same number of frames from the same
state in the same process (in blocks, no checks: the ceiling). Once on a first visit (the walking graph of
every map the planner looks at is worked out on the way) and once more with those graphs kept, as they are
for the rest of a run. Run from the repository root.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from engine.config import EmulatorConfig, PlayerConfig
from engine.emulator.session import open_session
from engine.mechanics.battle_driver import by_policy
from engine.mechanics.port import EmulatorPort
from engine.mechanics.role import EmulatorRole
from engine.mechanics.trip import TripReport, take_trip
from engine.tactician.rule_based import RuleBasedPolicy
from engine.world.goals import Leg, SquareGoal
from engine.world.places import parse_place
from engine.world.world import World, load_world
from tests.support.story import STARTS, story_state

TRIPS = (
    ("Viridian Pokémon Center -> Viridian Mart", "viridian_center", "VIRIDIAN_MART"),
    ("Pallet Town -> Viridian City (Route 1)", "pallet", "VIRIDIAN_CITY"),
    ("Viridian City -> Viridian Forest", "viridian", "VIRIDIAN_FOREST"),
    ("Viridian City -> Pewter City (Route 2, the forest)", "viridian", "PEWTER_CITY"),
    ("Pewter City -> Pewter Gym", "pewter", "PEWTER_GYM"),
    ("Viridian Pokémon Center -> Pewter Gym", "viridian_center", "PEWTER_GYM"),
)
# Start states the engine's own run makes from power-on (rule-based, no key): the objective it stops at.
PLAYED = {"after_ticket": "get_ss_ticket", "cut_taught": "teach_cut", "surf_taught": "teach_surf",
          "card_key": "get_card_key", "cyclist": "wake_route16_snorlax"}  # fmt: skip
PLAYED_TRIPS = (
    ("Bill's house (S.S. Ticket) -> Vermilion City", "after_ticket", "VERMILION_CITY"),
    ("Bill's house (S.S. Ticket) -> Vermilion Gym (CUT's tree)", "after_ticket", "VERMILION_GYM"),
    ("Bill's house (S.S. Ticket) -> S.S. Anne captain's room", "after_ticket", "SS_ANNE_CAPTAINS_ROOM"),
    ("Route 6 (CUT taught) -> Vermilion Gym (the tree cut)", "cut_taught", "VERMILION_GYM"),
    ("Route 6 (CUT taught) -> Lavender Town (Rock Tunnel)", "cut_taught", "LAVENDER_TOWN"),
    ("Fuchsia (SURF taught) -> Cinnabar Island (by sea)", "surf_taught", "CINNABAR_ISLAND"),
    ("Fuchsia (SURF taught) -> Celadon Gym", "surf_taught", "CELADON_GYM"),
    ("Silph Co. 5F (Card Key) -> Silph Co. 11F (elevator)", "card_key", "SILPH_CO_11F"),
    ("Silph Co. 5F (Card Key) -> Giovanni's office (a locked door)", "card_key", "SILPH_CO_11F:6,10"),
    ("Route 16 (BICYCLE, SNORLAX woken) -> Fuchsia City (Cycling Road)", "cyclist", "FUCHSIA_CITY"),
)
WALK_SQUARES = ((1, 34, 2), (1, 6, 10), (1, 30, 30), (1, 35, 17), (1, 6, 10), (1, 34, 2))  # Viridian City
RAW_BLOCK = 64


@dataclass
class Measured:
    trip: str
    arrived: bool
    steps: int
    planned: int | None
    battles: int
    frames: int
    wall: float
    field_moves: int
    reason: str


def build_starts(rom: Path, world: World) -> dict[str, bytes]:
    states = {}
    for name, (stage, town) in STARTS.items():
        with open_session(rom, EmulatorConfig()) as session:
            story_state(session, world, stage, town)
            states[name] = session.export_state()
    role = EmulatorRole.on_session(open_session(rom, EmulatorConfig()))
    role.start(states["viridian"])
    take_trip(role, Leg(goal=parse_place(world, "VIRIDIAN_POKECENTER")), by_policy(RuleBasedPolicy()))
    states["viridian_center"] = role.session.export_state()
    role.close()
    return states


def played_states(rom: Path, wanted: set[str] | None = None) -> dict[str, bytes]:
    """The game where the engine's own run from power-on reached each objective of PLAYED (those of
    `wanted`, if given): the run's stop checkpoint (what a user's `engine run --until` leaves)."""
    from engine.cli import main as engine_main

    states = {}
    for name, objective in PLAYED.items():
        if wanted is not None and name not in wanted:
            continue
        print(f"{rom.name}: playing from power-on until {objective} ...", flush=True)
        with tempfile.TemporaryDirectory() as folder:
            code = engine_main(
                ["run", "--rom", str(rom), "--local", "--until", objective, "--data-dir", folder]
            )
            if code != 0:
                raise SystemExit(f"the run to {objective} ended with exit code {code}")
            stop = sorted(Path(folder, "checkpoints").glob("*/*-stop"))[-1]
            states[name] = (stop / "emulator.state").read_bytes()
    return states


def run_trip(emulator: EmulatorPort, state: bytes, world: World, place: str) -> TripReport:
    emulator.start(state)
    leg = Leg(goal=parse_place(world, place), max_steps=2000)
    return take_trip(emulator, leg, by_policy(RuleBasedPolicy()))


def measure(name: str, report: TripReport) -> Measured:
    return Measured(name, report.arrived, report.steps, report.planned_steps, len(report.battles),
                    report.frames, report.wall_seconds, len(report.field_moves), report.reason)  # fmt: skip


def walking_throughput(rom: Path, state: bytes, warm: bool) -> tuple[float, float, int]:
    """(frames per wall second walking, raw PyBoy.tick frames per second, frames). Warm: the legs are
    walked once before the clock starts, so the walking graphs of the maps the planner looks at are
    already worked out, as they are for the rest of a run once a map has been visited."""
    role = EmulatorRole.on_session(open_session(rom, EmulatorConfig()))
    role.world  # noqa: B018  the cartridge's maps are read once per run, before any walking
    for _ in range(2 if warm else 1):
        role.start(state)
        start, first = time.perf_counter(), role.frame_count()
        for map_id, x, y in WALK_SQUARES:
            report = role.travel(Leg(goal=SquareGoal(map_id=map_id, x=x, y=y)))
            assert report.outcome == "arrived", report.reason
        walking, frames = time.perf_counter() - start, role.frame_count() - first
    role.start(state)
    tick = role.session.pyboy.tick
    start = time.perf_counter()
    for done in range(0, frames, RAW_BLOCK):
        tick(min(RAW_BLOCK, frames - done), False, False)
    raw = time.perf_counter() - start
    role.close()
    return frames / walking, frames / raw, frames


def ray_emulator(rom: Path) -> tuple[EmulatorPort, Callable[[], None]]:
    import ray

    from engine.actors.ray_handles import RayHandle
    from engine.actors.shells import ROLE_SHELLS

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    make = partial(EmulatorRole, rom, EmulatorConfig(), PlayerConfig())
    handle: RayHandle[Any] = RayHandle("emulator", ROLE_SHELLS["emulator"].remote(make))
    handle.call.game_name()
    return handle.call, ray.shutdown


def bench_cartridge(rom: Path, rounds: int, with_ray: bool, only: str | None = None) -> None:
    world = load_world(rom.read_bytes())
    print(f"\n{rom.name}: building start states from power-on ...", flush=True)
    trips = [trip for trip in TRIPS + PLAYED_TRIPS if only is None or only.lower() in trip[0].lower()]
    states = build_starts(rom, world) | played_states(rom, {start for _, start, _ in trips})
    local = EmulatorRole.on_session(open_session(rom, EmulatorConfig()))
    results: dict[str, list[Measured]] = {}
    ray_results: dict[str, list[Measured]] = {}
    remote, stop = ray_emulator(rom) if with_ray else (None, None)
    try:
        for _ in range(rounds):
            for name, start, place in trips:
                report = run_trip(local, states[start], world, place)
                results.setdefault(name, []).append(measure(name, report))
                if remote is not None:
                    report = run_trip(remote, states[start], world, place)
                    ray_results.setdefault(name, []).append(measure(name, report))
    finally:
        if stop is not None:
            stop()
    _print_trips(results, ray_results)
    for warm in (False, True):
        walked, raw, frames = walking_throughput(rom, states["viridian"], warm)
        graphs = "maps' walking graphs already worked out" if warm else "first visit"
        print(f"walking {frames} frames across Viridian City ({graphs}): {walked:,.0f} frames/s against raw "
              f"PyBoy.tick {raw:,.0f} frames/s: {walked / raw:.2f}x")  # fmt: skip


def _print_trips(results: dict[str, list[Measured]], ray_results: dict[str, list[Measured]]) -> None:
    print(f"{'trip':62} {'arrived':>7} {'steps':>5} {'plan':>5} {'btl':>3} {'cut':>3} {'frames':>7} "
          f"{'local s':>8} {'Ray s':>7} {'Ray/local':>9}")  # fmt: skip
    for name, runs in results.items():
        first = runs[0]
        wall = statistics.median(run.wall for run in runs)
        ray_runs = ray_results.get(name, [])
        ray_wall = statistics.median(run.wall for run in ray_runs) if ray_runs else None
        arrived = all(run.arrived for run in runs + ray_runs)
        ray_text = f"{'-':>7} {'-':>9}"
        if ray_wall is not None:
            ray_text = f"{ray_wall:7.2f} {ray_wall / wall:8.2f}x"
        counts = f"{first.steps:5d} {first.planned or 0:5d} {first.battles:3d} {first.field_moves:3d}"
        shown = "yes" if arrived else "NO"
        print(f"{name:62} {shown:>7} {counts} {first.frames:7d} {wall:8.2f} {ray_text}")
        if not arrived:
            print(f"    {first.reason}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rom", type=Path, action="append", required=True, help="repeat for Red and Blue")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--no-ray", action="store_true", help="in-process only")
    parser.add_argument("--only", metavar="TEXT", help="only the trips whose name holds TEXT")
    args = parser.parse_args()
    for rom in args.rom:
        bench_cartridge(rom, args.rounds, not args.no_ray, args.only)


if __name__ == "__main__":
    main()
