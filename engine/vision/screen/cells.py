"""From pixels to tiles: the screen's colours as the four shades, and each 8x8 cell as the tile index
whose pattern it shows (engine.game.screen's TileGrid, so the tile map's own readers apply)."""

from __future__ import annotations

from collections import Counter

import numpy as np

from engine.game.screen import SCREEN_COLUMNS, SCREEN_ROWS, TileGrid
from engine.vision.errors import VisionError
from engine.vision.screen.font import CELL, TileBook

WIDTH, HEIGHT = SCREEN_COLUMNS * CELL, SCREEN_ROWS * CELL  # 160 x 144
UNKNOWN_TILE = 0x00  # a cell that is no text or HUD tile (map, picture, sprite); it reads as a blank
SHADES = 4
LEVEL = 255 // (SHADES - 1)  # 85: the step between PyBoy's greys FF, 99 (about), 55, 00
BLACK = SHADES - 1
LONG_LINE = 120  # black pixels in a row of a text box's border (the box is 160 wide, its corners round)
SIDE_ROWS = 24  # the box's left side is looked for over three rows of cells below its top border
SIDE_COLUMN = 2  # │'s first black column
BORDER_ROW = 2  # ─'s first black row
DIALOG_TOP_ROW = 12  # the dialog (and battle) box's top border: hlcoord 0, 12 (pret home/text.asm)


def to_shades(rgb: np.ndarray) -> np.ndarray:
    """(144, 160) shades, 0 white to 3 black, by luminance in four bands: PyBoy's default palette is four
    greys, and a tinted palette (green, say) still keeps its four colours in order of brightness."""
    if rgb.shape != (HEIGHT, WIDTH, 3):
        raise VisionError(f"not a Game Boy screen: {rgb.shape[1]}x{rgb.shape[0]} pixels, expected 160x144")
    weights = np.array([299, 587, 114], dtype=np.int32)  # ITU-R 601 luma, in thousandths
    luma = (rgb.astype(np.int32) @ weights) // 1000
    return ((255 - luma + LEVEL // 2) // LEVEL).clip(0, SHADES - 1).astype(np.uint8)


def cell_keys(shades: np.ndarray) -> list[bytes]:
    """The cells' patterns (360 of a screen; a band of rows gives its own), row by row, each as 64
    shade bytes (font.cell_key's form)."""
    cells = shades.reshape(-1, CELL, SCREEN_COLUMNS, CELL).swapaxes(1, 2)
    blob = np.ascontiguousarray(cells).tobytes()
    size = CELL * CELL
    return [blob[at : at + size] for at in range(0, len(blob), size)]


def read_grid(keys: list[bytes], book: TileBook) -> TileGrid:
    """Each cell as the tile index of the pattern it shows, or UNKNOWN_TILE."""
    lookup = book.tiles.get
    flat = [lookup(key, UNKNOWN_TILE) for key in keys]
    rows = len(flat) // SCREEN_COLUMNS
    return tuple(tuple(flat[row * SCREEN_COLUMNS : (row + 1) * SCREEN_COLUMNS]) for row in range(rows))


def uniform_share(keys: list[bytes]) -> float:
    """The share of cells identical to the most common cell: a cleared or filled screen is near 1."""
    return Counter(keys).most_common(1)[0][1] / len(keys)


def window_shift(shades: np.ndarray) -> tuple[int, int]:
    """(dx, dy) the window was drawn away from its place, found from the first text box that runs across
    the screen: its top border (TextBoxGraphics' ─, rows 2, 4 and 5 black) and its left side (│, columns 2
    and 4 black) below. An attack's hit moves WX or WY up to a tile's width; PyBoy draws the first frame
    it renders a line high. (0, 0) where no such box is seen."""
    black = shades == BLACK
    across = black.sum(axis=1) >= LONG_LINE
    top = next((y for y in range(1, HEIGHT - 4) if _border_at(across, y)), None)
    if top is None:
        return 0, 0
    band = black[top - BORDER_ROW + CELL : top - BORDER_ROW + CELL + SIDE_ROWS]
    side = np.flatnonzero(band.sum(axis=0) >= len(band))
    dx = _offset(int(side[0]) - SIDE_COLUMN) if len(side) else 0
    return dx, _offset(top - (DIALOG_TOP_ROW * CELL + BORDER_ROW))


def _border_at(across: np.ndarray, y: int) -> bool:
    """Rows y-1 to y+4 read as ─ does from its row 1: white, black, white, black, black, white (a wall's
    thick black bands do not)."""
    return [bool(row) for row in across[y - 1 : y + 5]] == [False, True, False, True, True, False]


def _offset(moved: int) -> int:
    """Pixels moved from the usual place (the dialog box's), or from the nearest tile boundary: a box
    elsewhere tells the offset only up to whole tiles."""
    return moved if -CELL <= moved <= CELL else (moved + 1) % CELL - 1


def shifted(shades: np.ndarray, shift: tuple[int, int]) -> np.ndarray:
    """The picture moved back by (dx, dy) (either may be negative), white where nothing was drawn."""
    dx, dy = shift
    out = np.zeros_like(shades)
    out[max(0, -dy) : HEIGHT - max(0, dy), max(0, -dx) : WIDTH - max(0, dx)] = shades[
        max(0, dy) : HEIGHT - max(0, -dy), max(0, dx) : WIDTH - max(0, -dx)
    ]
    return out
