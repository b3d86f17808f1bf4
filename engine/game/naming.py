"""The naming keyboard as pure functions: where each letter sits, how the cursor moves, what to press next.

Facts from the pret/pokered disassembly: engine/menus/naming_screen.asm (DisplayNamingScreen and its
.pressedUp/Down/Left/Right) with data/text/alphabets.asm (the keyboard), and
engine/movie/oak_speech/oak_speech2.asm (the name lists before the keyboard: item 0 is NEW NAME).
"""

from __future__ import annotations

from enum import StrEnum
from functools import cache

from engine.game.buttons import Button
from engine.game.errors import InvalidNameError

# -- naming keyboard (DisplayNamingScreen): the row is 1-5 for letters and symbols, 6 for the case switch
# (NamingScreen.key_cursor says where to read it), wTopMenuItemX the column (1, 3, ... 17). Rows 1-3 of the
# upper-case alphabet hold A-Z.
KEYBOARD_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
KEYBOARD_COLUMNS = 9
FIRST_ROW, CASE_ROW = 1, 6
FIRST_X, LAST_X = 1, 17
UPPER_CASE = 0  # wAlphabetCase
NAME_PLAYER, NAME_RIVAL = 0, 1  # wNamingScreenType
MAX_NAME_LENGTH = 7  # PLAYER_NAME_LENGTH - 1
NAME_BUFFER_BYTES = 11  # NAME_LENGTH
NAME_LIST_MARK = "NEW NAME"  # the first item of the name lists (oak_speech2.asm)

KeyPosition = tuple[int, int]  # (row, x) as the game keeps them
_DIRECTIONS = (Button.UP, Button.DOWN, Button.LEFT, Button.RIGHT)


def validate_name(name: str) -> str:
    """Names the intro types: what PlayerConfig allows, checked again for callers that build names."""
    if not 1 <= len(name) <= MAX_NAME_LENGTH or any(letter not in KEYBOARD_LETTERS for letter in name):
        raise InvalidNameError(f"cannot type the name {name!r}: use 1 to {MAX_NAME_LENGTH} letters A-Z")
    return name


def key_position(letter: str) -> KeyPosition:
    index = KEYBOARD_LETTERS.find(letter) if len(letter) == 1 else -1
    if index < 0:
        raise InvalidNameError(f"{letter!r} is not a letter on the naming keyboard")
    row, column = divmod(index, KEYBOARD_COLUMNS)
    return FIRST_ROW + row, FIRST_X + 2 * column


def keyboard_move(position: KeyPosition, button: Button) -> KeyPosition:
    """Where one d-pad press takes the cursor, as naming_screen.asm's .pressedUp/Down/Left/Right do:
    columns wrap, UP from the top row and DOWN into or out of the case row land in the first column,
    and LEFT/RIGHT do nothing in the case row."""
    row, x = position
    if button in (Button.LEFT, Button.RIGHT):
        if row == CASE_ROW:
            return position
        if button is Button.RIGHT:
            return row, FIRST_X if x == LAST_X else x + 2
        return row, LAST_X if x == FIRST_X else x - 2
    if button is Button.UP:
        return (CASE_ROW, FIRST_X) if row == FIRST_ROW else (row - 1, x)
    if button is Button.DOWN:
        if row == CASE_ROW:
            return FIRST_ROW, FIRST_X
        return (CASE_ROW, FIRST_X) if row + 1 == CASE_ROW else (row + 1, x)
    return position


@cache
def keyboard_path(start: KeyPosition, target: KeyPosition) -> tuple[Button, ...]:
    """A shortest press sequence (breadth-first over the game's own moves, so wrapping is used when it is
    shorter); ties break by the fixed order UP, DOWN, LEFT, RIGHT, so the plan is deterministic."""
    paths: dict[KeyPosition, tuple[Button, ...]] = {start: ()}
    frontier = [start]
    while frontier and target not in paths:
        following: list[KeyPosition] = []
        for position in frontier:
            for button in _DIRECTIONS:
                reached = keyboard_move(position, button)
                if reached not in paths:
                    paths[reached] = paths[position] + (button,)
                    following.append(reached)
        frontier = following
    if target not in paths:
        raise ValueError(f"keyboard position {target} cannot be reached from {start}")
    return paths[target]


def next_keyboard_press(position: KeyPosition, target: KeyPosition) -> Button | None:
    path = keyboard_path(position, target)
    return path[0] if path else None


class NameStep(StrEnum):
    TYPE = "type"
    ERASE = "erase"
    SUBMIT = "submit"


def next_name_step(typed: str, target: str) -> NameStep:
    """Type the next letter while what is typed is a prefix of the target; erase anything else."""
    if typed == target:
        return NameStep.SUBMIT
    return NameStep.TYPE if target.startswith(typed) else NameStep.ERASE
