"""Vision from pixels against RAM: how well the screen reader (engine.vision.screen) reads real screens.

    .venv/bin/python -m benchmarks.vision_accuracy --rom ROM [--frames-per-sample 293] [--samples 1000]
                                                   [--until beat_misty] [--seed 0]

The corpus is made at run time from the user's cartridge: the engine plays from power-on as `engine run
--local` does (no key), and every N frames of its play the frame is drawn and kept, with the RAM as that
frame began (the tile map the picture was drawn from; RAM after the frame runs a frame ahead). The run
stops after --samples screens or at --until. No screen, state or byte of the game is written anywhere.

Each screen is then read from its PNG, made as `EmulatorRole.screenshot` makes it, through the Vision
role's `read_screen` (so the gate's reuse of identical screens is counted), and compared field by field
with what RAM says (engine.vision.screen.truth, which defines each field). HP is scored on every battle
screen and on those whose bars have settled (RAM's HP changes first; the bar then slides for a while).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from engine.config import EmulatorConfig, PlayerConfig, load_config
from engine.emulator.png import encode_png
from engine.game.cartridge import identify
from engine.game.memory import DECODER_REGIONS, MemoryImage
from engine.game.ram import RAM_MAPS
from engine.layout import RunPaths, new_run_id
from engine.mechanics.role import EmulatorRole
from engine.runtime.local import run_local
from engine.runtime.options import RunOptions
from engine.runtime.signals import StopRequest
from engine.vision.perceiver import Vision
from engine.vision.screen.reading import ScreenReading
from engine.vision.screen.truth import bars_settled, truth_from_ram

HP_POINTS = 2.0  # an HP share within this many points of RAM's counts as right
PROGRESS_EVERY = 100


@dataclass
class Sample:
    frame: int
    png: bytes
    image: MemoryImage


@dataclass
class Sampler:
    """Stands in front of the session's PyBoy: a tick that reaches a sample's frame is split so that the
    RAM is copied before the frame is drawn and that frame and the one before are rendered (emulation is
    unchanged, as a tick of n frames is n ticks of one)."""

    every: int
    limit: int
    stop_request: StopRequest
    samples: list[Sample] = field(default_factory=list)
    pyboy: Any = None
    frames: int = 0
    started: float = field(default_factory=time.perf_counter)

    def tick(self, count: int = 1, render: bool = True, sound: bool = True) -> Any:
        due = (self.frames + count) // self.every > self.frames // self.every
        self.frames += count
        if not due or len(self.samples) >= self.limit:
            return self.pyboy.tick(count, render, sound)
        if count > 2:
            self.pyboy.tick(count - 2, False, sound)
        if count > 1:  # drawn too: PyBoy draws the window a line high in a frame rendered after none
            self.pyboy.tick(1, True, sound)
        memory = self.pyboy.memory
        image = MemoryImage.from_regions(
            [(start, bytes(memory[start:end])) for start, end in DECODER_REGIONS]
        )
        result = self.pyboy.tick(1, True, sound)
        png = encode_png(np.array(self.pyboy.screen.ndarray[:, :, :3], copy=True))
        self.samples.append(Sample(self.pyboy.frame_count, png, image))
        self._progress()
        return result

    def _progress(self) -> None:
        count = len(self.samples)
        if count % PROGRESS_EVERY == 0:
            print(f"  {count} screens, frame {self.frames:,}, {time.perf_counter() - self.started:.0f} s",
                  flush=True)  # fmt: skip
        if count >= self.limit:
            self.stop_request.ask("SIGINT")

    def __getattr__(self, name: str) -> Any:
        return getattr(self.pyboy, name)


class SamplingEmulator(EmulatorRole):
    """The Emulator role with its session's PyBoy behind the sampler (a seam for this benchmark only)."""

    sampler: Sampler | None = None

    def __init__(self, rom: Path, emulator: EmulatorConfig, player: PlayerConfig) -> None:
        super().__init__(rom, emulator, player)
        sampler = SamplingEmulator.sampler
        assert sampler is not None
        sampler.pyboy = self.session._pyboy
        self.session._pyboy = sampler


def collect(rom: Path, every: int, limit: int, until: str, seed: int) -> list[Sample]:
    stop = StopRequest()
    SamplingEmulator.sampler = Sampler(every=every, limit=limit, stop_request=stop)
    config = load_config(None)
    with tempfile.TemporaryDirectory() as data:
        paths = RunPaths(data_dir=Path(data), run_id=new_run_id())
        paths.create()
        options = RunOptions(rom=rom, until=until, seed=seed)
        summary = run_local(config, options, paths, emulator_factory=SamplingEmulator, stop=stop)
    print(f"  the run stopped ({summary.stopped}) at frame {summary.frames:,}")
    return SamplingEmulator.sampler.samples


@dataclass
class Tally:
    right: int = 0
    total: int = 0

    def add(self, ok: bool) -> None:
        self.right += ok
        self.total += 1

    def cell(self) -> str:
        return (
            f"{100 * self.right / self.total:6.2f} % of {self.total:5,}"
            if self.total
            else "    -  (no samples)"
        )


