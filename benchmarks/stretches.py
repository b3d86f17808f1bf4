"""Does experience make the same stretch of the game cheaper? Each hard stretch played twice from one state.

    .venv/bin/python -m benchmarks.stretches --rom ROM --from-run DATA_DIR [DATA_DIR ...]
        [--targets beat_lt_surge,beat_erika,...] [--weaken 4] [--seed 0] [--wall-limit 1800]
        [--out DIR] [--report DIR]

The states are a power-on run's own: for each target milestone (by default Lt. Surge, Erika, Koga, Sabrina,
Giovanni and the Hall of Fame, whose stretch is the whole gauntlet from the lobby), the earlier of the
first checkpoint taken at a battle's end after the milestone the run reached just before it and the start
state of the first battle after that milestone (every battle's start state is kept with its record; a
run keeps only its newest five checkpoints unless `checkpoint.keep: 1000` is in its --config). Each state
is used as the run left it and, with --weaken N, with every member N levels lower (the party edited,
nothing else). A battle's start state is first played to the battle's end (`engine run --state …
--max-battles 1`) and its stop checkpoint edited instead: a battle's own copy of the member in front would
not follow an edit made inside it. When that battle was the target's own boss (the run went straight to
it), the weakened stretch is left out and says so: it would start past its end.

Each state is played to its target with the command a user types (`engine run --local --state … --until
TARGET --seed S`) twice with the same seed: A in a fresh data folder (an empty lesson memory), then B in
another fresh folder holding a copy of the memory A wrote. Per play: whether the target was reached,
frames, defeats, battles and wall seconds. Then B against A per state, the share of states where B took
at least 20% fewer frames or had fewer defeats, the states where B was worse, and a sign test over the
frames. One JSON line per play in OUT/results.jsonl; `--report DIR` prints the tables again. Figures only.
"""

from __future__ import annotations

import argparse
import json
import math
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from benchmarks.processes import stop_like_a_user
from engine.config import EmulatorConfig
from engine.emulator.session import open_session
from engine.game.state import decode_state
from engine.jsonl import read_objects
from engine.story.conditions import any_of
from engine.story.graph import story_graph
from tests.support.scenarios import set_party

ENGINE = str(Path(sys.executable).parent / "engine")
TARGETS = ("beat_lt_surge", "beat_erika", "beat_koga", "beat_sabrina", "beat_giovanni", "enter_hall_of_fame")
# Stretches that begin after an earlier milestone than the one reached just before them: the Hall of Fame's
# is the whole gauntlet, from the Indigo Plateau's lobby (its milestones come at the Champion's frame).
BEGINS_AFTER = {"enter_hall_of_fame": "cross_victory_road"}
BETTER = 0.8  # B "clearly better" on frames: at most this share of A's
POLL_SECONDS = 2.0


@dataclass(frozen=True)
class Stretch:
    name: str  # target/variant/source
    target: str
    state: Path


def starts(data_dir: Path, targets: tuple[str, ...]) -> list[tuple[str, Path]]:
    """(target, the overworld state the stretch starts from) for each target the run reached."""
    summary = json.loads(sorted(data_dir.glob("runs/*/summary.json"))[0].read_text())
    milestones = [m for m in summary.get("milestones", []) if not m.get("at_start")]
    names = [m["name"] for m in milestones]
    kept = sorted((data_dir / "checkpoints" / summary["run_id"]).glob("*/manifest.json"))
    manifests = [(path.parent, json.loads(path.read_text())) for path in kept]
    found = []
    for target in targets:
        if target not in names or names.index(target) == 0:
            continue
        at = names.index(target)
        before = names.index(BEGINS_AFTER[target]) if BEGINS_AFTER.get(target) in names else at - 1
        since, until = milestones[before]["frame"], milestones[at]["frame"]
        after = [(int(m["frames"]), folder / "emulator.state") for folder, m in manifests
                 if m.get("reason") == "battle_end" and since <= int(m["frames"]) < until]  # fmt: skip
        battle = _battle_start(data_dir / "runs" / summary["run_id"], since, until)
        earliest = min(after[:1] + ([battle] if battle is not None else []), default=None)
        if earliest is not None:
            found.append((target, earliest[1]))
    return found


