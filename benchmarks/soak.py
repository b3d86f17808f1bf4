"""An hour of play: the engine's memory, its data directory and its pace over a long run.

    .venv/bin/python -m benchmarks.soak --rom ROM [--minutes 60] [--every 5] [--keep DIR] [--config FILE]

`engine run --local --rom ROM` from power-on, as a user types it (no key, no limit), in a fresh data
directory; after `--minutes` it gets SIGTERM, writes its stop checkpoint and summary and exits. Meanwhile,
every `--every` seconds, the process's resident memory (VmRSS) and the data directory's size are read, and
the battles and decisions it has logged so far are counted.

Printed: a line at 1, 5, 10, 20, 30, 45 and 60 minutes (as far as the run goes) with RSS, its growth a
minute since the minute before, the data directory, the newest checkpoint's size, battles, decisions and
frames a second; then the growth per hour of the data directory and of RSS over the run's second half (the
first minutes load the world model, the lesson store and the caches: they say nothing about a long run).
Figures are printed, nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path

ENGINE = str(Path(sys.executable).parent / "engine")
MARKS_MINUTES = (1, 5, 10, 20, 30, 45, 60, 90, 120)
STOP_TIMEOUT = 120.0
MB = 1_000_000


@dataclass(frozen=True)
class Sample:
    seconds: float
    rss_mb: float
    data_mb: float
    checkpoint_kb: float
    battles: int
    decisions: int
    frame: int


def rss_mb(pid: int) -> float:
    """VmRSS of the process, in MB (0 once it is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024 / MB
    except OSError:
        pass
    return 0.0


def folder_mb(folder: Path) -> float:
    """What the files under `folder` hold; checkpoints pruned while we walk are skipped, not an error."""
    total = 0
    for root, _, names in os.walk(folder):  # os.walk ignores folders that vanish under it
        for name in names:
            try:
                total += os.stat(os.path.join(root, name)).st_size
            except OSError:
                continue
    return total / MB


def newest_checkpoint_kb(data: Path) -> float:
    try:
        folders = sorted(p for p in (data / "checkpoints").glob("*/*") if p.is_dir())
    except OSError:  # one pruned while listed
        return 0.0
    return folder_mb(folders[-1]) * 1000 if folders else 0.0


def logged(data: Path) -> tuple[int, int, int]:
    """Battles ended, decisions made and the newest decision's frame, from the run's files."""
    runs = list((data / "runs").glob("*/decisions.jsonl"))
    if not runs:
        return 0, 0, 0
    decisions, frame = 0, 0
    with runs[0].open("rb") as handle:
        for raw in handle:
            try:
                entry = json.loads(raw)
            except ValueError:
                continue
            if "seq" in entry:
                decisions, frame = decisions + 1, int(entry.get("frame", frame))
    battles = sum(1 for _ in runs[0].parent.glob("battles/*.json"))
    return battles, decisions, frame


def sample(pid: int, data: Path, started: float) -> Sample:
    battles, decisions, frame = logged(data)
    return Sample(seconds=time.monotonic() - started, rss_mb=rss_mb(pid), data_mb=folder_mb(data),
                  checkpoint_kb=newest_checkpoint_kb(data), battles=battles, decisions=decisions,
                  frame=frame)  # fmt: skip


def soak(rom: Path, minutes: float, every: float, data: Path, config: Path | None) -> list[Sample]:
    command = [ENGINE, "run", "--local", "--rom", str(rom), "--data-dir", str(data)]
    if config is not None:
        command += ["--config", str(config)]
    samples: list[Sample] = []
    started = time.monotonic()
    with subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) as process:
        marks = [m for m in MARKS_MINUTES if m <= minutes]
        try:
            while time.monotonic() - started < minutes * 60 and process.poll() is None:
                time.sleep(every)
                samples.append(sample(process.pid, data, started))
                while marks and samples[-1].seconds >= marks[0] * 60:
                    report(marks.pop(0), samples)
        finally:  # whatever happened here, the run is stopped as a user stops it, and waited for
            process.send_signal(signal.SIGTERM)
            code = process.wait(STOP_TIMEOUT)
    summary = next((data / "runs").glob("*/summary.json"), None)
    stopped = json.loads(summary.read_text())["stopped"] if summary else "no summary"
    print(f"stopped with exit code {code}: {stopped}", flush=True)
    return samples


def report(minute: int, samples: list[Sample]) -> None:
    now = samples[-1]
    before = next((s for s in reversed(samples) if s.seconds <= now.seconds - 60), samples[0])
    growth = (now.rss_mb - before.rss_mb) / max(1e-9, (now.seconds - before.seconds) / 60)
    fps = now.frame / now.seconds if now.seconds else 0.0
    print(f"{minute:>3} min: RSS {now.rss_mb:6.1f} MB ({growth:+.2f} MB/min), data {now.data_mb:7.1f} MB, "
          f"newest checkpoint {now.checkpoint_kb:5.0f} KB, {now.battles:5d} battles, "
          f"{now.decisions:6d} decisions, {fps:6.0f} frames/s", flush=True)  # fmt: skip


def per_hour(samples: list[Sample]) -> None:
    if len(samples) < 4:
        return
    half = samples[len(samples) // 2]
    last = samples[-1]
    hours = (last.seconds - half.seconds) / 3600
    print(f"second half of the run ({half.seconds / 60:.0f}-{last.seconds / 60:.0f} min): "
          f"RSS {(last.rss_mb - half.rss_mb) / hours:+.1f} MB an hour, "
          f"data {(last.data_mb - half.data_mb) / hours:+.1f} MB an hour, "
          f"{(last.battles - half.battles) / hours:.0f} battles an hour")  # fmt: skip
    whole = last.seconds / 3600
    print(f"whole run ({last.seconds / 60:.0f} min): data {last.data_mb:.1f} MB "
          f"({last.data_mb / whole:.1f} MB an hour), RSS at the end {last.rss_mb:.1f} MB, "
          f"peak {max(s.rss_mb for s in samples):.1f} MB")  # fmt: skip


def main() -> None:
    formatter = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=formatter)
    parser.add_argument("--rom", type=Path, required=True, help="Pokémon Red/Blue cartridge image")
    parser.add_argument("--minutes", type=float, default=60.0, help="how long the run plays (default 60)")
    parser.add_argument("--every", type=float, default=5.0, help="seconds between samples (default 5)")
    parser.add_argument("--keep", type=Path, help="keep the data directory here")
    parser.add_argument("--config", type=Path, help="a YAML config for the run (engine run --config)")
    args = parser.parse_args()
    print(f"{args.rom.name}: engine run --local from power-on for {args.minutes:g} minutes", flush=True)
    place = nullcontext(str(args.keep)) if args.keep else tempfile.TemporaryDirectory()
    with place as folder:
        data = Path(folder)
        data.mkdir(parents=True, exist_ok=True)
        per_hour(soak(args.rom, args.minutes, args.every, data, args.config))


if __name__ == "__main__":
    main()
