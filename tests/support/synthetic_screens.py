"""Screens made by test code for the screen reader, with no game's graphics: a generated cartridge whose
font and HUD blocks (at the addresses engine.vision.screen.font reads) hold random 8x8 patterns, tile grids
laid out the way Gen 1 lays its text boxes, menus and battle HUD out, and the picture drawn from them in
PyBoy's four greys."""

from __future__ import annotations

import numpy as np

from engine.emulator.png import encode_png
from engine.game.cartridge import ROM_BANK_SIZE, Game
from engine.game.charmap import screen_glyphs
from engine.game.screen import HP_LABEL, SCREEN_COLUMNS, SCREEN_ROWS, TileGrid
from engine.vision.screen.font import CELL, TILE_SOURCES, RomTiles, read_tiles
from tests.support.romgen import build_rom

GREYS = (0xFF, 0x99, 0x55, 0x00)  # PyBoy's default palette, shade 0 (white) to 3 (black)
BLANK, CURSOR = 0x7F, 0xED
TOP_LEFT, ACROSS, TOP_RIGHT, SIDE, BOTTOM_LEFT, BOTTOM_RIGHT = 0x79, 0x7A, 0x7B, 0x7C, 0x7D, 0x7E
LEVEL_TILE = 0x6E  # ":L"
BAR_EMPTY = 0x63
MAP_TILES = range(0x00, 0x60)  # what a map or a picture uses: no text
LINE_ROWS = (2, 4, 5)  # the synthetic box's ─ is black on these rows, its │ on these columns:
LINE_COLUMNS = (2, 4)  # the shape engine.vision.screen.cells.window_shift looks for


def synthetic_rom(seed: int = 0) -> bytes:
    """A cartridge titled POKEMON RED with random tiles in every block the reader reads, and lines for the
    text box's ─ and │ (an attack's shake is found from them)."""
    rng = np.random.default_rng(seed)
    rom = bytearray(build_rom(title=b"POKEMON RED", banks=8))
    for block in TILE_SOURCES[Game.RED]:
        size = CELL * block.bpp * block.tiles
        start = block.bank * ROM_BANK_SIZE + block.address - ROM_BANK_SIZE
        rom[start : start + size] = rng.integers(1, 256, size, dtype=np.uint8).tobytes()
    for block in TILE_SOURCES[Game.RED][-2:]:  # the HUD's and the text box's blocks both hold them
        _put_tile(rom, block, ACROSS, _lines(rows=LINE_ROWS))
        _put_tile(rom, block, SIDE, _lines(columns=LINE_COLUMNS))
    return bytes(rom)


def _lines(rows: tuple[int, ...] = (), columns: tuple[int, ...] = ()) -> bytes:
    """A 2bpp tile black on the given rows or columns, white elsewhere."""
    out = bytearray()
    for row in range(CELL):
        bits = 0xFF if row in rows else sum(0x80 >> column for column in columns)
        out += bytes([bits, bits])
    return bytes(out)


def _put_tile(rom: bytearray, block: RomTiles, tile: int, data: bytes) -> None:
    start = block.bank * ROM_BANK_SIZE + block.address - ROM_BANK_SIZE + (tile - block.first_tile) * len(data)
    rom[start : start + len(data)] = data


def patterns(rom: bytes) -> dict[int, np.ndarray]:
    """Tile index -> the shades the game would draw, the first block's pattern winning as in tile_book."""
    found: dict[int, np.ndarray] = {}
    for block in TILE_SOURCES[Game.RED]:
        for number, pattern in enumerate(read_tiles(rom, block)):
            found.setdefault(block.first_tile + number, pattern)
    found[BLANK] = np.zeros((CELL, CELL), dtype=np.uint8)
    return found


class Screen:
    """A 20x18 tile grid being laid out, blank at first."""

    def __init__(self) -> None:
        self.tiles = [[BLANK] * SCREEN_COLUMNS for _ in range(SCREEN_ROWS)]
        self._codes = {glyph: tile for tile, glyph in sorted(screen_glyphs().items(), reverse=True)}

    def text(self, row: int, column: int, words: str) -> Screen:
        for at, glyph in enumerate(words):
            self.tiles[row][column + at] = BLANK if glyph == " " else self._codes[glyph]
        return self

    def tile(self, row: int, column: int, tile: int) -> Screen:
        self.tiles[row][column] = tile
        return self

    def box(self, top: int, left: int, bottom: int, right: int) -> Screen:
        """A text box's frame, as TextBoxBorder draws it."""
        for column in range(left + 1, right):
            self.tiles[top][column] = self.tiles[bottom][column] = ACROSS
        for row in range(top + 1, bottom):
            self.tiles[row][left] = self.tiles[row][right] = SIDE
        corners = {(top, left): TOP_LEFT, (top, right): TOP_RIGHT}
        corners |= {(bottom, left): BOTTOM_LEFT, (bottom, right): BOTTOM_RIGHT}
        for (row, column), tile in corners.items():
            self.tiles[row][column] = tile
        return self

    def bar(self, row: int, column: int, pixels: int) -> Screen:
        """ "HP:" and six bar tiles filled to `pixels` of 48, as DrawHPBar draws them."""
        self.tiles[row][column : column + 2] = list(HP_LABEL)
        for cell in range(6):
            self.tiles[row][column + 2 + cell] = BAR_EMPTY + max(0, min(8, pixels - 8 * cell))
        return self

    def scenery(self, rng: np.random.Generator, rows: range) -> Screen:
        for row in rows:
            self.tiles[row] = [int(tile) for tile in rng.choice(list(MAP_TILES), SCREEN_COLUMNS)]
        return self

    def grid(self) -> TileGrid:
        return tuple(tuple(row) for row in self.tiles)


def draw(grid: TileGrid, shapes: dict[int, np.ndarray], seed: int = 0) -> np.ndarray:
    """The (144, 160, 3) picture of a grid: each known tile's pattern, other tiles random scenery."""
    rng = np.random.default_rng(seed)
    scenery = {tile: rng.integers(0, 4, (CELL, CELL), dtype=np.uint8) for tile in MAP_TILES}
    shades = np.zeros((SCREEN_ROWS * CELL, SCREEN_COLUMNS * CELL), dtype=np.uint8)
    for row, tiles in enumerate(grid):
        for column, tile in enumerate(tiles):
            pattern = shapes.get(tile, scenery.get(tile))
            assert pattern is not None, f"no pattern for tile {tile:#x}"
            shades[row * CELL : (row + 1) * CELL, column * CELL : (column + 1) * CELL] = pattern
    grey = np.array(GREYS, dtype=np.uint8)[shades]
    return np.repeat(grey[:, :, None], 3, axis=2)


def png_of(grid: TileGrid, shapes: dict[int, np.ndarray], seed: int = 0) -> bytes:
    return encode_png(draw(grid, shapes, seed))
