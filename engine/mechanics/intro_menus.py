"""The OPTION menu and the naming screen, each driven through a `ClosedLoop` one press at a time.

Facts from the pret/pokered disassembly: engine/menus/main_menu.asm (DisplayOptionMenu and
SetOptionsFromCursorPositions), engine/menus/draw_start_menu.asm (the START menu),
engine/movie/oak_speech/oak_speech2.asm (the name lists: item 0 is NEW NAME) and
engine/menus/naming_screen.asm (DisplayNamingScreen, the keyboard cursor and the typed name).
"""

from __future__ import annotations

from engine.config import PlayerConfig
from engine.game.buttons import Button
from engine.game.charmap import decode_string
from engine.game.models import DecisionPoint
from engine.game.naming import (
    MAX_NAME_LENGTH,
    NAME_BUFFER_BYTES,
    NAME_LIST_MARK,
    NAME_PLAYER,
    NAME_RIVAL,
    UPPER_CASE,
    KeyPosition,
    NameStep,
    key_position,
    next_keyboard_press,
    next_name_step,
    validate_name,
)
from engine.game.options import OPTION, OPTIONS_TITLE, next_option_press
from engine.mechanics.intro_loop import LEAVE_FRAMES, REACT_FRAMES, ClosedLoop

MAX_OPTION_PRESSES = 16


class OptionMenu:
    """Sets TEXT SPEED FAST and BATTLE ANIMATION OFF in the game's OPTION menu; BATTLE STYLE is left alone."""

    def __init__(self, loop: ClosedLoop) -> None:
        self.loop = loop

    def is_open(self) -> bool:
        return self.loop.text_at(1).strip() == OPTIONS_TITLE

    def cursor(self) -> tuple[int, int, int]:
        loop, ram = self.loop, self.loop.ram
        return (
            loop.u8(ram.wTopMenuItemY),
            loop.u8(ram.wOptionsTextSpeedCursorX),
            loop.u8(ram.wOptionsBattleAnimCursorX),
        )

    def set_fast(self) -> None:
        """With the OPTION menu open: FAST text, animations OFF, then leave it with B."""
        loop = self.loop
        loop.step("options: text speed FAST, battle animation OFF")
        for _ in range(MAX_OPTION_PRESSES):
            loop.expect(loop.input_wanted, LEAVE_FRAMES, "the OPTION menu waiting for input")
            cursor = self.cursor()
            move = next_option_press(*cursor)
            if move is None:
                break
            loop.press(move)
            loop.wait_change(self.cursor, cursor, REACT_FRAMES)
        else:
            raise loop.fail("the OPTION menu never reached FAST text and animations OFF")
        # SetOptionsFromCursorPositions writes wOptions on every pass of the menu loop, before B is read.
        loop.press_until(Button.B, lambda: not self.is_open(), "the menu behind the OPTION menu")
        if not loop.options().fast:
            raise loop.fail(f"wOptions is {loop.options().raw:#04x} after the OPTION menu")

    def open_and_set_fast(self) -> None:
        """Choose OPTION in the open menu (main menu or START menu), then `set_fast`."""
        loop = self.loop
        loop.choose_menu_item(OPTION)
        loop.expect(lambda: self.is_open() and loop.input_wanted(), LEAVE_FRAMES, "the OPTION menu")
        self.set_fast()

    def set_fast_from_title_menu(self) -> None:
        self.loop.step("main menu: OPTION")
        self.open_and_set_fast()

    def set_fast_from_overworld(self) -> None:
        loop = self.loop
        loop.step("START menu: OPTION")
        loop.press_until(Button.START, self.start_menu_waiting, "the START menu")
        self.open_and_set_fast()
        loop.expect(self.start_menu_waiting, LEAVE_FRAMES, "the START menu after OPTION")
        loop.press_until(Button.B, loop.overworld_ready, "the overworld after closing the START menu")

    def start_menu_waiting(self) -> bool:
        return self.loop.input_wanted() and self.loop.point() is DecisionPoint.START_MENU


