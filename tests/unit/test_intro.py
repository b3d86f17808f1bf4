"""The pure parts of the intro: keyboard planning, name edits, the OPTION-menu plan, menu labels, errors."""

from __future__ import annotations

import itertools

import pytest

from engine.errors import UserInputError
from engine.game.buttons import Button
from engine.game.charmap import screen_glyphs
from engine.game.errors import InvalidNameError
from engine.game.models import DecisionPoint
from engine.game.naming import (
    CASE_ROW,
    NameStep,
    key_position,
    keyboard_move,
    keyboard_path,
    next_keyboard_press,
    next_name_step,
    validate_name,
)
from engine.game.options import decode_options, next_option_press
from engine.game.screen import SCREEN_COLUMNS, SCREEN_ROWS
from engine.mechanics.errors import IntroError
from engine.mechanics.intro import IntroDriver
from engine.mechanics.intro_loop import menu_item_index

LETTER_ROWS = range(1, 6)
COLUMNS = range(1, 18, 2)
ALL_KEYS = [(row, x) for row in LETTER_ROWS for x in COLUMNS] + [(CASE_ROW, 1)]


def test_letters_sit_where_the_upper_case_alphabet_puts_them() -> None:
    assert key_position("A") == (1, 1)
    assert key_position("I") == (1, 17)
    assert key_position("J") == (2, 1)
    assert key_position("R") == (2, 17)
    assert key_position("S") == (3, 1)
    assert key_position("Z") == (3, 15)


@pytest.mark.parametrize("letter", ["a", " ", "1", "AB", "", "é"])
def test_only_capital_letters_have_a_key(letter: str) -> None:
    with pytest.raises(InvalidNameError):
        key_position(letter)


def test_the_cursor_wraps_like_the_game() -> None:
    assert keyboard_move((1, 17), Button.RIGHT) == (1, 1)
    assert keyboard_move((2, 1), Button.LEFT) == (2, 17)
    assert keyboard_move((1, 9), Button.UP) == (CASE_ROW, 1)  # up from the top row: the case switch
    assert keyboard_move((5, 9), Button.DOWN) == (CASE_ROW, 1)  # down into the case row: first column
    assert keyboard_move((CASE_ROW, 1), Button.DOWN) == (1, 1)
    assert keyboard_move((CASE_ROW, 1), Button.UP) == (5, 1)
    assert keyboard_move((CASE_ROW, 1), Button.RIGHT) == (CASE_ROW, 1)
    assert keyboard_move((CASE_ROW, 1), Button.LEFT) == (CASE_ROW, 1)
    assert keyboard_move((2, 5), Button.A) == (2, 5)


def test_paths_use_the_wrap_when_it_is_shorter() -> None:
    assert keyboard_path((1, 1), (1, 17)) == (Button.LEFT,)
    assert keyboard_path((1, 1), (1, 9)) == (Button.RIGHT,) * 4
    assert len(keyboard_path((1, 1), key_position("Z"))) == 4  # two rows down, two columns left
    assert keyboard_path((3, 5), (3, 5)) == ()
    assert next_keyboard_press((3, 5), (3, 5)) is None