@dataclass
class Scores:
    fields: dict[str, Tally] = field(default_factory=dict)
    kinds: dict[str, Tally] = field(default_factory=dict)
    confusion: Counter[tuple[str, str]] = field(default_factory=Counter)
    read_ms: list[float] = field(default_factory=list)

    def tally(self, name: str) -> Tally:
        return self.fields.setdefault(name, Tally())


def score(samples: list[Sample], rom: bytes) -> tuple[Scores, Vision]:
    game = identify(rom).game
    ram = RAM_MAPS[game]
    vision = Vision(game, rom)
    scores = Scores()
    for sample in samples:
        started = time.perf_counter()
        reused_before = vision.screens_reused
        reading = vision.read_screen(sample.png)
        if vision.screens_reused == reused_before:
            scores.read_ms.append((time.perf_counter() - started) * 1000)
        truth = truth_from_ram(sample.image, ram)
        _compare(scores, truth, reading, bars_settled(sample.image, ram))
    return scores, vision


def _compare(scores: Scores, truth: ScreenReading, read: ScreenReading, settled: bool) -> None:
    kind = truth.screen.value
    scores.kinds.setdefault(kind, Tally()).add(read.screen == truth.screen)
    scores.tally("screen type").add(read.screen == truth.screen)
    if read.screen != truth.screen:
        scores.confusion[(kind, read.screen.value)] += 1
    _compare_text(scores, truth.text, read.text)
    for side in ("player_hp_pct", "enemy_hp_pct"):
        _compare_hp(scores, side, getattr(truth, side), getattr(read, side), settled)
    if truth.enemy_name is not None or read.enemy_name is not None:
        scores.tally("enemy name").add(read.enemy_name == truth.enemy_name)
    if truth.enemy_level is not None or read.enemy_level is not None:
        scores.tally("enemy level").add(read.enemy_level == truth.enemy_level)
    if truth.menu or read.menu:
        scores.tally("menu items").add(read.menu == truth.menu)
        scores.tally("menu cursor").add(read.cursor == truth.cursor)
    scores.tally("can move").add(read.can_move == truth.can_move)


def _compare_text(scores: Scores, truth: tuple[str, ...], read: tuple[str, ...]) -> None:
    if not truth and not read:
        return
    scores.tally("text, screens all exact").add(truth == read)
    for line in range(max(len(truth), len(read))):
        same = line < len(truth) and line < len(read) and truth[line] == read[line]
        scores.tally("text, lines exact").add(same)


def _compare_hp(scores: Scores, side: str, truth: float | None, read: float | None, settled: bool) -> None:
    if truth is None and read is None:
        return
    ok = truth is not None and read is not None and abs(truth - read) <= HP_POINTS
    name = "player HP" if side.startswith("player") else "enemy HP"
    scores.tally(f"{name} within 2 points, all").add(ok)
    if settled:
        scores.tally(f"{name} within 2 points, settled bars").add(ok)


def report(scores: Scores, vision: Vision, samples: int) -> None:
    print(
        f"\n{samples:,} screens; the gate read {vision.screens_read:,} and reused {vision.screens_reused:,}"
    )
    if scores.read_ms:
        p95 = (
            statistics.quantiles(scores.read_ms, n=20)[-1]
            if len(scores.read_ms) >= 20
            else max(scores.read_ms)
        )
        print(f"reading a screen (PNG decode included): {statistics.mean(scores.read_ms):.2f} ms mean, "
              f"{p95:.2f} ms p95")  # fmt: skip
    print("\nfield" + " " * 39 + "accuracy")
    for name, tally in scores.fields.items():
        print(f"  {name:42} {tally.cell()}")
    print("\nscreen type by RAM's kind")
    for kind, tally in sorted(scores.kinds.items()):
        print(f"  {kind:42} {tally.cell()}")
    if scores.confusion:
        mixed = ", ".join(f"{a} read as {b} x{n}" for (a, b), n in scores.confusion.most_common())
        print(f"\nscreen types mixed up: {mixed}")


def main() -> None:
    formatter = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=formatter)
    parser.add_argument("--rom", type=Path, required=True, help="Pokémon Red/Blue cartridge image")
    parser.add_argument("--frames-per-sample", type=int, default=293, help="frames between screens kept")
    parser.add_argument("--samples", type=int, default=1000, help="screens to keep (default 1000)")
    parser.add_argument("--until", default="beat_misty", help="the objective that ends the run at the latest")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rom = args.rom.read_bytes()
    print(
        f"{args.rom.name}: playing from power-on, a screen every {args.frames_per_sample} frames", flush=True
    )
    samples = collect(args.rom, args.frames_per_sample, args.samples, args.until, args.seed)
    print(f"reading {len(samples):,} screens", flush=True)
    scores, vision = score(samples, rom)
    report(scores, vision, len(samples))


if __name__ == "__main__":
    main()
