"""Emulation throughput: `EmulatorSession.run_until` fast-forward against raw `PyBoy.tick`, same run.

    .venv/bin/python -m benchmarks.throughput --rom ROM [--frames 20000] [--rounds 5]

Without --rom it runs the tiny cartridge the tests generate (an idle loop: much faster than a game).
Both runs alternate in one session, after a warm-up from power-on (the game's intro is playing then,
so the CPU is doing real work); medians over the rounds are printed.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import tempfile
import time
from pathlib import Path

from engine.emulator.errors import FrameBudgetExceeded
from engine.emulator.session import EmulatorSession
from engine.game.cartridge import Game


def _raw_fps(session: EmulatorSession, frames: int) -> float:
    pyboy = session.pyboy
    start = time.perf_counter()
    pyboy.tick(frames, False, False)
    return frames / (time.perf_counter() - start)


def _run_until_fps(session: EmulatorSession, frames: int, check_every: int) -> float:
    """A typical wait: one RAM byte compared every check. It never holds, so the budget ends the run."""
    in_battle = session.ram_map.wIsInBattle
    start_frame = session.frame
    start = time.perf_counter()
    with contextlib.suppress(FrameBudgetExceeded):
        session.run_until(
            lambda memory: memory[in_battle] == 0xAB, max_frames=frames, check_every=check_every
        )
    return (session.frame - start_frame) / (time.perf_counter() - start)


CHECK_INTERVALS = (1, 2, 4)


def measure(rom: Path, game: Game | None, frames: int, rounds: int, warmup: int) -> dict[str, float]:
    """Median frames/s of raw ticking and of run_until at each check interval, interleaved per round."""
    samples: dict[str, list[float]] = {"raw": []} | {f"every_{n}": [] for n in CHECK_INTERVALS}
    with EmulatorSession(rom, game=game) as session:
        session.tick(warmup)
        for _ in range(rounds):
            samples["raw"].append(_raw_fps(session, frames))
            for interval in CHECK_INTERVALS:
                samples[f"every_{interval}"].append(_run_until_fps(session, frames, interval))
    return {name: statistics.median(values) for name, values in samples.items()}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rom", type=Path, help="Pokémon Red/Blue cartridge image")
    parser.add_argument("--frames", type=int, default=20000, help="frames per measurement (default 20000)")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds; medians reported")
    parser.add_argument("--warmup", type=int, default=3000, help="frames run before measuring")
    args = parser.parse_args()
    if args.rom is None:
        from tests.support.romgen import write_rom

        rom, game, label = write_rom(Path(tempfile.mkdtemp())), Game.RED, "generated test cartridge"
    else:
        rom, game, label = args.rom, None, args.rom.name
    print(f"throughput on {label}: {args.rounds} rounds x {args.frames} frames, after {args.warmup} warm-up")
    result = measure(rom, game, args.frames, args.rounds, args.warmup)
    raw = result["raw"]
    print(f"raw PyBoy.tick(N)                  {raw:>9,.0f} frames/s")
    for interval in CHECK_INTERVALS:
        fps = result[f"every_{interval}"]
        label = f"run_until, check every {interval} frame" + ("s" if interval > 1 else "")
        print(f"{label:<34} {fps:>9,.0f} frames/s  {fps / raw:6.1%} of raw")


if __name__ == "__main__":
    main()
