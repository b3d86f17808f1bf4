"""The battle HUD where the game draws it, read from a tile grid (pixels or the tile map alike): names,
levels, the player's HP numbers and both HP bars (pret engine/battle/core.asm DrawEnemyHUDAndHPBar and
DrawPlayerHUDAndHPBar, home/pokemon.asm DrawHPBar, engine/gfx/hp_bar.asm GetHPBarLength)."""

from __future__ import annotations

import re
from typing import NamedTuple

from engine.game.screen import HP_LABEL, TileGrid, row_text

BAR_EMPTY = 0x63  # DrawHPBar: $63 an empty bar tile, $64-$6B one to eight pixels filled
BAR_FULL = 0x6B
BAR_TILES = 6
BAR_PIXELS = BAR_TILES * (BAR_FULL - BAR_EMPTY)  # 48
LEVEL = re.compile(r"^(?::L)?(\d{1,3})$")  # PrintLevel writes 100 over the ":L" tile
HP_NUMBERS = re.compile(r"(\d{1,3})/ ?(\d{1,3})")


class HudSide(NamedTuple):
    label: tuple[int, int]  # (row, column) of the "HP:" label, the bar's cells follow it
    name_row: int
    level_row: int
    columns: slice  # the HUD's columns on its name and level rows


ENEMY = HudSide(label=(2, 2), name_row=0, level_row=1, columns=slice(0, 11))  # hlcoord 2, 2 etc.
PLAYER = HudSide(label=(9, 10), name_row=7, level_row=8, columns=slice(10, 20))  # hlcoord 10, 9 etc.
PLAYER_NUMBERS_ROW = 10  # "cur/ max" under the player's bar


def hud_shown(grid: TileGrid, side: HudSide) -> bool:
    row, column = side.label
    return grid[row][column : column + 2] == HP_LABEL


def bar_pixels(grid: TileGrid, side: HudSide) -> int | None:
    """Pixels filled of 48, or None where the six cells are not all bar tiles."""
    row, column = side.label
    cells = grid[row][column + 2 : column + 2 + BAR_TILES]
    if not all(BAR_EMPTY <= tile <= BAR_FULL for tile in cells):
        return None
    return sum(tile - BAR_EMPTY for tile in cells)


def bar_percent(pixels: int) -> float:
    """The middle of the HP shares that draw this many pixels: GetHPBarLength draws floor(48 * hp / max)
    pixels but at least one while hp > 0, so 0 and 48 are exact and the rest within 100/96 points."""
    if pixels in (0, BAR_PIXELS):
        return 100.0 * pixels / BAR_PIXELS
    if pixels == 1:
        return 100.0 / BAR_PIXELS  # hp in (0, 2/48 of max): the middle of (0, 4.17)
    return 100.0 * (pixels + 0.5) / BAR_PIXELS


def bar_length(hp: int, max_hp: int) -> int:
    """The pixels the game draws for `hp` (DrawEnemyHUDAndHPBar, GetHPBarLength): 48 * hp / max, both
    divided by 4 first when max is over 255 (the divisor is one byte), at least one while hp > 0."""
    if hp <= 0 or max_hp <= 0:
        return 0
    product, divisor = hp * BAR_PIXELS, max_hp
    if max_hp > 0xFF:
        product, divisor = (product & 0xFFFF) >> 2, max_hp >> 2
    return max(1, min(BAR_PIXELS, product // divisor))


def name(grid: TileGrid, side: HudSide) -> str | None:
    return row_text(grid[side.name_row][side.columns]) or None


def level(grid: TileGrid, side: HudSide) -> int | None:
    """None where a status (PSN, SLP, ...) is printed instead, as PrintStatusConditionNotFainted does."""
    found = LEVEL.match(row_text(grid[side.level_row][side.columns]))
    return int(found.group(1)) if found else None


def player_hp(grid: TileGrid) -> tuple[int, int] | None:
    """The player's HP as printed under the bar, (current, max)."""
    found = HP_NUMBERS.search(row_text(grid[PLAYER_NUMBERS_ROW][PLAYER.columns]))
    if found is None or int(found.group(2)) == 0:
        return None
    return int(found.group(1)), int(found.group(2))
