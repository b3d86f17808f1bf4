"""Which kind of screen a tile grid shows, once a transition is ruled out. The reader (pixels) and the
truth (RAM) share it, so they differ only where their grids or their transition tests do."""

from __future__ import annotations

from engine.game.models import ScreenKind
from engine.game.screen import TileGrid, has_text_frame
from engine.vision.screen.hud import ENEMY, PLAYER, hud_shown
from engine.vision.screen.menus import find_cursor


def grid_kind(grid: TileGrid, *, battle: bool = True) -> ScreenKind:
    """Battle: a battle HUD's "HP:" label where the battle draws it (`battle` False: RAM says no battle);
    menu: a ▶ cursor; dialog: a text box; overworld otherwise."""
    if battle and (hud_shown(grid, ENEMY) or hud_shown(grid, PLAYER)):
        return ScreenKind.BATTLE
    if find_cursor(grid) is not None:
        return ScreenKind.MENU
    if has_text_frame(grid):
        return ScreenKind.DIALOG
    return ScreenKind.OVERWORLD
