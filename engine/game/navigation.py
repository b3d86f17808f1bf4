"""Menu navigation as pure functions: the cursor position (from RAM) and the target go in, the next
button to press comes out. The executor presses one button at a time and re-reads the cursor after each,
so a press the game dropped is corrected instead of compounding.

Cursor conventions from pret/pokered engine/battle/core.asm and home/menu.asm:
- battle main menu: two columns; wTopMenuItemX 9 is the left (item 0 FIGHT, 1 ITEM), 15 the right
  (item 0 PKMN, 1 RUN);
- regular move menu: item 1 is the first move (the box border is item 0's row);
- party menu, YES/NO boxes and list menus: item 0 is the top entry;
- scrolling list menus (the bag; home/list_menu.asm DisplayListMenuID): three rows on screen, the cursor
  wCurrentMenuItem on a row and wListScrollOffset entries hidden above; DOWN on the last row scrolls
  (until CANCEL, the entry after the last item, is on the last row), UP on the first row scrolls back.
  So the entry under the cursor is wCurrentMenuItem + wListScrollOffset, and every press moves it by one.
"""

from __future__ import annotations

from enum import StrEnum

from engine.game.buttons import Button
from engine.game.models import MenuCursor

LEFT_COLUMN_X = 9
RIGHT_COLUMN_X = 15
# The Safari Zone's menu (BALL, THROW ROCK | BAIT, RUN) has its columns elsewhere (pret engine/battle/core.asm
# DisplayBattleMenu .safariLeftColumn, .safariRightColumn); its entries stand where FIGHT, ITEM, PKMN, RUN do.
SAFARI_LEFT_COLUMN_X = 1
SAFARI_RIGHT_COLUMN_X = 13
MOVE_MENU_FIRST_ITEM = 1


class MainMenuItem(StrEnum):
    FIGHT = "FIGHT"
    ITEM = "ITEM"
    PKMN = "PKMN"
    RUN = "RUN"


_MAIN_MENU_LAYOUT = {
    MainMenuItem.FIGHT: (LEFT_COLUMN_X, 0),
    MainMenuItem.ITEM: (LEFT_COLUMN_X, 1),
    MainMenuItem.PKMN: (RIGHT_COLUMN_X, 0),
    MainMenuItem.RUN: (RIGHT_COLUMN_X, 1),
}


_SAFARI_MENU_LAYOUT = {
    MainMenuItem.FIGHT: (SAFARI_LEFT_COLUMN_X, 0),  # BALL
    MainMenuItem.ITEM: (SAFARI_LEFT_COLUMN_X, 1),  # THROW ROCK
    MainMenuItem.PKMN: (SAFARI_RIGHT_COLUMN_X, 0),  # BAIT
    MainMenuItem.RUN: (SAFARI_RIGHT_COLUMN_X, 1),
}


def main_menu_item(cursor: MenuCursor, safari: bool = False) -> MainMenuItem | None:
    for item, (column_x, row) in (_SAFARI_MENU_LAYOUT if safari else _MAIN_MENU_LAYOUT).items():
        if cursor.top_x == column_x and cursor.item == row:
            return item
    return None


def next_main_menu_press(cursor: MenuCursor, target: MainMenuItem, safari: bool = False) -> Button | None:
    """The one press that brings the main-menu cursor closer to `target`; None when it is there."""
    column_x, row = (_SAFARI_MENU_LAYOUT if safari else _MAIN_MENU_LAYOUT)[target]
    if cursor.top_x != column_x:
        return Button.RIGHT if column_x > cursor.top_x else Button.LEFT
    if cursor.item != row:
        return Button.DOWN if row > cursor.item else Button.UP
    return None


def next_list_press(current: int, target: int) -> Button | None:
    """Vertical menus (party, YES/NO, lists). Gen 1 menus do not wrap unless told to, so go straight."""
    if current == target:
        return None
    return Button.DOWN if target > current else Button.UP


def next_move_menu_press(cursor: MenuCursor, slot: int) -> Button | None:
    return next_list_press(cursor.item, slot + MOVE_MENU_FIRST_ITEM)


def list_position(cursor: MenuCursor) -> int:
    """The entry under the cursor of a scrolling list (the row plus the entries scrolled past)."""
    return cursor.item + (cursor.scroll_offset or 0)


def next_scrolling_list_press(cursor: MenuCursor, index: int) -> Button | None:
    """The one press that brings a scrolling list's cursor closer to entry `index`; None when on it."""
    return next_list_press(list_position(cursor), index)
