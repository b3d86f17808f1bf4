"""Recognising the bag, the item target menu and the Pokédex page in battle, on painted screens: a real
in-battle RAM capture with its tile map replaced by the screen under test."""

from __future__ import annotations

from engine.game.capture import load_capture
from engine.game.charmap import screen_glyphs
from engine.game.memory import LCDC, SCX, SCY, MemoryImage
from engine.game.models import DecisionPoint, GameState
from engine.game.ram import RED_BLUE
from engine.game.state import decode_state
from tests.conftest import GEN1_FIXTURES

BG_MAP = 0x9800
BOX_CORNER = 0x79
BLANK = 0x7F
LCD_AND_BG_ON = 0x81
GLYPHS = {glyph: tile for tile, glyph in screen_glyphs().items() if len(glyph) == 1}


def painted(
    rows: dict[int, str], ram: dict[int, int], *, box: bool = True, corners: tuple[int, ...] = ()
) -> GameState:
    data = bytearray(load_capture(GEN1_FIXTURES / "red_wild_main_menu").to_bytes())
    data[LCDC], data[SCX], data[SCY] = LCD_AND_BG_ON, 0, 0
    data[BG_MAP : BG_MAP + 0x400] = bytes([BLANK]) * 0x400
    if box:
        data[BG_MAP] = BOX_CORNER
    for (row, column), tile in zip(((0, 0), (0, 19), (17, 0), (17, 19)), corners, strict=False):
        data[BG_MAP + row * 32 + column] = tile
    for row, text in rows.items():
        for column, glyph in enumerate(text, start=1):
            data[BG_MAP + row * 32 + column] = GLYPHS[glyph]
    for address, value in ram.items():
        data[address] = value
    return decode_state(MemoryImage(bytes(data)), RED_BLUE)


BAG_LIST = {2: "RATTATA", 4: "POKé BALL", 5: "×5", 6: "▶POTION", 7: "×3", 8: "CANCEL"}
LIST_RAM = {
    RED_BLUE.wListMenuID: 3,
    RED_BLUE.wTopMenuItemX: 5,
    RED_BLUE.wTopMenuItemY: 4,
    RED_BLUE.wCurrentMenuItem: 1,
    RED_BLUE.wMaxMenuItem: 2,
    RED_BLUE.wListScrollOffset: 4,
}


def test_the_bag_list_in_battle_with_its_scroll_offset() -> None:
    state = painted(BAG_LIST, LIST_RAM)
    assert state.decision_point is DecisionPoint.BATTLE_BAG_MENU
    assert state.battle is not None and state.battle.menu is not None
    assert (state.battle.menu.item, state.battle.menu.scroll_offset) == (1, 4)


def test_a_closed_bag_leaves_its_list_variables_behind() -> None:
    without_cursor = {**BAG_LIST, 6: "▷POTION"}  # the unfilled cursor of an item already chosen
    assert painted(without_cursor, LIST_RAM).decision_point is DecisionPoint.BATTLE_TEXT
    main_menu = {14: "▶FIGHT PKMN", 16: "ITEM RUN"}
    at_main_menu = {**LIST_RAM, RED_BLUE.wTopMenuItemX: 9, RED_BLUE.wTopMenuItemY: 14}
    state = painted(main_menu, at_main_menu)
    assert state.decision_point is DecisionPoint.BATTLE_MAIN_MENU
    assert state.battle is not None and state.battle.menu is not None
    assert state.battle.menu.scroll_offset is None


def test_the_use_item_on_which_pokemon_menu() -> None:
    rows = {0: "SQUIRTLE :L10", 1: "▶ HP: 5/ 31", 14: "Use item on which", 16: "POKéMON?"}
    ram = {RED_BLUE.wTopMenuItemX: 0, RED_BLUE.wTopMenuItemY: 1, RED_BLUE.wCurrentMenuItem: 0}
    state = painted(rows, ram)
    assert state.decision_point is DecisionPoint.BATTLE_ITEM_TARGET_MENU
    assert state.battle is not None and state.battle.menu is not None and state.battle.menu.item == 0


def test_the_pokedex_page_after_a_catch() -> None:
    corners = (0x63, 0x65, 0x6C, 0x6E)
    assert painted({}, {}, box=False, corners=corners).decision_point is DecisionPoint.POKEDEX_ENTRY
    assert painted({}, {}, box=False, corners=corners[:3]).decision_point is DecisionPoint.BUSY
    outside = painted({}, {RED_BLUE.wIsInBattle: 0}, box=False, corners=corners)
    assert outside.decision_point is not DecisionPoint.POKEDEX_ENTRY
