"""The menu on screen, read from a tile grid: the ▶ cursor and the items beside it. Gen 1 draws every
menu's items in a column right of where its cursor stands, one item a row (two rows apart in most menus),
inside a box whose left border is the column left of the cursor (the party menu has no box)."""

from __future__ import annotations

from typing import NamedTuple

from engine.game.screen import SCREEN_COLUMNS, SCREEN_ROWS, TileGrid, row_text

CURSOR_TILE = 0xED  # ▶ (pret constants/charmap.asm)
HOLLOW_CURSOR_TILE = 0xEC  # ▷: the item chosen in a menu left behind a sub-menu
BLANK_TILES = frozenset({0x7F, 0x00})  # a space, or a cell that is no text (UNKNOWN_TILE)
BOX_SIDE = 0x7C  # │


class MenuItems(NamedTuple):
    texts: tuple[str, ...]  # top to bottom
    rows: tuple[int, ...]  # the screen row of each
    chosen: int  # the index of the one the cursor is on


def find_cursor(grid: TileGrid) -> tuple[int, int] | None:
    """(row, column) of the first ▶, top to bottom."""
    for row, tiles in enumerate(grid):
        if CURSOR_TILE in tiles:
            return row, tiles.index(CURSOR_TILE)
    return None


def menu_items(grid: TileGrid, cursor: tuple[int, int]) -> MenuItems:
    """The items: rows of the cursor's box whose text starts where the cursor's item starts, with
    nothing but a blank or a ▷ in the cursor's column."""
    row, column = cursor
    first = _first_text(grid[row], column)
    if first is None:
        return MenuItems((), (), 0)
    free = BLANK_TILES | {HOLLOW_CURSOR_TILE}
    rows = tuple(
        line
        for line in _box_rows(grid, cursor)
        if (line == row or grid[line][column] in free) and _first_text(grid[line], column) == first
    )
    end = _right_side(grid[row], first)
    texts = tuple(row_text(grid[line][first:end]) for line in rows)
    return MenuItems(texts, rows, rows.index(row))


def _first_text(tiles: tuple[int, ...], column: int) -> int | None:
    """The first column right of `column` that holds anything."""
    return next((at for at in range(column + 1, SCREEN_COLUMNS) if tiles[at] not in BLANK_TILES), None)


def _right_side(tiles: tuple[int, ...], first: int) -> int:
    """The column of the box's right border on the cursor's row (the screen's edge without one): a small
    box (YES/NO) stands over whatever the row shows beyond it."""
    return next((at for at in range(first, SCREEN_COLUMNS) if tiles[at] == BOX_SIDE), SCREEN_COLUMNS)


def _box_rows(grid: TileGrid, cursor: tuple[int, int]) -> range:
    """The rows inside the cursor's box (its left border runs down the column left of the cursor), or
    every row where there is no such border."""
    row, column = cursor
    if column == 0 or grid[row][column - 1] != BOX_SIDE:
        return range(SCREEN_ROWS)
    top = row
    while top > 0 and grid[top - 1][column - 1] == BOX_SIDE:
        top -= 1
    bottom = row
    while bottom < SCREEN_ROWS - 1 and grid[bottom + 1][column - 1] == BOX_SIDE:
        bottom += 1
    return range(top, bottom + 1)
