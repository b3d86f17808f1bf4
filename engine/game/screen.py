"""What is on screen, read from the VRAM tile maps and the LCD registers (no pixels, no tile graphics)."""

from __future__ import annotations

import re
from functools import lru_cache

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


@lru_cache(maxsize=512)
def _map_columns(scroll_x: int) -> tuple[int, ...]:
    """Which of the 32 map columns each of the 20 screen columns shows."""
    return tuple(((column * 8 + scroll_x) // 8) % MAP_SIZE for column in range(SCREEN_COLUMNS))


@lru_cache(maxsize=512)
def _window_columns(window_x: int) -> tuple[tuple[int, int], ...]:
    """(screen column, window column) for the screen columns the window covers."""
    return tuple(
        (column, (column * 8 - window_x) // 8) for column in range(SCREEN_COLUMNS) if column * 8 >= window_x
    )


def visible_tiles(image: MemoryImage) -> TileGrid:
    """The 20x18 tile indices the player sees: background scrolled by SCX/SCY, window over it.

    Called at least once at every look at the screen (the decision point and the state both read it), so
    the last image's grid is kept, and unwrapped rows are sliced whole rather than read a byte at a time."""
    global _last_grid
    last = _last_grid  # read once: another thread may replace it in between
    if last is not None and last[0] is image:
        return last[1]
    grid = _visible_tiles(image.to_bytes())
    _last_grid = (image, grid)
    return grid


_last_grid: tuple[MemoryImage, TileGrid] | None = None


def _visible_tiles(data: bytes) -> TileGrid:
    lcdc = data[LCDC]
    scx, scy = data[SCX], data[SCY]
    window_x, window_y = data[WX] - 7, data[WY]
    window_on = bool(lcdc & LCDC_WINDOW_ON)
    bg_map = BG_MAP_1 if lcdc & LCDC_BG_MAP_HIGH else BG_MAP_0
    window_map = BG_MAP_1 if lcdc & LCDC_WINDOW_MAP_HIGH else BG_MAP_0
    columns = _map_columns(scx)
    first = columns[0]
    unwrapped = first + SCREEN_COLUMNS <= MAP_SIZE  # the 20 columns are one run of the map row
    covered = _window_columns(window_x) if window_on else ()
    rows = []
    for row in range(SCREEN_ROWS):
        y = row * 8
        start = bg_map + ((y + scy) // 8) % MAP_SIZE * MAP_SIZE
        windowed = covered and y >= window_y
        if unwrapped and not windowed:
            rows.append(tuple(data[start + first : start + first + SCREEN_COLUMNS]))
            continue
        line = data[start : start + MAP_SIZE]
        tiles = [line[column] for column in columns]
        if windowed:
            window_start = window_map + (y - window_y) // 8 * MAP_SIZE
            for column, window_column in covered:
                tiles[column] = data[window_start + window_column]
        rows.append(tuple(tiles))
    return tuple(rows)


@lru_cache(maxsize=4096)
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
