"""Decision-point detection: what the game waits for, from RAM plus the text on screen.

RAM says where we are (in battle or not, window shown, input locked, walking); the visible text tells the
menus apart, because Gen 1 reuses the same menu variables for every menu.
"""

from __future__ import annotations

from engine.game.memory import LCDC, WY, MemoryImage
from engine.game.models import DecisionPoint, ScreenKind
from engine.game.ram import RamMap
from engine.game.screen import CONTINUE_ARROW, CURSOR, visible_tiles

LCD_ON = 0x80
WINDOW_HIDDEN_Y = 0x90
IN_BATTLE = (1, 2)
# The bag in battle is a list menu (pret home/list_menu.asm DisplayListMenuID): wListMenuID ITEMLISTMENU
# (constants/menu_constants.asm), its first entry at wTopMenuItemX 5, wTopMenuItemY 4.
ITEM_LIST_MENU = 3
LIST_MENU_TOP = (5, 4)
# Corner tiles of the Pokédex data page (engine/menus/pokedex.asm ShowPokedexDataInternal), a screen
# without a text box that waits for a button; shown after a catch of a species not owned before.
POKEDEX_CORNERS = (0x63, 0x65, 0x6C, 0x6E)

MENU_POINTS = frozenset(
    {
        DecisionPoint.START_MENU,
        DecisionPoint.OTHER_MENU,
        DecisionPoint.YES_NO_PROMPT,
        DecisionPoint.TITLE_MENU,
        DecisionPoint.BATTLE_MAIN_MENU,
        DecisionPoint.BATTLE_MOVE_MENU,
        DecisionPoint.BATTLE_PARTY_MENU,
        DecisionPoint.BATTLE_BAG_MENU,
        DecisionPoint.BATTLE_ITEM_TARGET_MENU,
        DecisionPoint.BATTLE_NEXT_MON_PROMPT,
        DecisionPoint.LEARN_MOVE_PROMPT,
        DecisionPoint.FORGET_MOVE_MENU,
        DecisionPoint.ABANDON_LEARNING_PROMPT,
    }
)

_SCREEN_KIND = {
    DecisionPoint.OVERWORLD_FREE: ScreenKind.OVERWORLD,
    DecisionPoint.DIALOG_WAIT: ScreenKind.DIALOG,
    DecisionPoint.EVOLUTION: ScreenKind.TRANSITION,
    DecisionPoint.POKEDEX_ENTRY: ScreenKind.DIALOG,
    DecisionPoint.BUSY: ScreenKind.TRANSITION,
}


def _has_yes_no(lines: list[str]) -> bool:
    """A two-option menu: YES/NO, or the nurse's HEAL/CANCEL (pret HEAL_CANCEL_MENU), answered alike."""
    words = {word.lstrip(CURSOR) for line in lines for word in line.split()}
    return {"YES", "NO"} <= words or {"HEAL", "CANCEL"} <= words


def _has_cursor(lines: list[str]) -> bool:
    return any(CURSOR in line for line in lines)


def _is_bag_list(image: MemoryImage, ram: RamMap, lines: list[str]) -> bool:
    """The bag's list box with its cursor out (the variables stay set after it closes: the cursor
    tells an open list from a stale one)."""
    top = (image.u8(ram.wTopMenuItemX), image.u8(ram.wTopMenuItemY))
    return image.u8(ram.wListMenuID) == ITEM_LIST_MENU and top == LIST_MENU_TOP and _has_cursor(lines)


def _is_pokedex_page(image: MemoryImage) -> bool:
    grid = visible_tiles(image)
    corners = (grid[0][0], grid[0][-1], grid[-1][0], grid[-1][-1])
    return corners == POKEDEX_CORNERS


def _battle_point(image: MemoryImage, ram: RamMap, text: str, lines: list[str]) -> DecisionPoint:
    if "Use next" in text:
        # Still printing until the YES/NO box is up; a press before that would be lost.
        return DecisionPoint.BATTLE_NEXT_MON_PROMPT if _has_yes_no(lines) else DecisionPoint.BATTLE_TEXT
    if "Bring out which" in text:
        return DecisionPoint.BATTLE_NEXT_MON_PROMPT
    if "Choose a POKéMON" in text:
        return DecisionPoint.BATTLE_PARTY_MENU
    if "Use item on which" in text:
        return DecisionPoint.BATTLE_ITEM_TARGET_MENU
    if _is_bag_list(image, ram, lines):
        return DecisionPoint.BATTLE_BAG_MENU
    if "TYPE/" in text or ("disabled!" in text and _has_cursor(lines)):
        # With the cursor on a DISABLEd move the menu shows "disabled!" where the type box was (pret
        # engine/battle/core.asm PrintMenuItem); "X was disabled!" as a message has no cursor.
        return DecisionPoint.BATTLE_MOVE_MENU
    if "RUN" in text and (("FIGHT" in text and "PKMN" in text) or ("BAIT" in text and "THROW ROCK" in text)):
        return DecisionPoint.BATTLE_MAIN_MENU  # the usual menu, or the Safari Zone's
    if _has_yes_no(lines):
        return DecisionPoint.YES_NO_PROMPT
    if lines:
        return DecisionPoint.BATTLE_TEXT
    return DecisionPoint.POKEDEX_ENTRY if _is_pokedex_page(image) else DecisionPoint.BUSY


def _field_point(image: MemoryImage, ram: RamMap, text: str, lines: list[str]) -> DecisionPoint:
    if "NEW GAME" in text or ("CONTINUE" in text and "OPTION" in text):
        return DecisionPoint.TITLE_MENU
    if {"SAVE", "OPTION", "EXIT"} <= {line.lstrip(CURSOR) for line in lines}:
        return DecisionPoint.START_MENU
    if _has_yes_no(lines):
        return DecisionPoint.YES_NO_PROMPT
    if lines:
        if _has_cursor(lines) and CONTINUE_ARROW not in text:
            return DecisionPoint.OTHER_MENU
        return DecisionPoint.DIALOG_WAIT
    window_hidden = image.u8(WY) >= WINDOW_HIDDEN_Y or image.u8(ram.hWY) >= WINDOW_HIDDEN_Y
    idle = image.u8(ram.wJoyIgnore) == 0 and image.u8(ram.wWalkCounter) == 0
    return DecisionPoint.OVERWORLD_FREE if window_hidden and idle else DecisionPoint.BUSY


def detect_decision_point(image: MemoryImage, ram: RamMap, lines: list[str]) -> DecisionPoint:
    if not image.u8(LCDC) & LCD_ON:
        return DecisionPoint.BUSY
    text = " ".join(lines)
    if "is evolving" in text:
        return DecisionPoint.EVOLUTION
    if "NAME?" in text and ("lower case" in text or "UPPER CASE" in text):
        return DecisionPoint.NAMING_SCREEN
    if "make room for" in text and _has_yes_no(lines):
        return DecisionPoint.LEARN_MOVE_PROMPT
    if "Abandon learning" in text and _has_yes_no(lines):
        return DecisionPoint.ABANDON_LEARNING_PROMPT
    if "should be forgotten" in text:
        return DecisionPoint.FORGET_MOVE_MENU
    if image.u8(ram.wIsInBattle) in IN_BATTLE:
        return _battle_point(image, ram, text, lines)
    return _field_point(image, ram, text, lines)


def screen_kind(point: DecisionPoint, in_battle: bool) -> ScreenKind:
    if point in _SCREEN_KIND:
        return _SCREEN_KIND[point]
    if in_battle:
        return ScreenKind.BATTLE
    return ScreenKind.MENU
