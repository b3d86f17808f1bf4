"""What a run leaves on disk: the data directory after power-on to Misty, and how fast it grows after.

    .venv/bin/python -m benchmarks.storage --rom RED [--rom BLUE] [--minutes 10] [--until beat_misty]
        [--config FILE] [--keep DIR]

For each cartridge, in a fresh data directory:

1. `engine run --local --rom ROM --until beat_misty` (no API key: the rule-based tier), as a user types it.
   Printed: the data directory's size (bytes in its files, and on disk in whole blocks), split into
   checkpoints, memory (lessons), the battles' start states, the battles' logs, reflection reports,
   decisions.jsonl, run.log and the rest of runs/.
2. `engine run --local --rom ROM --resume latest` carries the same run on past Misty (the engine goes on
   training in tall grass, so wild battles pile up) and gets SIGINT after `--minutes`; it writes its stop
   checkpoint and summary and exits. The growth is the size after it less the size at Misty, per hour of
   the run's wall clock (summary.json's wall_seconds, which adds up over both processes) and per hour of
   game time (frames at 60 a second), with the battles and decisions it played.
3. The zlib level: the battles' start states of part 1, unpacked, packed again at levels 1, 3, 6 and 9:
   median size and milliseconds per state.

Figures are printed, nothing is asserted. Progress goes to stderr; `--keep DIR` keeps the data
directories there (default: a temporary folder, removed).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path

from engine.emulator.state_file import read_state

ENGINE = str(Path(sys.executable).parent / "engine")
MB = 1_000_000
LEVELS = (1, 3, 6, 9)
STOP_TIMEOUT = 120.0  # seconds for the interrupted run to write its stop checkpoint and summary


def progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


# -- sizes -----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Size:
    files: int = 0  # bytes in the files
    disk: int = 0  # bytes of the blocks they take

    def __add__(self, other: Size) -> Size:
        return Size(self.files + other.files, self.disk + other.disk)

    def __sub__(self, other: Size) -> Size:
        return Size(self.files - other.files, self.disk - other.disk)


def size_of(paths: list[Path]) -> Size:
    total = Size()
    for path in paths:
        stat = path.stat()
        total += Size(stat.st_size, stat.st_blocks * 512)
    return total


def files_under(folder: Path) -> list[Path]:
    return [path for path in folder.rglob("*") if path.is_file()] if folder.is_dir() else []


def breakdown(data: Path) -> dict[str, Size]:
    """The data directory by what it holds; the parts add up to the whole."""
    runs = files_under(data / "runs")
    states = [path for path in runs if path.parent.name == "battles" and path.suffix == ".state"]
    logs = [path for path in runs if path.parent.name == "battles" and path.suffix == ".json"]
    reflections = [path for path in runs if path.parent.name == "reflections"]
    decisions = [path for path in runs if path.name == "decisions.jsonl"]
    run_logs = [path for path in runs if path.name == "run.log"]
    named = {*states, *logs, *reflections, *decisions, *run_logs}
    return {
        "checkpoints": size_of(files_under(data / "checkpoints")),
        "memory": size_of(files_under(data / "memory")),
        "battle states": size_of(states),
        "battle logs": size_of(logs),
        "reflections": size_of(reflections),
        "decisions.jsonl": size_of(decisions),
        "run.log": size_of(run_logs),
        "rest of runs/": size_of([path for path in runs if path not in named]),
    }


def total(parts: dict[str, Size]) -> Size:
    whole = Size()
    for size in parts.values():
        whole += size
    return whole


# -- runs ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Summary:
    wall_seconds: float
    frames: int
    battles: int
    decisions: int
    milestones: tuple[str, ...]


def summary_of(data: Path) -> Summary:
    (path,) = (data / "runs").glob("*/summary.json")
    summary = json.loads(path.read_text(encoding="utf-8"))
    return Summary(summary["wall_seconds"], summary["frames"], len(summary["battles"]), summary["decisions"],
                   tuple(split["name"] for split in summary.get("milestones", ())))  # fmt: skip


def engine_run(rom: Path, data: Path, extra: list[str], config: Path | None) -> list[str]:
    command = [ENGINE, "run", "--local", "--rom", str(rom), "--data-dir", str(data), *extra]
    return command + (["--config", str(config)] if config is not None else [])


def _default_sigint() -> None:
    # A process started from a non-interactive shell's background job inherits SIGINT as ignored, and
    # Python then installs no Ctrl-C handler: give the engine the default back, so SIGINT stops it.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def play_to(rom: Path, data: Path, until: str, config: Path | None, output: Path) -> None:
    with output.open("wb") as sink:
        subprocess.run(engine_run(rom, data, ["--until", until], config), stdout=sink,
                       stderr=subprocess.STDOUT, check=True)  # fmt: skip


def play_for(rom: Path, data: Path, minutes: float, config: Path | None, output: Path) -> int:
    """The run carried on from its newest checkpoint, stopped by SIGINT after `minutes`; its exit code."""
    command = engine_run(rom, data, ["--resume", "latest"], config)
    with output.open("wb") as sink:
        process = subprocess.Popen(command, stdout=sink, stderr=subprocess.STDOUT,
                                   preexec_fn=_default_sigint)  # fmt: skip
        try:
            process.wait(minutes * 60)
        except subprocess.TimeoutExpired:
            process.send_signal(signal.SIGINT)
        try:
            return process.wait(STOP_TIMEOUT)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()


# -- the zlib level --------------------------------------------------------------------------------
def level_figures(states: list[Path]) -> list[tuple[int, float, float]]:
    """(level, median packed bytes, ms per state) for each level, over the battles' start states."""
    machines = [read_state(path.read_bytes()).machine for path in states]
    figures = []
    for level in LEVELS:
        started = time.perf_counter()
        sizes = [len(zlib.compress(machine, level)) for machine in machines]
        seconds = (time.perf_counter() - started) / len(machines)
        figures.append((level, statistics.median(sizes), seconds * 1000))
    return figures