class NamingScreen:
    """Chooses NEW NAME in a name list and types the name on the keyboard; remembers what it typed."""

    def __init__(self, loop: ClosedLoop) -> None:
        self.loop = loop
        self.typed: dict[int, str] = {}  # by wNamingScreenType

    def is_open(self) -> bool:
        return self.loop.point() is DecisionPoint.NAMING_SCREEN

    def key_cursor(self) -> KeyPosition:
        """The naming screen's row is wCurrentMenuItem, but its input loop zeroes that byte while the
        mon-icon animation runs (AnimatePartyMon_ForceSpeed1), which is when frames end. PlaceMenuCursor
        copies the row to wLastMenuItem after every press, so that copy is the one to read."""
        loop = self.loop
        return loop.u8(loop.ram.wLastMenuItem), loop.u8(loop.ram.wTopMenuItemX)

    def name_at(self, address: int) -> str:
        return decode_string(self.loop.session.read(address, NAME_BUFFER_BYTES))

    def name_typed(self) -> str:
        return self.name_at(self.loop.ram.wStringBuffer)

    def choose_new_name(self) -> None:
        loop = self.loop
        loop.step("name list: NEW NAME")
        loop.choose_menu_item(NAME_LIST_MARK)
        loop.expect(lambda: self.is_open() and loop.input_wanted(), LEAVE_FRAMES, "the naming keyboard")

    def type_name(self, player: PlayerConfig) -> None:
        loop, ram = self.loop, self.loop.ram
        kind = loop.u8(ram.wNamingScreenType)
        if kind not in (NAME_PLAYER, NAME_RIVAL):
            raise loop.fail(f"a naming screen for something else (type {kind})")
        target = validate_name(player.player_name if kind == NAME_PLAYER else player.rival_name)
        stored_at = ram.wPlayerName if kind == NAME_PLAYER else ram.wRivalName
        loop.step(f"naming the {'player' if kind == NAME_PLAYER else 'rival'} {target}")
        # Per letter: up to ~6 moves and A, plus room for retries and erasing stray letters.
        for _ in range(12 * (MAX_NAME_LENGTH + 2)):
            if self.edit_name(target):
                break
        else:
            raise loop.fail(f"could not type the name {target}")
        stored = self.name_at(stored_at)
        if stored != target:
            raise loop.fail(f"typed {target} but the game stored {stored!r}")
        self.typed[kind] = target

    def edit_name(self, target: str) -> bool:
        """One press towards `target` on the keyboard; True once the name was submitted."""
        loop = self.loop
        loop.expect(loop.input_wanted, LEAVE_FRAMES, "the naming keyboard waiting for input")
        if loop.u8(loop.ram.wAlphabetCase) != UPPER_CASE:
            loop.press(Button.SELECT)
            loop.wait(lambda: loop.u8(loop.ram.wAlphabetCase) == UPPER_CASE, REACT_FRAMES)
            return False
        typed = self.name_typed()
        step = next_name_step(typed, target)
        if step is NameStep.SUBMIT:
            loop.press(Button.START)
            return loop.wait(lambda: not self.is_open(), LEAVE_FRAMES)
        if step is NameStep.ERASE:
            loop.press(Button.B)
            loop.wait_change(self.name_typed, typed, REACT_FRAMES)
        else:
            self.type_letter(target[len(typed)], typed)
        return False

    def type_letter(self, letter: str, typed: str) -> None:
        loop = self.loop
        cursor = self.key_cursor()
        try:
            move = next_keyboard_press(cursor, key_position(letter))
        except ValueError as exc:
            raise loop.fail(f"keyboard cursor at an impossible place {cursor}") from exc
        if move is not None:
            loop.press(move)
            loop.wait_change(self.key_cursor, cursor, REACT_FRAMES)
            return
        loop.press(Button.A)
        loop.wait_change(self.name_typed, typed, REACT_FRAMES)