def test_every_path_lands_on_its_letter_and_is_short() -> None:
    for start, letter in itertools.product(ALL_KEYS, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"):
        target = key_position(letter)
        position = start
        path = keyboard_path(start, target)
        for button in path:
            position = keyboard_move(position, button)
        assert position == target, (start, letter, path)
        # Four columns either way at most, and three row moves reach any letter row from anywhere.
        assert len(path) <= 7, (start, letter, path)
        assert next_keyboard_press(start, target) == (path[0] if path else None)


def test_a_place_the_cursor_never_reaches_is_an_error() -> None:
    with pytest.raises(ValueError, match="cannot be reached"):
        keyboard_path((1, 1), (1, 2))


@pytest.mark.parametrize(
    ("typed", "target", "step"),
    [
        ("", "ASH", NameStep.TYPE),
        ("AS", "ASH", NameStep.TYPE),
        ("ASH", "ASH", NameStep.SUBMIT),
        ("AX", "ASH", NameStep.ERASE),
        ("ASHH", "ASH", NameStep.ERASE),
        ("a", "A", NameStep.ERASE),
    ],
)
def test_name_steps(typed: str, target: str, step: NameStep) -> None:
    assert next_name_step(typed, target) is step


def test_names_are_one_to_seven_capital_letters() -> None:
    assert validate_name("GARY") == "GARY"
    assert validate_name("ABCDEFG") == "ABCDEFG"
    for bad in ("", "ABCDEFGH", "Ash", "A1", "A B", "ÉLÉ"):
        with pytest.raises(InvalidNameError) as caught:
            validate_name(bad)
        assert isinstance(caught.value, UserInputError)


def test_options_decode_from_the_wOptions_bits() -> None:
    default = decode_options(0x03)
    assert (default.text_speed, default.battle_animation, default.battle_style) == ("medium", True, "shift")
    assert not default.fast
    fast = decode_options(0x81)
    assert (fast.text_speed, fast.battle_animation, fast.battle_style) == ("fast", False, "shift")
    assert fast.fast
    assert decode_options(0xC1).battle_style == "set"
    assert decode_options(0x05).text_speed == "slow"
    assert decode_options(0x00).text_speed == "other"
    assert not decode_options(0x01).fast  # fast text but animations still on


# A model of DisplayOptionMenu (pret engine/menus/main_menu.asm), written from the disassembly's rules:
# UP/DOWN cycle 3 → 8 → 13 → 16 → 3; LEFT/RIGHT step the text speed (14, 7, 1) or toggle the others.
_DOWN = {3: 8, 8: 13, 13: 16, 16: 3}
_UP = {after: before for before, after in _DOWN.items()}


def _option_menu(state: dict[str, int], button: Button) -> None:
    row = state["y"]
    if button is Button.DOWN:
        state["y"] = _DOWN[row]
    elif button is Button.UP:
        state["y"] = _UP[row]
    elif row == 3:
        order = [1, 7, 14]
        index = order.index(state["text"]) + (1 if button is Button.RIGHT else -1)
        state["text"] = order[max(0, min(2, index))]
    elif row == 8:
        state["anim"] = 11 - state["anim"]
    elif row == 13:
        state["style"] = 11 - state["style"]


@pytest.mark.parametrize(
    ("y", "text", "anim", "style"),
    list(itertools.product([3, 8, 13, 16], [1, 7, 14], [1, 10], [1, 10])),
)
def test_the_option_plan_reaches_fast_and_off_without_touching_battle_style(
    y: int, text: int, anim: int, style: int
) -> None:
    state = {"y": y, "text": text, "anim": anim, "style": style}
    for _ in range(10):
        press = next_option_press(state["y"], state["text"], state["anim"])
        if press is None:
            break
        _option_menu(state, press)
    else:
        pytest.fail(f"no end from {y, text, anim}")
    assert (state["text"], state["anim"], state["style"]) == (1, 10, style)


def _tilemap(placed: dict[tuple[int, int], str]) -> bytes:
    codes = {glyph: byte for byte, glyph in screen_glyphs().items() if len(glyph) == 1}
    tiles = bytearray([0x7F] * (SCREEN_COLUMNS * SCREEN_ROWS))
    for (row, column), text in placed.items():
        for offset, char in enumerate(text):
            tiles[row * SCREEN_COLUMNS + column + offset] = codes[char]
    return bytes(tiles)


def test_menu_items_are_found_by_their_label() -> None:
    main_menu = _tilemap({(2, 1): "▶NEW GAME", (4, 2): "OPTION"})
    assert menu_item_index(main_menu, "NEW GAME", 2, 1) == 0
    assert menu_item_index(main_menu, "OPTION", 2, 1) == 1
    assert menu_item_index(main_menu, "CONTINUE", 2, 1) is None
    with_save = _tilemap({(2, 2): "CONTINUE", (4, 2): "NEW GAME", (6, 2): "OPTION"})
    assert menu_item_index(with_save, "NEW GAME", 2, 1) == 1


def test_a_player_called_option_does_not_fool_the_start_menu() -> None:
    start_menu = _tilemap(
        {(2, 12): "POKéMON", (4, 12): "ITEM", (6, 12): "OPTION", (8, 12): "SAVE", (10, 12): "OPTION"}
    )
    assert menu_item_index(start_menu, "OPTION", 2, 11) == 4


def test_intro_errors_carry_where_they_happened() -> None:
    error = IntroError("stuck", DecisionPoint.NAMING_SCREEN, ["down", "a"], "abc")
    assert error.point is DecisionPoint.NAMING_SCREEN
    assert error.last_inputs == ["down", "a"]
    assert "naming_screen" in str(error) and "['down', 'a']" in str(error)


def test_a_name_the_keyboard_cannot_type_is_the_users_to_fix() -> None:
    assert issubclass(InvalidNameError, UserInputError) and not issubclass(InvalidNameError, IntroError)


def test_a_question_left_open_in_a_save_state_is_answered_no() -> None:
    pressed: list[Button] = []
    driver = object.__new__(IntroDriver)  # the answer reads no emulator
    driver.step = lambda message: None  # type: ignore[method-assign]
    driver.press = pressed.append  # type: ignore[method-assign]
    assert driver.answer_prompt(DecisionPoint.YES_NO_PROMPT)
    assert pressed == [Button.B]
