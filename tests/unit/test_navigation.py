"""Menu navigation from cursor positions decoded out of the fixtures."""

from __future__ import annotations

from engine.emulator.buttons import Button
from engine.game.capture import load_capture
from engine.game.models import MenuCursor
from engine.game.navigation import (
    MainMenuItem,
    main_menu_item,
    next_list_press,
    next_main_menu_press,
    next_move_menu_press,
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
