"""Arena runs per minute on this machine for 1, 2 and 4 workers (a private Ray instance with that many
CPUs), each arena the same cells: one config, power-on, N seeds, to one objective.

    .venv/bin/python -m benchmarks.arena_throughput --rom ROM [--until get_starter] [--seeds 8]
        [--workers 1 2 4]

Each worker count plays in a fresh folder and a fresh Ray instance. Prints one row per count: cells,
wall seconds (Ray's start excluded), runs per minute, and the mean run's own wall seconds (how much the
runs slowed each other down when workers outnumber cores).
"""

from __future__ import annotations

import argparse
import logging
import os
import tempfile
import time
from pathlib import Path

from engine.arena.matrix import Limits
from engine.arena.runner import ArenaRequest, run_arena


def one_count(rom: Path, workers: int, until: str, seeds: int) -> dict[str, float]:
    import ray

    with tempfile.TemporaryDirectory(prefix="arena-bench-") as folder:
        config = Path(folder, "default.yaml")
        config.write_text("logging:\n  level: WARNING\n", encoding="utf-8")
        ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
        try:
            started = time.perf_counter()
            request = ArenaRequest(rom=rom, configs=(config,), seeds=seeds, out=Path(folder, "arena"),
                                   limits=Limits(until=until), plots=False)  # fmt: skip
            outcome = run_arena(request)
            wall = time.perf_counter() - started
        finally:
            ray.shutdown()
    runs = [result.summary.wall_seconds for result in outcome.results]
    return {"workers": workers, "cells": len(runs), "failed": len(outcome.failures), "wall": wall,
            "per_minute": 60 * len(runs) / wall, "run_mean": sum(runs) / max(1, len(runs))}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rom", type=Path, default=os.environ.get("POKEMON_ROM"))
    parser.add_argument("--until", default="get_starter")
    parser.add_argument("--seeds", type=int, default=8)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    args = parser.parse_args()
    if args.rom is None:
        parser.error("give --rom or set POKEMON_ROM")
    logging.basicConfig(level=logging.WARNING)
    print(f"cores: {os.cpu_count()}; power-on to {args.until}, {args.seeds} seeds")
    print("workers  cells  failed  wall s  runs/min  mean run s")
    for workers in args.workers:
        row = one_count(args.rom, workers, args.until, args.seeds)
        print(f"{row['workers']:>7}  {row['cells']:>5}  {row['failed']:>6}  {row['wall']:>6.1f}  "
              f"{row['per_minute']:>8.1f}  {row['run_mean']:>10.1f}")  # fmt: skip


if __name__ == "__main__":
    main()
