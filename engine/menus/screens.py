"""Pressing through the game's menus, every screen recognised in RAM before the next press.

The start menu (home/start_menu.asm DisplayStartMenu: entries drawn by engine/menus/draw_start_menu.asm
from wTopMenuItemY 2, two rows apart, POKéDEX only once the player has one) and the party menu
(home/pokemon.asm PartyMenuInit: wTopMenuItemY 1, X 0, one entry per member, wPartyMenuTypeOrMessageID
saying what it was opened for) are told apart by their menu's corner; a screen waits for a button once the
game runs JoypadLowSensitivity again (HandleMenuInput and the text box's arrow both do). Every wait is
bounded; a screen that does not come raises MenusError.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Protocol

from engine.emulator.errors import FrameBudgetExceeded
from engine.emulator.session import EmulatorSession, LiveMemory
from engine.game.buttons import Button
from engine.game.models import GameState
from engine.game.navigation import next_list_press
from engine.game.screen import row_text
from engine.menus.errors import MenusError

TextSink = Callable[[tuple[str, ...]], None]
Shown = Callable[[LiveMemory], bool]

START_MENU_X, START_MENU_Y = 0x0B, 2  # DrawStartMenu's first entry; entries are two rows apart
START_MENU_TEXT_X = 12
PARTY_MENU_X, PARTY_MENU_Y = 0, 1
SCREEN_COLUMNS = 20
TEXT_ROWS = (14, 16)  # the message box's two lines (home/window.asm PrintText)
MENU_FRAMES = 300  # a menu drawn, or the party's HP bars and pictures loaded
STALE_POLL_FRAMES = 3  # OverworldDriver.waiting_for_button counts a poll of the last 2 frames
PRESS_TRIES = 24  # presses that bring a cursor to its entry (a bag of twenty items, a party of six)
START_TRIES = 3  # START is read only on a frame the overworld loop polls the pad
TEXT_SCREENS = 12  # screens of text between two menus


def message_box_lines(session: EmulatorSession) -> tuple[str, ...]:
    """The message box's lines as shown (not the menus above it): PrintText writes at (1, 14) and (1, 16)
    of wTileMap, the game's copy of the screen."""
    lines = []
    for row in TEXT_ROWS:
        start = session.ram_map.wTileMap + row * SCREEN_COLUMNS
        line = row_text(tuple(session.read(start, SCREEN_COLUMNS))).replace("▼", "").strip()
        if line:
            lines.append(line)
    return tuple(lines)


class Driver(Protocol):
    """What clears text and menus and tells when the game reads the pad (mechanics' OverworldDriver)."""

    def settle(self, answer: Button = ..., read: TextSink | None = None) -> GameState: ...
    def waiting_for_button(self) -> bool: ...


