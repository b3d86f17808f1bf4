"""Playing the story: `engine run` from power-on, and from mid-game save states, with no API key.

    .venv/bin/python -m benchmarks.story --rom RED --rom BLUE [--seeds 3] [--until beat_misty] [--no-states]

Each run is the console command a user types (`engine run --rom ROM --local --until NAME --seed S`), in a
fresh data directory; its summary.json gives the milestones with their splits (frame, decision, wall
seconds since the run began), the battles won and lost, the whiteouts (battles lost: every member fainted)
and the decisions, and decisions.jsonl the legs spent training for a boss (their steps walked).

Mid-game save states are made from power-on on the same cartridge (tests/support/story.py: the story's
event flags, people, party and bag at that point, then a warp to the town), with a weak and a strong team,
and played until the next boss is beaten. Printed: a table of splits per run, then one line per run.
Run from the repository root; ~1 minute a run on a 2-core machine.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from engine.config import EmulatorConfig
from engine.emulator.session import open_session
from engine.world.world import load_world
from tests.support.story import story_state

ENGINE = str(Path(sys.executable).parent / "engine")
# (name, stage, town, party, the objective that ends the run)
MID_GAME = (
    ("Pewter, weak team (CHARMANDER L9)", "pokedex", "PEWTER_CITY", (("CHARMANDER", 9),), "beat_brock"),
    ("Pewter, strong team (SQUIRTLE L14)", "pokedex", "PEWTER_CITY", (("SQUIRTLE", 14),), "beat_brock"),
    ("Boulder Badge, weak team (WARTORTLE L16)", "boulder", "PEWTER_CITY", (("WARTORTLE", 16),),
     "beat_misty"),
    ("Boulder Badge, strong team (IVYSAUR L24, PIKACHU L20)", "boulder", "PEWTER_CITY",
     (("IVYSAUR", 24), ("PIKACHU", 20)), "beat_misty"),
)  # fmt: skip


@dataclass
class Played:
    label: str
    until: str
    reached: bool
    wall: float
    decisions: int
    won: int
    lost: int
    training_legs: int
    training_steps: int
    splits: dict[str, tuple[float, int, int]] = field(default_factory=dict)  # seconds, decision, frame


def play(label: str, rom: Path, until: str, seed: int, max_decisions: int, state: Path | None) -> Played:
    with tempfile.TemporaryDirectory() as data:
        command = [ENGINE, "run", "--rom", str(rom), "--local", "--data-dir", data, "--until", until,
                   "--seed", str(seed), "--max-decisions", str(max_decisions)]  # fmt: skip
        if state is not None:
            command += ["--state", str(state)]
        started = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True)
        wall = time.perf_counter() - started
        if done.returncode != 0:
            print(f"{label}: the run failed: {done.stderr.strip().splitlines()[-1]}")
        run_dir = next(Path(data, "runs").iterdir())
        summary = json.loads((run_dir / "summary.json").read_text())
        legs = [json.loads(line) for line in (run_dir / "decisions.jsonl").read_text().splitlines()]
    training = [
        leg for leg in legs if leg.get("kind") == "overworld" and ": train (" in leg.get("reason", "")
    ]
    outcomes = [battle["outcome"] for battle in summary["battles"]]
    return Played(
        label=label, until=until, reached=summary["stopped"] == "until", wall=wall,
        decisions=summary["decisions"], won=outcomes.count("victory"), lost=outcomes.count("defeat"),
        training_legs=len(training), training_steps=sum(leg.get("steps", 0) for leg in training),
        splits={s["name"]: (s["seconds"], s["decision"], s["frame"]) for s in summary["milestones"]
                if not s["at_start"]},
    )  # fmt: skip


def make_states(rom: Path, folder: Path) -> list[tuple[str, Path, str]]:
    made = []
    for index, (label, stage, town, party, until) in enumerate(MID_GAME):
        with open_session(rom, EmulatorConfig()) as session:
            story_state(session, load_world(session.rom_bytes), stage, town, party)
            path = folder / f"mid{index}.state"
            path.write_bytes(session.export_state())
        made.append((label, path, until))
    return made


def print_splits(runs: list[Played]) -> None:
    names = list(dict.fromkeys(name for run in runs for name in run.splits))
    print(f"{'objective':<22}" + "".join(f"{run.label:>16}" for run in runs))
    for name in names:
        cells = [run.splits.get(name) for run in runs]
        print(
            f"{name:<22}" + "".join(f"{f'{c[0]:.1f} s / {c[1]}':>16}" if c else f"{'-':>16}" for c in cells)
        )


def print_line(run: Played) -> None:
    print(f"{run.label}: {run.until} {'reached' if run.reached else 'NOT reached'} in {run.wall:.1f} s wall, "
          f"{run.decisions} decisions, battles {run.won} won / {run.lost} lost (whiteouts), "
          f"training {run.training_legs} legs / {run.training_steps} steps, "
          f"{sum(1 for split in run.splits if split in ORAK)}/12 milestones")  # fmt: skip


ORAK = (
    "leave_house", "meet_oak", "get_starter", "rival_battle", "reach_viridian", "get_parcel",
    "deliver_parcel", "town_map", "buy_poke_balls", "catch_pokemon", "reach_pewter", "beat_brock",
)  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rom", type=Path, action="append", required=True)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--until", default="beat_misty")
    parser.add_argument("--max-decisions", type=int, default=4000)
    parser.add_argument("--no-states", action="store_true", help="skip the mid-game save states")
    args = parser.parse_args()
    for rom in args.rom:
        print(f"== {rom.name}: from power-on, until {args.until}")
        runs = []
        for seed in range(args.seeds):
            runs.append(play(f"seed {seed}", rom, args.until, seed, args.max_decisions, None))
            print_line(runs[-1])
        print_splits(runs)
        if args.no_states:
            continue
        print(f"== {rom.name}: from mid-game save states")
        with tempfile.TemporaryDirectory() as folder:
            for label, path, until in make_states(rom, Path(folder)):
                print_line(play(label, rom, until, 0, args.max_decisions, path))


if __name__ == "__main__":
    main()