# -- one cartridge ---------------------------------------------------------------------------------
def mb(value: int) -> str:
    return f"{value / MB:,.2f}"


def print_breakdown(title: str, parts: dict[str, Size]) -> None:
    print(f"\n{title}")
    print(f"  {'part':<18}{'MB (files)':>12}{'MB (on disk)':>14}")
    for name, size in parts.items():
        print(f"  {name:<18}{mb(size.files):>12}{mb(size.disk):>14}")
    whole = total(parts)
    print(f"  {'data directory':<18}{mb(whole.files):>12}{mb(whole.disk):>14}")


def measure(rom: Path, work: Path, minutes: float, until: str, config: Path | None) -> None:
    data = work / rom.stem
    progress(f"{rom.name}: engine run --until {until}")
    play_to(rom, data, until, config, work / f"{rom.stem}-to-{until}.out")
    at_until, first = breakdown(data), summary_of(data)
    reached = "reached" if until in first.milestones else "NOT reached"
    print(f"\n== {rom.name}: power-on to {until} ({reached} in {first.wall_seconds:.1f} s, "
          f"{first.battles} battles, {first.decisions} decisions)")  # fmt: skip
    print_breakdown(f"data directory at {until}", at_until)
    states = [path for path in files_under(data / "runs") if path.suffix == ".state"]
    if states:
        print(f"\nzlib level, over the {len(states)} battles' start states (unpacked: "
              f"{len(read_state(states[0].read_bytes()).machine):,} bytes each)")  # fmt: skip
        for level, packed, ms in level_figures(states):
            print(f"  level {level}: median {packed:,.0f} bytes, {ms:.2f} ms a state")
    progress(f"{rom.name}: engine run --resume latest for {minutes:g} min, then SIGINT")
    code = play_for(rom, data, minutes, config, work / f"{rom.stem}-after.out")
    after, second = breakdown(data), summary_of(data)
    print_breakdown(f"data directory after {minutes:g} more minutes (exit code {code})", after)
    grown = total(after) - total(at_until)
    hours = (second.wall_seconds - first.wall_seconds) / 3600
    game_hours = (second.frames - first.frames) / 60 / 3600
    print(f"\ngrowth past {until}: {mb(grown.files)} MB in files ({mb(grown.disk)} MB on disk) over "
          f"{hours * 3600:,.0f} s of the run, {second.battles - first.battles} battles, "
          f"{second.decisions - first.decisions} decisions, {game_hours:.2f} h of game time")  # fmt: skip
    if hours > 0 and game_hours > 0:
        print(f"  per hour of the run: {grown.files / MB / hours:,.1f} MB ({grown.disk / MB / hours:,.1f} on "
              f"disk), {(second.battles - first.battles) / hours:,.0f} battles")  # fmt: skip
        print(f"  per hour of game time: {grown.files / MB / game_hours:,.2f} MB")
        for name, size in after.items():
            part = size - at_until[name]
            print(f"    {name:<18}{part.files / MB / hours:>10,.2f} MB per hour of the run")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rom", type=Path, action="append", required=True, help="Pokémon Red/Blue image")
    parser.add_argument("--minutes", type=float, default=10.0, help="how long the run goes on past --until")
    parser.add_argument("--until", default="beat_misty", help="the objective of the first run")
    parser.add_argument("--config", type=Path, help="an engine config file for both runs")
    parser.add_argument("--keep", type=Path, help="keep the data directories in this folder")
    args = parser.parse_args()
    os.environ.pop("ANTHROPIC_API_KEY", None)  # the free tier: the figures do not depend on a model
    keep = nullcontext(str(args.keep)) if args.keep is not None else tempfile.TemporaryDirectory()
    with keep as folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        for rom in args.rom:
            measure(rom, Path(folder), args.minutes, args.until, args.config)
    return 0


if __name__ == "__main__":
    sys.exit(main())