def _battle_start(run: Path, since: int, until: int) -> tuple[int, Path] | None:
    """The start frame and state of the run's first battle in [since, until) (every battle's start state is
    kept beside its record in runs/<id>/battles/; the play begins with that battle): a run that kept only
    its newest checkpoints has none near the milestone."""
    for record in sorted(run.glob("battles/*.json")):
        start = json.loads(record.read_text()).get("start_frame")
        if isinstance(start, int) and since <= start < until and record.with_suffix(".state").is_file():
            return start, record.with_suffix(".state")
    return None


def out_of_battle(rom: Path, state: Path, target: str, seed: int, folder: Path) -> Path | None:
    """`state` itself when it is a checkpoint's (taken out of battle); for a battle's start state, the stop
    checkpoint of a run that plays only that battle (None when the run kept none, or when that battle
    already reached the target)."""
    if state.name == "emulator.state":
        return state
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    command = [ENGINE, "run", "--rom", str(rom), "--local", "--state", str(state), "--max-battles", "1",
               "--seed", str(seed), "--data-dir", str(folder)]  # fmt: skip
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=600, check=False)
    summaries = [json.loads(path.read_text()) for path in folder.glob("runs/*/summary.json")]
    if any(
        m.get("name") == target and not m.get("at_start") for s in summaries for m in s.get("milestones", [])
    ):
        return None
    kept = sorted(folder.glob("checkpoints/*/*/emulator.state"))  # folders are numbered in order
    return kept[-1] if kept else None


def already_done(rom: Path, state: Path, target: str) -> bool:
    """The target's objective is done in this state: the battle played out to reach it was the target's
    own boss (the run went straight to it), so the weakened stretch would start past its end."""
    with open_session(rom, EmulatorConfig()) as session:
        session.load_state_file(state)
        game = decode_state(session.memory_image(), session.ram_map)
    return any_of(story_graph().named(target).done_when, game)


def weakened(rom: Path, state: Path, levels: int, out: Path) -> Path:
    """The state with every member `levels` lower (at least 2), moves kept; the rest as it was."""
    with open_session(rom, EmulatorConfig()) as session:
        session.load_state_file(state)
        game = decode_state(session.memory_image(), session.ram_map)
        members = [(mon.species_name or "", max(2, mon.level - levels), [m.name for m in mon.moves if m.name])
                   for mon in game.party]  # fmt: skip
        set_party(session, members)
        out.write_bytes(session.save_state())
    return out


def play(rom: Path, stretch: Stretch, seed: int, folder: Path, wall_limit: float) -> dict[str, object]:
    """One play of the stretch in `folder` (whatever memory it already holds)."""
    command = [ENGINE, "run", "--rom", str(rom), "--local", "--state", str(stretch.state), "--until",
               stretch.target, "--seed", str(seed), "--data-dir", str(folder)]  # fmt: skip
    started = time.perf_counter()
    with (folder / "out.log").open("w") as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        while process.poll() is None and time.perf_counter() < started + wall_limit:
            time.sleep(POLL_SECONDS)
        if process.poll() is None:  # stopped the way a user stops it: the summary is still written
            stop_like_a_user(process)
    wall = time.perf_counter() - started
    runs = sorted(folder.glob("runs/*/summary.json"))
    summary = json.loads(runs[-1].read_text()) if runs else {}
    battles = read_objects(runs[-1].parent / "battles.jsonl").entries if runs else []
    reached = any(
        m.get("name") == stretch.target and not m.get("at_start") for m in summary.get("milestones", [])
    )
    return {"stretch": stretch.name, "reached": reached, "frames": int(summary.get("frames") or 0),
            "defeats": sum(b.get("outcome") == "defeat" for b in battles), "battles": len(battles),
            "wall_s": round(wall, 1)}  # fmt: skip


def pair(rom: Path, stretch: Stretch, seed: int, out: Path, wall_limit: float) -> list[dict[str, object]]:
    rows = []
    first, second = out / stretch.name.replace("/", "-") / "A", out / stretch.name.replace("/", "-") / "B"
    for folder in (first, second):
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
    rows.append(play(rom, stretch, seed, first, wall_limit) | {"side": "A"})
    shutil.copytree(first / "memory", second / "memory")
    rows.append(play(rom, stretch, seed, second, wall_limit) | {"side": "B"})
    return rows


