"""Cells that are not where the tile grid puts them: an attack's hit shakes the window a few pixels
(WX, WY), the shake can begin or end between two scanlines of one frame (so rows of one screen can sit at
different places), and PyBoy draws the window a line high in the first frame it renders. Looked into
where the text box across the screen is not at its place, or a HUD row does not read whole."""

from __future__ import annotations

import numpy as np

from engine.game.screen import SCREEN_COLUMNS, TileGrid
from engine.vision.screen import hud
from engine.vision.screen.cells import (
    DIALOG_TOP_ROW,
    UNKNOWN_TILE,
    cell_keys,
    read_grid,
    shifted,
    window_shift,
)
from engine.vision.screen.font import BLANK_TILE, CELL, TileBook

BLANKS = frozenset({UNKNOWN_TILE, BLANK_TILE})
TOP_LEFT = 0x79  # ┌: where the dialog box's is in place, so are the cells
LIFTS = (0, -1, 1, -2, 2)  # rows of pixels tried around a shift; the first best wins
SIDEWAYS = range(-1, CELL + 1)  # WX 6 to 15: a hit's shake, or none
NEAR_PIXELS = 8  # of 64: a letter some of whose scanlines moved a pixel is about this far from itself


def aligned_grid(shades: np.ndarray, grid: TileGrid, book: TileBook) -> TileGrid:
    """`grid` (read at the plain cell places), or the screen read where its shaken rows are."""
    shift = (0, 0) if grid[DIALOG_TOP_ROW][0] == TOP_LEFT else window_shift(shades)
    if shift != (0, 0):
        grid = _shaken(shades, shift, book)
    return _mend_hud(shades, grid, book)


def _shaken(shades: np.ndarray, shift: tuple[int, int], book: TileBook) -> TileGrid:
    """Row by row, the place that reads most: the box's shift first (it wins where rows tie), then every
    place a tile sideways and two pixels up or down around it, and around no shift at all where the
    shift is under half a tile (a row read two places a tile apart would repeat its neighbour)."""
    dx, dy = shift
    heights = [dy + lift for lift in LIFTS] + ([lift for lift in LIFTS] if abs(dy) < CELL // 2 else [])
    places = [(dx, dy)] + [(x, y) for y in dict.fromkeys(heights) for x in SIDEWAYS if (x, y) != (dx, dy)]
    grids = [read_grid(cell_keys(shifted(shades, place)), book) for place in places]
    return tuple(max((grid[row] for grid in grids), key=_known) for row in range(len(grids[0])))


def _mend_hud(shades: np.ndarray, grid: TileGrid, book: TileBook) -> TileGrid:
    """A HUD's name or level row that reads empty or holds a cell of no tile (only letters and blanks
    are drawn there) is looked for a few pixels away, alone."""
    rows = list(grid)
    for side in (hud.ENEMY, hud.PLAYER):
        if not hud.hud_shown(grid, side):
            continue
        for row in (side.name_row, side.level_row):
            if not _whole(grid[row][side.columns]):
                rows[row] = _row_guessed(shades, row, side.columns, book)
    return tuple(rows)


def _row_guessed(shades: np.ndarray, row: int, columns: slice, book: TileBook) -> tuple[int, ...]:
    """Each cell read as its nearest tile (a few pixels off at most: a row whose scanlines were drawn at
    two places, or pushed against the screen's edge), at the place with the most letters, then the
    nearest to them; no tile where no place reads."""
    best: tuple[tuple[int, int], list[int]] | None = None
    for place in [(0, 0), *_places()]:
        guesses = [book.nearest(key) for key in cell_keys(_band(shades, row, place))[columns]]
        tiles = [tile for tile, _ in guesses]
        rank = (_known(tuple(tiles)), -sum(apart for _, apart in guesses))
        if all(apart <= NEAR_PIXELS for _, apart in guesses) and (best is None or rank > best[0]):
            best = (rank, tiles)
    found = [UNKNOWN_TILE] * SCREEN_COLUMNS
    if best is not None:
        found[columns] = best[1]
    return tuple(found)


def _places() -> list[tuple[int, int]]:
    """Small moves of a row: a pixel or two up or down, up to a tile sideways."""
    return [(dx, dy) for dy in LIFTS for dx in range(1 - CELL, CELL) if dx or dy]


def _band(shades: np.ndarray, row: int, place: tuple[int, int]) -> np.ndarray:
    return shifted(shades, place)[row * CELL : (row + 1) * CELL]


def _whole(tiles: tuple[int, ...]) -> bool:
    """Some letters and no cell of no tile."""
    return UNKNOWN_TILE not in tiles and _known(tiles) > 0


def _known(tiles: tuple[int, ...]) -> int:
    return sum(tile not in BLANKS for tile in tiles)
