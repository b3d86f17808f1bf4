"""The screen reader: PNG bytes in, a `ScreenReading` out, from pixels alone."""

from __future__ import annotations

import numpy as np

from engine.game.models import ScreenKind
from engine.game.screen import TileGrid, text_lines
from engine.vision.screen import hud
from engine.vision.screen.align import aligned_grid
from engine.vision.screen.cells import cell_keys, read_grid, to_shades, uniform_share
from engine.vision.screen.font import TileBook, tile_book
from engine.vision.screen.kinds import grid_kind
from engine.vision.screen.menus import find_cursor, menu_items
from engine.vision.screen.png import decode_png
from engine.vision.screen.reading import ScreenReading

SHADES, WHITE, LIGHT, BLACK = 4, 0, 1, 3
# Where the player's sprite stands in the overworld, a few pixels to spare (pret: the player's sprite at
# screen pixel 64, 60, 16 wide and high).
PLAYER_SQUARE = (slice(56, 80), slice(60, 84))
UNIFORM = 0.97  # a cleared or filled screen: all cells alike but a sprite's few (the player is 4 of 360)


class ScreenReader:
    def __init__(self, book: TileBook) -> None:
        self.book = book

    @classmethod
    def from_rom(cls, rom: bytes) -> ScreenReader:
        return cls(tile_book(rom))

    def read(self, png: bytes) -> ScreenReading:
        return self.read_rgb(decode_png(png))

    def read_rgb(self, rgb: np.ndarray) -> ScreenReading:
        shades = to_shades(rgb)
        keys = cell_keys(shades)
        if _is_transition(shades, keys):
            return ScreenReading(screen=ScreenKind.TRANSITION)
        return reading_of(aligned_grid(shades, read_grid(keys, self.book), self.book))


def _is_transition(shades: np.ndarray, keys: list[bytes]) -> bool:
    """Fading (pret home/fade.asm FadePal1-8): a palette on its way to white leaves no black pixel, one
    nearly black (FadePal1-2) leaves only the two darkest shades, the player's sprite aside (its palette
    often fades later than the background's). Not judged by white alone: tall grass has no black but the
    player's, the sea and a lift no white. Or the screen is one pattern all over."""
    counts = np.bincount(shades.ravel(), minlength=SHADES)
    around = counts - np.bincount(shades[PLAYER_SQUARE].ravel(), minlength=SHADES)
    fading = counts[BLACK] == 0 or around[WHITE] + around[LIGHT] == 0
    return bool(fading) or uniform_share(keys) >= UNIFORM


def reading_of(grid: TileGrid) -> ScreenReading:
    """Everything a grid read from pixels says, the screen being no transition."""
    kind = grid_kind(grid)
    cursor = find_cursor(grid)
    items = menu_items(grid, cursor) if cursor is not None else None
    enemy = kind is ScreenKind.BATTLE and hud.hud_shown(grid, hud.ENEMY)
    return ScreenReading(
        screen=kind,
        text=tuple(text_lines(grid)),
        menu=items.texts if items is not None else (),
        cursor=items.chosen if items is not None else None,
        player_hp_pct=_player_hp(grid) if kind is ScreenKind.BATTLE else None,
        enemy_hp_pct=_bar(grid, hud.ENEMY) if enemy else None,
        enemy_name=hud.name(grid, hud.ENEMY) if enemy else None,
        enemy_level=hud.level(grid, hud.ENEMY) if enemy else None,
        can_move=kind is ScreenKind.OVERWORLD,
    )


def _bar(grid: TileGrid, side: hud.HudSide) -> float | None:
    pixels = hud.bar_pixels(grid, side)
    return hud.bar_percent(pixels) if pixels is not None else None


def _player_hp(grid: TileGrid) -> float | None:
    """The numbers under the bar are exact; the bar is the fallback."""
    if not hud.hud_shown(grid, hud.PLAYER):
        return None
    numbers = hud.player_hp(grid)
    if numbers is not None and numbers[0] <= numbers[1]:
        return 100.0 * numbers[0] / numbers[1]
    return _bar(grid, hud.PLAYER)