def report(rows: list[dict[str, object]]) -> None:
    sides: dict[str, dict[str, dict[str, object]]] = {}
    for row in rows:
        sides.setdefault(str(row["stretch"]), {})[str(row["side"])] = row
    print(
        "| stretch | A frames | B frames | B/A | A defeats | B defeats | A wall s | B wall s | reached A/B |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    better = worse = fewer = more = 0
    pairs = [(name, s["A"], s["B"]) for name, s in sides.items() if "A" in s and "B" in s]
    for name, a, b in pairs:
        fa, fb = int(str(a["frames"])), int(str(b["frames"]))
        ratio = fb / fa if fa else math.nan
        da, db = int(str(a["defeats"])), int(str(b["defeats"]))
        clearly = ratio <= BETTER or db < da
        no_worse = (fb <= fa or not a["reached"]) and db <= da and (b["reached"] or not a["reached"])
        better += clearly
        worse += not no_worse
        fewer += fb < fa
        more += fb > fa
        print(f"| {name} | {fa:,} | {fb:,} | {ratio:.2f} | {da} | {db} | {a['wall_s']} | {b['wall_s']} | "
              f"{'yes' if a['reached'] else 'no'}/{'yes' if b['reached'] else 'no'} |")  # fmt: skip
    n = len(pairs)
    print(f"\n{n} states: B at least {1 - BETTER:.0%} fewer frames or fewer defeats on {better}; B worse "
          f"than A (more frames or defeats, or short of the target A reached) on {worse}")  # fmt: skip
    print(
        f"frames: B fewer on {fewer}, more on {more}; sign test p = {_sign_test(fewer, more):.3f} (two-sided)"
    )


def _sign_test(wins: int, losses: int) -> float:
    n = wins + losses
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, k) for k in range(0, min(wins, losses) + 1)) / 2**n
    return float(min(1.0, 2 * tail))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rom", type=Path)
    parser.add_argument("--from-run", type=Path, nargs="*", default=[])
    parser.add_argument("--targets", default=",".join(TARGETS))
    parser.add_argument(
        "--weaken", type=int, default=0, help="also play each state with members this many levels lower"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--wall-limit", type=float, default=1800.0, help="seconds a play may take")
    parser.add_argument("--out", type=Path, default=Path("stretches-out"))
    parser.add_argument("--report", type=Path, help="print the tables of an earlier --out, without playing")
    args = parser.parse_args()
    if args.report is not None:
        report(read_objects(args.report / "results.jsonl").entries)
        return
    if args.rom is None or not args.from_run:
        parser.error("--rom and --from-run are needed to play")
    args.out.mkdir(parents=True, exist_ok=True)
    stretches = []
    for data_dir in args.from_run:
        for target, state in starts(data_dir, tuple(args.targets.split(","))):
            stretches.append(Stretch(f"{target}/as left/{data_dir.name}", target, state))
            name = f"{target}-{data_dir.name}"
            after = (
                out_of_battle(args.rom, state, target, args.seed, args.out / "battles-out" / name)
                if args.weaken
                else None
            )
            if after is not None and already_done(args.rom, after, target):
                print(f"{target}/-{args.weaken} levels/{data_dir.name}: left out, the battle before it was "
                      f"{target}'s own", flush=True)  # fmt: skip
            elif after is not None:
                edited = weakened(args.rom, after, args.weaken, args.out / f"{name}-weak.state")
                stretches.append(Stretch(f"{target}/-{args.weaken} levels/{data_dir.name}", target, edited))
    print(f"{len(stretches)} stretches from {len(args.from_run)} runs", flush=True)
    rows = []
    for number, stretch in enumerate(stretches, 1):
        for row in pair(args.rom, stretch, args.seed, args.out, args.wall_limit):
            rows.append(row)
            with (args.out / "results.jsonl").open("a") as out:
                out.write(json.dumps(row) + "\n")
            print(f"[{number}/{len(stretches)}] {stretch.name} {row['side']}: {row['frames']:,} frames, "
                  f"{row['defeats']} defeats, {row['wall_s']} s", flush=True)  # fmt: skip
    report(rows)


if __name__ == "__main__":
    main()