class MenuPresser:
    def __init__(self, session: EmulatorSession, driver: Driver, read: TextSink | None = None) -> None:
        self.session = session
        self.driver = driver
        self.ram = session.ram_map
        self.read = read or (lambda lines: None)

    # -- the start and party menus -----------------------------------------------------------------
    def open_start_menu(self) -> None:
        for _ in range(START_TRIES):
            self.session.press(Button.START)
            try:
                self.wait(self.start_menu, "the start menu")
                return
            except MenusError:
                continue
        raise MenusError("the start menu did not open")

    def start_menu(self, memory: LiveMemory) -> bool:
        ram = self.ram
        return (memory[ram.wTopMenuItemX], memory[ram.wTopMenuItemY]) == (START_MENU_X, START_MENU_Y)

    def party_menu(self, kind: int, memory: LiveMemory) -> bool:
        """The party menu opened for `kind` (pret constants/menu_constants.asm NORMAL_PARTY_MENU, ...)."""
        ram = self.ram
        return (memory[ram.wTopMenuItemX], memory[ram.wTopMenuItemY]) == (PARTY_MENU_X, PARTY_MENU_Y) and (
            memory[ram.wPartyMenuTypeOrMessageID] == kind)  # fmt: skip

    def start_entry(self, ending: str) -> int:
        """The start menu entry whose text ends with `ending`, read off the screen."""
        for entry in range(self.session.read_u8(self.ram.wMaxMenuItem)):
            row = START_MENU_Y + 2 * entry
            start = self.ram.wTileMap + row * SCREEN_COLUMNS + START_MENU_TEXT_X
            text = row_text(tuple(self.session.read(start, SCREEN_COLUMNS - START_MENU_TEXT_X)))
            if text.endswith(ending):
                return entry
        raise MenusError(f"no start menu entry ends with {ending}")

    # -- pressing ----------------------------------------------------------------------------------
    def choose(self, entry: int, what: str) -> None:
        """The cursor onto `entry`, checked after every press, then A."""
        self.cursor_to(entry, what)
        self.session.press(Button.A)

    def cursor_to(self, entry: int, what: str, scrolled: bool = False) -> None:
        """The cursor onto `entry` (in a scrolling list, counted with the entries scrolled past)."""
        for _ in range(PRESS_TRIES):
            at = self._cursor(scrolled)
            button = next_list_press(at, entry)
            if button is None:
                return
            self.session.press(button)
            self.wait(partial(self._moved_from, at, scrolled), f"the cursor on {what}")
        raise MenusError(f"the cursor never reached {what}")

    def _cursor(self, scrolled: bool) -> int:
        at = self.session.read_u8(self.ram.wCurrentMenuItem)
        return at + self.session.read_u8(self.ram.wListScrollOffset) if scrolled else at

    def _moved_from(self, at: int, scrolled: bool, memory: LiveMemory) -> bool:
        now = memory[self.ram.wCurrentMenuItem]
        return (now + memory[self.ram.wListScrollOffset] if scrolled else now) != at

    def wait(self, shown: Shown, what: str) -> None:
        """Until `shown` holds and then the game reads the pad again: a poll from the screen before (the
        party menu's, read within the last frames) must not count for the one being drawn."""
        waiting = self.menu_waits
        try:
            self.session.run_until(shown, MENU_FRAMES)
            self.session.tick(STALE_POLL_FRAMES)
            self.session.run_until(lambda memory: shown(memory) and waiting(), MENU_FRAMES)
        except FrameBudgetExceeded as exc:
            raise MenusError(f"{what} was not there within {MENU_FRAMES} frames") from exc

    def menu_waits(self) -> bool:
        """A menu (not a text box's ▼) reads the pad now."""
        return self.driver.waiting_for_button() and not self.session.polled_by_text_box()

    def advance_to(self, screens: dict[str, Shown], busy_frames: int = MENU_FRAMES) -> str:
        """Read text (A at each screen of it) until one of `screens` waits for a button; its name. The game
        may stay busy `busy_frames` between two screens (an evolution's animation, longer than a menu's)."""
        waiting = self.driver.waiting_for_button
        self.session.tick(STALE_POLL_FRAMES)  # the poll of the screen just left does not count
        for _ in range(TEXT_SCREENS):
            try:
                self.session.run_until(lambda memory: waiting(), busy_frames)
            except FrameBudgetExceeded as exc:
                raise MenusError(f"the game stayed busy for {busy_frames} frames") from exc
            memory = self.session.pyboy.memory
            for name, shown in screens.items():
                if shown(memory) and not self.session.polled_by_text_box():
                    return name
            self._read_box()
            self.session.press(Button.A)
            self.session.tick(STALE_POLL_FRAMES)
        raise MenusError(f"none of {', '.join(screens)} after {TEXT_SCREENS} screens of text")

    def _read_box(self) -> None:
        lines = message_box_lines(self.session)
        if lines:
            self.read(lines)

    def leave(self) -> None:
        """Close whatever is open with B until the player can walk."""
        self.driver.settle(Button.B, read=self.read)
