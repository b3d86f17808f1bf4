"""What is on screen, read from the VRAM tile maps and the LCD registers (no pixels, no tile graphics)."""

from __future__ import annotations

import re

from engine.game.charmap import screen_glyphs
from engine.game.memory import LCDC, SCX, SCY, WX, WY, MemoryImage

SCREEN_COLUMNS = 20
SCREEN_ROWS = 18
MAP_SIZE = 32
BG_MAP_0 = 0x9800
BG_MAP_1 = 0x9C00

LCDC_BG_MAP_HIGH = 0x08
LCDC_WINDOW_ON = 0x20
LCDC_WINDOW_MAP_HIGH = 0x40

HP_LABEL = (0x71, 0x62)
BOX_TILES = frozenset(range(0x79, 0x7F))
CURSOR = "▶"
CONTINUE_ARROW = "▼"

TileGrid = tuple[tuple[int, ...], ...]


def visible_tiles(image: MemoryImage) -> TileGrid:
    """The 20x18 tile indices the player sees: background scrolled by SCX/SCY, window over it."""
    lcdc = image.u8(LCDC)
    scx, scy = image.u8(SCX), image.u8(SCY)
    window_x, window_y = image.u8(WX) - 7, image.u8(WY)
    window_on = bool(lcdc & LCDC_WINDOW_ON)
    bg_map = BG_MAP_1 if lcdc & LCDC_BG_MAP_HIGH else BG_MAP_0
    window_map = BG_MAP_1 if lcdc & LCDC_WINDOW_MAP_HIGH else BG_MAP_0
    rows = []
    for row in range(SCREEN_ROWS):
        y = row * 8
        tiles = []
        for column in range(SCREEN_COLUMNS):
            x = column * 8
            if window_on and y >= window_y and x >= window_x:
                tile_x, tile_y, base = (x - window_x) // 8, (y - window_y) // 8, window_map
            else:
                tile_x = ((x + scx) // 8) % MAP_SIZE
                tile_y = ((y + scy) // 8) % MAP_SIZE
                base = bg_map
            tiles.append(image.u8(base + tile_y * MAP_SIZE + tile_x))
        rows.append(tuple(tiles))
    return tuple(rows)


def row_text(tiles: tuple[int, ...]) -> str:
    """Decode one tile row; non-text tiles read as blanks, runs of blanks collapse to one space."""
    glyphs = screen_glyphs()
    parts: list[str] = []
    column = 0
    while column < len(tiles):
        if tiles[column : column + 2] == HP_LABEL:
            parts.append("HP:")
            column += 2
            continue
        parts.append(glyphs.get(tiles[column], " "))
        column += 1
    return re.sub(r" +", " ", "".join(parts)).strip()


def has_text_frame(grid: TileGrid) -> bool:
    """Every screen that shows text draws a box around it; wipes and pictures draw none."""
    return any(tile in BOX_TILES for row in grid for tile in row)


def text_lines(grid: TileGrid) -> list[str]:
    """Visible text, one entry per tile row that holds any, top to bottom.

    Frames without any box (battle wipes, title pictures, the bare overworld) have no text: their tiles
    are graphics that only look like font indices.
    """
    if not has_text_frame(grid):
        return []
    return [line for line in (row_text(row) for row in grid) if line]
