"""Cost of reading the game: RAM copy, full decode and frame hash, per call.

    .venv/bin/python -m benchmarks.decode [--rom ROM] [--fixtures DIR] [--calls 500]

Decoding runs over every shared Gen 1 fixture; the copy and the hash need an emulator (the cartridge
given, or the generated test cartridge).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from engine.emulator.session import EmulatorSession
from engine.game.capture import load_capture
from engine.game.cartridge import Game
from engine.game.ram import RED_BLUE
from engine.game.state import decode_state

DEFAULT_FIXTURES = Path(__file__).resolve().parents[2] / "shared" / "fixtures" / "gen1"


def _p50_ms(call: Callable[[], object], calls: int) -> float:
    samples = []
    for _ in range(calls):
        start = time.perf_counter()
        call()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rom", type=Path)
    parser.add_argument("--fixtures", type=Path, default=DEFAULT_FIXTURES)
    parser.add_argument("--calls", type=int, default=500)
    args = parser.parse_args()

    images = [load_capture(path) for path in sorted(args.fixtures.iterdir()) if (path / "io.json").is_file()]
    decode = statistics.median(
        _p50_ms(lambda image=image: decode_state(image, RED_BLUE), args.calls // 5) for image in images
    )
    print(f"decode_state, median of {len(images)} fixtures     {decode:6.3f} ms p50")

    if args.rom is None:
        from tests.support.romgen import write_rom

        rom, game = write_rom(Path(tempfile.mkdtemp())), Game.RED
    else:
        rom, game = args.rom, None
    with EmulatorSession(rom, game=game) as session:
        session.tick(2000)
        print(f"memory_image (RAM copy from PyBoy)   {_p50_ms(session.memory_image, args.calls):6.3f} ms p50")
        print(f"frame_hash                           {_p50_ms(session.frame_hash, args.calls):6.3f} ms p50")


if __name__ == "__main__":
    main()
