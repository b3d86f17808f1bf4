"""Menu navigation from cursor positions decoded out of the fixtures."""

from __future__ import annotations

import pytest

from engine.game.buttons import Button
from engine.game.capture import load_capture
from engine.game.models import MenuCursor
from engine.game.navigation import (
    MainMenuItem,
    list_position,
    main_menu_item,
    next_list_press,
    next_main_menu_press,
    next_move_menu_press,
    next_scrolling_list_press,
)
from engine.game.ram import RED_BLUE
from engine.game.state import decode_state
from tests.conftest import GEN1_FIXTURES


def battle_cursor(name: str) -> MenuCursor:
    state = decode_state(load_capture(GEN1_FIXTURES / name), RED_BLUE)
    assert state.battle is not None and state.battle.menu is not None
    return state.battle.menu


def walk(cursor: MenuCursor, target: MainMenuItem) -> list[Button]:
    """Simulate the presses on the two-column menu until the cursor is on target."""
    presses: list[Button] = []
    while (press := next_main_menu_press(cursor, target)) is not None:
        presses.append(press)
        moves = {
            Button.RIGHT: {"top_x": 15},
            Button.LEFT: {"top_x": 9},
            Button.DOWN: {"item": 1},
            Button.UP: {"item": 0},
        }
        cursor = cursor.model_copy(update=moves[press])
        assert len(presses) <= 2
    assert main_menu_item(cursor) is target
    return presses


def test_main_menu_cursor_reads_fight_on_every_main_menu_fixture() -> None:
    for name in (
        "red_wild_main_menu",
        "red_brock_main_menu",
        "blue_wild_main_menu",
        "red_brock_second_mon_onix",
    ):
        assert main_menu_item(battle_cursor(name)) is MainMenuItem.FIGHT


def test_main_menu_paths() -> None:
    fight = battle_cursor("red_wild_main_menu")
    assert walk(fight, MainMenuItem.FIGHT) == []
    assert walk(fight, MainMenuItem.PKMN) == [Button.RIGHT]
    assert walk(fight, MainMenuItem.RUN) == [Button.RIGHT, Button.DOWN]
    assert walk(fight, MainMenuItem.ITEM) == [Button.DOWN]


def test_move_menu_cursor_goes_straight_to_the_slot() -> None:
    cursor = battle_cursor("red_wild_move_menu_move3")  # on move 3 (slot 2)
    assert next_move_menu_press(cursor, 2) is None
    assert next_move_menu_press(cursor, 0) is Button.UP
    assert next_move_menu_press(cursor, 3) is Button.DOWN
    first = battle_cursor("red_wild_move_menu_move1")
    assert next_move_menu_press(first, 0) is None


def test_list_presses() -> None:
    assert next_list_press(0, 0) is None
    assert next_list_press(0, 3) is Button.DOWN
    assert next_list_press(4, 1) is Button.UP


class BagList:
    """The game's scrolling list (pret home/list_menu.asm DisplayListMenuID and HandleMenuInput with
    wMenuWatchMovingOutOfBounds): three rows, `count` items plus CANCEL at index `count`."""

    def __init__(self, count: int, item: int = 0, scroll: int = 0) -> None:
        self.count, self.item, self.scroll = count, item, scroll
        self.max_item = 2 if count >= 2 else 1

    def cursor(self) -> MenuCursor:
        return MenuCursor(item=self.item, top_x=5, top_y=4, max_item=self.max_item, scroll_offset=self.scroll)

    def press(self, button: Button) -> None:
        if button is Button.DOWN:
            if self.item < self.max_item:
                self.item += 1
            elif self.scroll + 3 <= self.count:  # never scrolls CANCEL above the last row
                self.scroll += 1
        elif button is Button.UP:
            if self.item > 0:
                self.item -= 1
            elif self.scroll > 0:
                self.scroll -= 1


def starts(count: int) -> list[tuple[int, int]]:
    rows = 2 if count >= 2 else 1
    return [(item, scroll) for scroll in range(max(count - 1, 1)) for item in range(rows + 1)]


@pytest.mark.parametrize("count", [1, 2, 3, 4, 7, 20])
def test_bag_list_reaches_every_entry_from_every_position(count: int) -> None:
    for item, scroll in starts(count):
        for target in range(count + 1):  # the items and CANCEL
            bag = BagList(count, item, scroll)
            start = list_position(bag.cursor())
            presses = 0
            while (press := next_scrolling_list_press(bag.cursor(), target)) is not None:
                bag.press(press)
                presses += 1
                assert presses <= count + 1
            assert list_position(bag.cursor()) == target
            assert presses == abs(target - start)  # every press moves one entry, no detours


def test_bag_list_position_counts_the_rows_scrolled_past() -> None:
    cursor = MenuCursor(item=2, top_x=5, top_y=4, max_item=2, scroll_offset=3)
    assert list_position(cursor) == 5
    assert next_scrolling_list_press(cursor, 5) is None
    assert next_scrolling_list_press(cursor, 0) is Button.UP
    assert next_scrolling_list_press(cursor, 6) is Button.DOWN
    assert list_position(cursor.model_copy(update={"scroll_offset": None})) == 2


def test_the_safari_zones_menu_has_its_columns_elsewhere() -> None:
    """BALL and THROW ROCK at x=1, BAIT and RUN at x=13 (pret DisplayBattleMenu .safariLeftColumn)."""
    ball = MenuCursor(item=0, top_x=1, top_y=14, max_item=1)
    assert main_menu_item(ball, safari=True) is MainMenuItem.FIGHT  # BALL stands where FIGHT does
    assert main_menu_item(ball) is None  # not a place of the usual menu
    assert next_main_menu_press(ball, MainMenuItem.RUN, safari=True) is Button.RIGHT
    beside = ball.model_copy(update={"top_x": 13})
    assert next_main_menu_press(beside, MainMenuItem.RUN, safari=True) is Button.DOWN
    run = beside.model_copy(update={"item": 1})
    assert next_main_menu_press(run, MainMenuItem.RUN, safari=True) is None
    assert main_menu_item(run, safari=True) is MainMenuItem.RUN
