"""The whole game as a speedrun: power-on to the Hall of Fame on many seeds, with no API key.

    .venv/bin/python -m benchmarks.speedrun --rom RED --rom BLUE [--seeds 10-19] [--workers 2]
        [--out DIR] [--wall-limit SECONDS] [--splits 3] [--again] [--report DIR]

Each run is the command a user types (`engine run --rom ROM --local --seed S --data-dir D`), in its own
data folder under --out; it stops by itself in the Hall of Fame (or at the wall-time limit, which counts
as not finished). Per run: whether it finished, the frames and the game's own clock read from RAM at the
end (wPlayTimeHours/Minutes/Seconds, from the run's last checkpoint), wall seconds, trainer and wild
battles, Elite Four entries (battles against LORELEI), defeats, the plan's changes after a defeat ("plan:"
lines) and the longest stretch between two milestones. Then a table of splits (frames and game clock per
milestone) for the first --splits runs, the spread over all runs, and one JSON line per run in
DIR/results.jsonl. `--report DIR` prints the tables of an earlier --out without playing. Figures only.

With --again each seed is played a second time from power-on in the same data folder, after the first
run: the second run reads what the first kept in the lesson memory (its boss fights, engine/experience;
its measured moves). Its rows carry "again": true, and a table puts each second run beside its first.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from engine.config import EmulatorConfig
from engine.emulator.session import open_session
from engine.game.state import decode_state
from engine.jsonl import read_objects

ENGINE = str(Path(sys.executable).parent / "engine")
FRAMES_PER_SECOND = 59.7275
GAUNTLET_FIRST = "LORELEI"


def seeds_of(text: str) -> list[int]:
    """'10-19' or '3,5,8'."""
    if "-" in text:
        low, high = text.split("-", 1)
        return list(range(int(low), int(high) + 1))
    return [int(part) for part in text.split(",")]


def play_twice(rom: Path, seed: int, folder: Path, wall_limit: float, again: bool) -> list[dict[str, object]]:
    first = play(rom, seed, folder, wall_limit)
    return [first, play(rom, seed, folder, wall_limit) | {"again": True}] if again else [first]


def play(rom: Path, seed: int, folder: Path, wall_limit: float) -> dict[str, object]:
    folder.mkdir(parents=True, exist_ok=True)
    command = [ENGINE, "run", "--rom", str(rom), "--local", "--seed", str(seed), "--data-dir", str(folder)]
    started = time.perf_counter()
    with (folder / "out.log").open("w") as log, contextlib.suppress(subprocess.TimeoutExpired):
        subprocess.run(command, stdout=log, stderr=subprocess.STDOUT, timeout=wall_limit, check=False)
    wall = time.perf_counter() - started
    return measure(rom, seed, folder, wall)


def measure(rom: Path, seed: int, folder: Path, wall: float | None = None) -> dict[str, object]:
    runs = sorted((folder / "runs").glob("*")) if (folder / "runs").exists() else []
    if not runs:
        return {"game": rom.stem, "seed": seed, "finished": False, "error": "no run folder"}
    run = runs[-1]
    summary = json.loads((run / "summary.json").read_text()) if (run / "summary.json").exists() else {}
    battles = read_objects(run / "battles.jsonl").entries
    milestones = summary.get("milestones") or []
    log = (folder / "out.log").read_text(errors="replace") if (folder / "out.log").exists() else ""
    return {
        "game": rom.stem,
        "seed": seed,
        "finished": summary.get("stopped") == "story_done",
        "stopped": summary.get("stopped"),
        "frames": summary.get("frames"),
        "clock": game_clock(rom, folder),
        "wall_s": round(wall if wall is not None else summary.get("wall_seconds") or 0.0, 1),
        "trainer_battles": sum(b.get("battle_type") == "trainer" for b in battles),
        "wild_battles": sum(b.get("battle_type") == "wild" for b in battles),
        "defeats": sum(b.get("outcome") == "defeat" for b in battles),
        "e4_entries": sum(str(b.get("opponent", "")).startswith(GAUNTLET_FIRST) for b in battles),
        "plan_changes": log.count("plan: lost to"),
        "splits": [_split(m) for m in milestones if not m.get("at_start")],
    }


def _split(milestone: dict[str, object]) -> dict[str, object]:
    return {"name": milestone["name"], "frame": milestone["frame"], "seconds": milestone["seconds"]}


def game_clock(rom: Path, folder: Path) -> str | None:
    """The game's own play time from the run's newest checkpoint (h:mm:ss as the game counts it)."""
    states = sorted((folder / "checkpoints").glob("*/*/emulator.state"))
    if not states:
        return None
    with open_session(rom, EmulatorConfig()) as session:
        session.load_state_file(states[-1])
        state = decode_state(session.memory_image(), session.ram_map)
    return state.progress.play_time


def clock(frames: int) -> str:
    seconds = int(frames / FRAMES_PER_SECOND)
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def print_runs(results: list[dict[str, object]]) -> None:
    columns = ("game", "seed", "finished", "frames", "game clock", "wall s", "battles T / W", "E4 entries",
               "defeats", "plan changes")  # fmt: skip
    print("| " + " | ".join(columns) + " |")
    print("| --- | ---: | --- | ---: | --- | ---: | ---: | ---: | ---: | ---: |")
    for r in results:
        print(f"| {r['game']} | {r['seed']} | {'yes' if r['finished'] else r.get('stopped')} | "
              f"{r.get('frames') or 0:,} | {r.get('clock')} | {r.get('wall_s')} | "
              f"{r.get('trainer_battles')} / {r.get('wild_battles')} | {r.get('e4_entries')} | "
              f"{r.get('defeats')} | {r.get('plan_changes')} |")  # fmt: skip


def print_pairs(results: list[dict[str, object]]) -> None:
    """Each second run (with the first's memory) beside its first."""
    print("| game | seed | frames first / again | again / first | defeats | E4 entries | wall s |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    firsts = {(r["game"], r["seed"]): r for r in results if not r.get("again")}
    for second in (r for r in results if r.get("again")):
        first = firsts.get((second["game"], second["seed"]))
        if first is None:
            continue
        a, b = int(str(first.get("frames") or 0)), int(str(second.get("frames") or 0))
        ratio = f"{b / a:.2f}" if a else "n/a"
        print(f"| {second['game']} | {second['seed']} | {a:,} / {b:,} | {ratio} | {first.get('defeats')} / "
              f"{second.get('defeats')} | {first.get('e4_entries')} / {second.get('e4_entries')} | "
              f"{first.get('wall_s')} / {second.get('wall_s')} |")  # fmt: skip
    print()


def print_spread(results: list[dict[str, object]]) -> None:
    done = [r for r in results if r["finished"]]
    print(f"\nfinished: {len(done)} of {len(results)}")
    for key in ("frames", "wall_s", "e4_entries", "trainer_battles", "wild_battles", "defeats"):
        values = [float(r[key]) for r in done if r.get(key) is not None]  # type: ignore[arg-type]
        if values:
            low, middle, high = min(values), statistics.median(values), max(values)
            print(f"{key}: min {low:,.0f}, median {middle:,.0f}, max {high:,.0f}")
    hours = [float(r["frames"]) / FRAMES_PER_SECOND / 3600 for r in done]  # type: ignore[arg-type]
    if hours:
        under = sum(h < 5 for h in hours)
        print(
            f"game hours: min {min(hours):.2f}, median {statistics.median(hours):.2f}, max {max(hours):.2f};"
            f" under 5 h: {under} of {len(done)}"
        )


def print_splits(results: list[dict[str, object]], count: int) -> None:
    shown = results[:count]
    if not shown:
        return
    names: list[str] = []
    for r in shown:
        for split in r.get("splits") or []:  # type: ignore[union-attr]
            if split["name"] not in names:
                names.append(split["name"])
    heads = " | ".join(f"{r['game']} {r['seed']}" for r in shown)
    print(f"\n| split: frame (game clock) | {heads} |")
    print("| --- |" + " ---: |" * len(shown))
    for name in names:
        cells = []
        for r in shown:
            found = next((s for s in r.get("splits") or [] if s["name"] == name), None)  # type: ignore[union-attr]
            cells.append(f"{found['frame']:,} ({clock(found['frame'])})" if found else "")
        print(f"| {name} | " + " | ".join(cells) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rom", type=Path, action="append", default=[])
    parser.add_argument("--seeds", default="10-19")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, default=Path("speedrun-results"))
    parser.add_argument(
        "--wall-limit", type=float, default=3600.0, help="seconds a run may take (default 3600)"
    )
    parser.add_argument("--splits", type=int, default=3)
    parser.add_argument(
        "--again", action="store_true", help="play each seed a second time with the first's memory"
    )
    parser.add_argument("--report", type=Path, help="print the tables of an earlier --out, without playing")
    args = parser.parse_args()
    if args.report is not None:
        results = read_objects(args.report / "results.jsonl").entries
    else:
        if not args.rom:
            parser.error("give at least one --rom (or --report DIR)")
        jobs = [(rom, seed) for rom in args.rom for seed in seeds_of(args.seeds)]
        args.out.mkdir(parents=True, exist_ok=True)
        results = []
        with ThreadPoolExecutor(max_workers=max(1, args.workers)) as pool:
            futures = [pool.submit(play_twice, rom, seed, args.out / f"{rom.stem}-{seed}", args.wall_limit,
                                   args.again) for rom, seed in jobs]  # fmt: skip
            for future in futures:
                for result in future.result():
                    results.append(result)
                    with (args.out / "results.jsonl").open("a") as out:
                        out.write(json.dumps(result) + "\n")
                    again = " again" if result.get("again") else ""
                    line = f"{result['game']} seed {result['seed']}{again}: finished {result['finished']}, "
                    line += f"{result.get('frames')} frames, {result.get('wall_s')} s"
                    print(line, file=sys.stderr, flush=True)
    if any(r.get("again") for r in results):
        print_pairs(results)
        results = [r for r in results if not r.get("again")]
    print_runs(results)
    print_spread(results)
    print_splits(results, args.splits)


if __name__ == "__main__":
    main()
