"""The game's options byte and the plan for its OPTION menu, as pure functions.

Facts from the pret/pokered disassembly: the wOptions bits in constants/ram_constants.asm, and the OPTION
menu in engine/menus/main_menu.asm (DisplayOptionMenu), opened from the title main menu or the START menu.
"""

from __future__ import annotations

from typing import Literal

from engine.frozen import Frozen
from engine.game.buttons import Button

# -- wOptions (constants/ram_constants.asm) -----------------------------------------------------------
TEXT_DELAY_MASK = 0b111
TEXT_DELAY_FAST, TEXT_DELAY_MEDIUM, TEXT_DELAY_SLOW = 1, 3, 5
BATTLE_SET_BIT = 1 << 6
ANIMATION_OFF_BIT = 1 << 7
TextSpeed = Literal["fast", "medium", "slow", "other"]
_TEXT_SPEEDS: dict[int, TextSpeed] = {
    TEXT_DELAY_FAST: "fast",
    TEXT_DELAY_MEDIUM: "medium",
    TEXT_DELAY_SLOW: "slow",
}

# -- OPTION menu (DisplayOptionMenu): wTopMenuItemY is the row of the section the cursor is in; each section
# keeps its own cursor column in wOptions*CursorX.
OPTION_ROW_TEXT_SPEED = 3
OPTION_ROW_ANIMATION = 8
TEXT_SPEED_FAST_X = 1
ANIMATION_OFF_X = 10
OPTION = "OPTION"  # the item that opens it, in the main menu and the START menu
OPTIONS_TITLE = "TEXT SPEED"  # the menu's first line, on tile row 1


class GameOptions(Frozen):
    raw: int
    text_speed: TextSpeed
    battle_animation: bool
    battle_style: Literal["shift", "set"]

    @property
    def fast(self) -> bool:
        return self.text_speed == "fast" and not self.battle_animation


def decode_options(raw: int) -> GameOptions:
    return GameOptions(
        raw=raw,
        text_speed=_TEXT_SPEEDS.get(raw & TEXT_DELAY_MASK, "other"),
        battle_animation=not raw & ANIMATION_OFF_BIT,
        battle_style="set" if raw & BATTLE_SET_BIT else "shift",
    )


def next_option_press(cursor_y: int, text_speed_x: int, animation_x: int) -> Button | None:
    """The one press that brings the OPTION menu closer to FAST text and no animations; None when set.

    LEFT in the text-speed row steps SLOW → MEDIUM → FAST and stops there; LEFT or RIGHT in the animation
    row toggles ON/OFF, so those are pressed only while the value is wrong. The sections lie in row order
    (3, 8, 13, 16), so UP/DOWN by comparison reaches a section without wrapping. BATTLE STYLE is never
    visited."""
    if text_speed_x != TEXT_SPEED_FAST_X:
        return Button.LEFT if cursor_y == OPTION_ROW_TEXT_SPEED else Button.UP
    if animation_x != ANIMATION_OFF_X:
        if cursor_y == OPTION_ROW_ANIMATION:
            return Button.RIGHT
        return Button.DOWN if cursor_y < OPTION_ROW_ANIMATION else Button.UP
    return None


class OptionsChange(Frozen):
    before: GameOptions
    after: GameOptions
    frames: int

    @property
    def changed(self) -> bool:
        return self.before != self.after
