"""Load RAM/tile-map captures (the `wram.bin`, `hram.bin`, `tilemaps.bin`, `io.json` layout) as images.

Captures hold no ROM bytes and no tile graphics, so they can be shared in bug reports and used as
test fixtures.
"""

from __future__ import annotations

import json
from pathlib import Path

from engine.game.memory import LCDC, SCX, SCY, WX, WY, MemoryImage

STAT = 0xFF41
_IO_REGISTERS = {"LCDC": LCDC, "STAT": STAT, "SCY": SCY, "SCX": SCX, "WY": WY, "WX": WX}


def load_capture(directory: Path) -> MemoryImage:
    io = json.loads((directory / "io.json").read_text(encoding="utf-8"))
    regions: list[tuple[int, bytes]] = [
        (0x9800, (directory / "tilemaps.bin").read_bytes()),
        (0xC000, (directory / "wram.bin").read_bytes()),
        (0xFF80, (directory / "hram.bin").read_bytes()),
    ]
    regions += [(address, bytes([io[name]])) for name, address in _IO_REGISTERS.items()]
    return MemoryImage.from_regions(regions)
