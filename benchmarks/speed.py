"""Whole-run speed against raw PyBoy, side by side: the engine from power-on, and plain PyBoy playing the
very same game.

    .venv/bin/python -m benchmarks.speed --rom ROM [--until beat_misty] [--rounds 3] [--seed 0]
                                         [--fingerprint FILE] [--compare FILE]

Each round plays `engine run --local --until NAME` in this process (a fresh data directory, no key) with
the emulator recording every button event and the PyBoy frame it was sent at. Plain PyBoy then plays those
events on a new emulator with `PyBoy.tick(60)` and nothing else (no checks, no hooks, no decoding): the
same frames, the same game. Its final RAM must equal the engine's, or the figure is refused. Also printed:
plain `tick(60)` from power-on for as many frames (the title screen loops there, cheaper than play), the
figure one gets without replaying.

The engine's speed is its frames over the run's wall seconds (summary.json's, from the conductor's start
to its end: the intro included, Python's start-up and imports not). Medians over the rounds.

`--fingerprint FILE` writes what the run decided (every decision's sequence number, kind, action, reason
and frame); `--compare FILE` checks a run against such a file: a speed-up must not change one decision or
one frame.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import statistics
import tempfile
import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from engine.config import EmulatorConfig, PlayerConfig, load_config
from engine.layout import RunPaths, new_run_id
from engine.mechanics.role import EmulatorRole
from engine.runtime.local import run_local
from engine.runtime.options import RunOptions

with warnings.catch_warnings():
    warnings.simplefilter("ignore", UserWarning)
    from pyboy import PyBoy

CHUNK = 60  # frames per plain tick: what a plain PyBoy script uses
WRAM = (0xC000, 0xE000)


@dataclass
class Round:
    frames: int
    wall: float
    raw_replay_fps: float
    raw_title_fps: float
    fingerprint: list[tuple[Any, ...]]


class RecordingEmulator(EmulatorRole):
    """The Emulator role with its session recording inputs; keeps them and the final RAM at close."""

    recorded: ClassVar[list[tuple[int, int]]] = []
    final_ram: ClassVar[bytes] = b""
    final_frame: ClassVar[int] = 0

    def __init__(self, rom: Path, emulator: EmulatorConfig, player: PlayerConfig) -> None:
        super().__init__(rom, emulator, player)
        self.session.input_log = []

    def close(self) -> None:
        RecordingEmulator.recorded = list(self.session.input_log or [])
        RecordingEmulator.final_ram = self.session.read(WRAM[0], WRAM[1] - WRAM[0])
        RecordingEmulator.final_frame = self.session.pyboy.frame_count
        super().close()


def _plain_pyboy(rom: Path) -> PyBoy:
    pyboy = PyBoy(str(rom), window="null", sound_emulated=False, log_level="ERROR",
                  ram_file=io.BytesIO(bytes(0x8000)))  # fmt: skip
    pyboy.set_emulation_speed(0)
    return pyboy


def replay_raw(rom: Path, events: list[tuple[int, int]], frames: int) -> tuple[float, bytes]:
    """Plain PyBoy playing the recorded events: frames a second, and its RAM at the end. Each event is
    sent at its frame, in the order it was sent (a direction released and held again on one frame must
    stay in that order), with at most CHUNK frames a tick in between."""
    pyboy = _plain_pyboy(rom)
    started = time.perf_counter()
    for frame, event in events:
        _tick_to(pyboy, frame)
        pyboy.send_input(event)
    _tick_to(pyboy, frames)
    seconds = time.perf_counter() - started
    ram = bytes(pyboy.memory[WRAM[0] : WRAM[1]])
    pyboy.stop(save=False)
    return frames / seconds, ram


def _tick_to(pyboy: PyBoy, frame: int) -> None:
    while pyboy.frame_count < frame:
        pyboy.tick(min(CHUNK, frame - pyboy.frame_count), False, False)


def plain_from_power_on(rom: Path, frames: int) -> float:
    pyboy = _plain_pyboy(rom)
    started = time.perf_counter()
    for _ in range(frames // CHUNK):
        pyboy.tick(CHUNK, False, False)
    seconds = time.perf_counter() - started
    pyboy.stop(save=False)
    return (frames // CHUNK) * CHUNK / seconds


def fingerprint(run_dir: Path) -> list[tuple[Any, ...]]:
    lines = (json.loads(line) for line in (run_dir / "decisions.jsonl").read_text().splitlines())
    return [
        (entry["seq"], entry["kind"], entry.get("action"), entry.get("reason"), entry.get("frame"))
        for entry in lines
        if "seq" in entry
    ]


def play_round(rom: Path, until: str, seed: int) -> Round:
    config = load_config(None)
    with tempfile.TemporaryDirectory() as data:
        paths = RunPaths(data_dir=Path(data), run_id=new_run_id())
        paths.create()
        options = RunOptions(rom=rom, until=until, seed=seed,
                             checkpoint_every_decisions=config.checkpoint.every_decisions)  # fmt: skip
        summary = run_local(config, options, paths, emulator_factory=RecordingEmulator)
        if summary.stopped != "until":
            raise SystemExit(f"the run stopped ({summary.stopped}: {summary.error}) before {until}")
        decisions = fingerprint(paths.run_dir)
    events, final_ram = RecordingEmulator.recorded, RecordingEmulator.final_ram
    # The engine's PyBoy ran from power-on with no state loaded: plain PyBoy plays as many frames.
    raw_fps, raw_ram = replay_raw(rom, events, RecordingEmulator.final_frame)
    if raw_ram != final_ram:
        raise SystemExit("plain PyBoy did not end in the engine's state: the recorded inputs are incomplete")
    return Round(frames=summary.frames, wall=summary.wall_seconds, raw_replay_fps=raw_fps,
                 raw_title_fps=plain_from_power_on(rom, summary.frames), fingerprint=decisions)  # fmt: skip


def digest(decisions: list[tuple[Any, ...]]) -> str:
    return hashlib.sha256(json.dumps(decisions).encode()).hexdigest()[:16]


def main() -> None:
    formatter = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=formatter)
    parser.add_argument("--rom", type=Path, required=True, help="Pokémon Red/Blue cartridge image")
    parser.add_argument("--until", default="beat_misty", help="the objective that ends each run")
    parser.add_argument("--rounds", type=int, default=3, help="runs to take the median of (default 3)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--fingerprint", type=Path, help="write the run's decisions and frames here")
    parser.add_argument("--compare", type=Path, help="check the run's decisions and frames against this")
    args = parser.parse_args()
    rounds = []
    for number in range(1, args.rounds + 1):
        played = play_round(args.rom, args.until, args.seed)
        rounds.append(played)
        fps = played.frames / played.wall
        print(
            f"round {number}: {played.frames:,} frames in {played.wall:.2f} s = {fps:,.0f} frames/s; "
            f"plain PyBoy on the same inputs {played.raw_replay_fps:,.0f} frames/s "
            f"({fps / played.raw_replay_fps:.2f}x); from power-on {played.raw_title_fps:,.0f} frames/s "
            f"({fps / played.raw_title_fps:.2f}x); decisions {digest(played.fingerprint)}",
            flush=True,
        )
    digests = {digest(played.fingerprint) for played in rounds}
    if len(digests) > 1:
        print(f"the rounds decided differently: {sorted(digests)}")
    fps = statistics.median(r.frames / r.wall for r in rounds)
    raw = statistics.median(r.raw_replay_fps for r in rounds)
    title = statistics.median(r.raw_title_fps for r in rounds)
    print(
        f"{args.rom.name} power-on -> {args.until}, median of {len(rounds)}: engine {fps:,.0f} frames/s, "
        f"plain PyBoy on the same inputs {raw:,.0f} ({fps / raw:.2f}x), "
        f"plain tick(60) from power-on {title:,.0f} ({fps / title:.2f}x); "
        f"wall {statistics.median(r.wall for r in rounds):.2f} s for {rounds[0].frames:,} frames"
    )
    if args.fingerprint is not None:
        args.fingerprint.write_text(json.dumps(rounds[0].fingerprint))
        print(f"decisions written to {args.fingerprint} ({len(rounds[0].fingerprint)} lines)")
    if args.compare is not None:
        _compare(json.loads(args.compare.read_text()), rounds[0].fingerprint)


def _compare(before: list[list[Any]], now: list[tuple[Any, ...]]) -> None:
    now_lists = [list(entry) for entry in now]
    if before == now_lists:
        print(f"identical decisions and frames ({len(now_lists)} decisions)")
        return
    first = next((i for i, (a, b) in enumerate(zip(before, now_lists, strict=False)) if a != b),
                 min(len(before), len(now_lists)))  # fmt: skip
    print(f"DIFFERENT from decision {first + 1}: before {before[first] if first < len(before) else None}, "
          f"now {now_lists[first] if first < len(now_lists) else None}")  # fmt: skip
    raise SystemExit(1)


if __name__ == "__main__":
    main()
