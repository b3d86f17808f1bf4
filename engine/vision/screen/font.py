"""The cartridge's own text and HUD tiles, read from the user's ROM at run time (nothing of the game's
graphics is kept in this project): each 8x8 pattern as the 2-bit shades it shows, and the tile index the
game loads it to, so a screen cell read from pixels becomes the tile index the tile map would hold."""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

import numpy as np

from engine.game.cartridge import ROM_BANK_SIZE, Game, identify
from engine.vision.errors import VisionError

CELL = 8
BLANK_TILE = 0x7F  # the space of the text box set, which every blank cell reads as
FONT_FIRST = 0x80  # vFont = vChars1 tile $00 = tile index $80 in the game's tile maps
MIN_DISTINCT_LETTERS = 90  # pret's 128 font tiles hold 97 distinct patterns (the rest are blank)


class RomTiles(NamedTuple):
    """One block of tiles in the cartridge: its pret symbol, where it is, and where the game loads it."""

    symbol: str
    bank: int
    address: int  # in the switchable bank's window, 0x4000-0x7FFF
    tiles: int
    first_tile: int  # the tile index of its first tile once loaded to VRAM
    bpp: int  # 1: each byte one row, drawn in colours 0 and 3; 2: two bytes a row


# pret/pokered symbols, at the same addresses in pokered.sym and pokeblue.sym (kept per game all the same:
# a game whose blocks moved gets its own row), in the order that wins when two blocks hold the same
# pattern: the font first (its apostrophe is also the text box set's closing quote), then the HUD.
_RED_BLUE = (
    RomTiles("FontGraphics", 0x04, 0x5A80, 128, FONT_FIRST, 1),  # gfx/font/font.1bpp, home/load_font.asm
    RomTiles("BattleHudTiles1", 0x04, 0x6080, 3, 0x6D, 1),  # engine/battle/core.asm LoadHudTilePatterns
    RomTiles("BattleHudTiles2", 0x04, 0x6098, 6, 0x73, 1),  # BattleHudTiles2 and 3, one after the other
    RomTiles("HpBarAndStatusGraphics", 0x04, 0x5EA0, 30, 0x62, 2),  # LoadHpBarAndStatusTilePatterns
    RomTiles("TextBoxGraphics", 0x04, 0x6288, 32, 0x60, 2),  # LoadTextBoxTilePatterns: borders, quotes
)
TILE_SOURCES: dict[Game, tuple[RomTiles, ...]] = {Game.RED: _RED_BLUE, Game.BLUE: _RED_BLUE}


class TileBook:
    """Cell pattern (64 shade bytes, row by row) -> tile index. Built from the cartridge, or by a test
    from patterns of its own."""

    def __init__(self, tiles: Iterable[tuple[int, np.ndarray]]) -> None:
        """`tiles`: (tile index, (8, 8) shades 0-3) pairs; where two hold one pattern, the first wins."""
        self.tiles: dict[bytes, int] = {}
        for index, pattern in tiles:
            self.tiles.setdefault(cell_key(pattern), index)
        self.tiles[cell_key(np.zeros((CELL, CELL), dtype=np.uint8))] = BLANK_TILE
        self._shapes = np.frombuffer(b"".join(self.tiles), dtype=np.uint8).reshape(len(self.tiles), -1)
        self._indices = list(self.tiles.values())

    def __len__(self) -> int:
        return len(self.tiles)

    def nearest(self, key: bytes) -> tuple[int, int]:
        """(tile, pixels apart) of the tile whose pattern differs from the cell's in the fewest pixels: for
        a cell whose scanlines were drawn at two places (a shake that began mid-row)."""
        cell = np.frombuffer(key, dtype=np.uint8)
        distances = np.count_nonzero(self._shapes != cell, axis=1)
        best = int(distances.argmin())
        return self._indices[best], int(distances[best])


def cell_key(pattern: np.ndarray) -> bytes:
    return np.ascontiguousarray(pattern, dtype=np.uint8).tobytes()


def tile_book(rom: bytes) -> TileBook:
    """The tiles of this cartridge (Red or Blue, from the header), checked to look like a font. Every
    block's patterns are kept, also where two blocks load to the same indices (the HUD's and the text
    box's both go to $62-$7F): a cell is read as whichever it shows."""
    blocks = TILE_SOURCES[identify(rom).game]
    _check_font(read_tiles(rom, blocks[0]), blocks[0])
    return TileBook(
        (block.first_tile + number, pattern)
        for block in blocks
        for number, pattern in enumerate(read_tiles(rom, block))
    )


def read_tiles(rom: bytes, block: RomTiles) -> list[np.ndarray]:
    start = block.bank * ROM_BANK_SIZE + block.address - ROM_BANK_SIZE
    size = CELL * block.bpp
    data = rom[start : start + block.tiles * size]
    if len(data) != block.tiles * size:
        raise VisionError(f"the cartridge ends before {block.symbol} ({block.bank:02X}:{block.address:04X})")
    return [_decode(data[i * size : (i + 1) * size], block.bpp) for i in range(block.tiles)]


def _decode(data: bytes, bpp: int) -> np.ndarray:
    """One tile as shades: 1bpp tiles are copied to VRAM with each byte twice (CopyVideoDataDouble), so
    a set bit is colour 3; a 2bpp row is a low-bit byte then a high-bit byte."""
    bits = np.unpackbits(np.frombuffer(data, dtype=np.uint8)).reshape(-1, CELL)
    if bpp == 1:
        return (bits * 3).astype(np.uint8)
    return (bits[0::2] | (bits[1::2] << 1)).astype(np.uint8)


def _check_font(letters: list[np.ndarray], font: RomTiles) -> None:
    """A ROM hack that moved the font would give pictures or code here: refuse it rather than read
    nonsense."""
    distinct = len({cell_key(p) for p in letters})
    if distinct < MIN_DISTINCT_LETTERS or not letters[0].any():
        raise VisionError(
            f"the cartridge has no font at {font.symbol} ({font.bank:02X}:{font.address:04X}): "
            f"{distinct} distinct tiles"
        )
