"""The fast screen reader agrees with the plain per-tile definition of what the player sees."""

from __future__ import annotations

import random

import pytest

from engine.game.capture import load_capture
from engine.game.memory import LCDC, SCX, SCY, WX, WY, MemoryImage
from engine.game.screen import visible_tiles
from tests.conftest import GEN1_FIXTURES


def reference_tiles(image: MemoryImage) -> tuple[tuple[int, ...], ...]:
    """Pan Docs, tile by tile: the background scrolled by SCX/SCY, the window from (WX-7, WY) over it."""
    lcdc = image.u8(LCDC)
    bg_map = 0x9C00 if lcdc & 0x08 else 0x9800
    window_map = 0x9C00 if lcdc & 0x40 else 0x9800
    window_x, window_y = image.u8(WX) - 7, image.u8(WY)
    rows = []
    for y in range(0, 144, 8):
        row = []
        for x in range(0, 160, 8):
            if lcdc & 0x20 and y >= window_y and x >= window_x:
                row.append(image.u8(window_map + (y - window_y) // 8 * 32 + (x - window_x) // 8))
            else:
                row.append(
                    image.u8(bg_map + ((y + image.u8(SCY)) // 8 % 32) * 32 + (x + image.u8(SCX)) // 8 % 32)
                )
        rows.append(tuple(row))
    return tuple(rows)


def random_image(seed: int) -> MemoryImage:
    rng = random.Random(seed)
    data = bytearray(0x10000)
    data[0x9800:0xA000] = rng.randbytes(0x800)
    data[LCDC] = rng.choice([0x80, 0xE3, 0xC3, 0xA3, 0x8B, 0xEB])
    data[SCX], data[SCY] = rng.randrange(256), rng.randrange(256)
    data[WX], data[WY] = rng.choice([0, 3, 7, 8, 60, 166]), rng.choice([0, 40, 96, 112, 144])
    return MemoryImage(bytes(data))


@pytest.mark.parametrize("seed", range(40))
def test_random_scrolls_and_windows(seed: int) -> None:
    image = random_image(seed)
    assert visible_tiles(image) == reference_tiles(image)


def test_every_fixture() -> None:
    folders = sorted(path for path in GEN1_FIXTURES.iterdir() if path.is_dir())
    assert len(folders) >= 30
    for folder in folders:
        image = load_capture(folder)
        assert visible_tiles(image) == reference_tiles(image), folder.name
