"""A field move from the party menu, closed-loop: START, POKéMON, the member, the move, each screen
recognised in RAM before the next press.

The screens, from pret/pokered: the start menu (home/start_menu.asm DisplayStartMenu; its entries drawn by
engine/menus/draw_start_menu.asm from wTopMenuItemY 2, two rows apart, POKéDEX only once the player has
one), the party menu (home/pokemon.asm PartyMenuInit: wTopMenuItemY 1, X 0, one entry per member), and the
member's submenu (engine/menus/start_sub_menus.asm StartMenu_Pokemon: text box FIELD_MOVE_MON_MENU, its
field moves first, listed in wFieldMoves by their FieldMoveNames index, then STATS, SWITCH, CANCEL).
Choosing the move runs its routine (CUT: engine/overworld/cut.asm UsedCut, which sets
wActionResultOrTookBattleTurn to 1 once it cuts). Every
press waits, bounded, for the game to read the pad again; anything unexpected closes the menus with B and
raises, so the caller always gets the overworld back.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Protocol

from engine.emulator.errors import FrameBudgetExceeded
from engine.emulator.session import EmulatorSession, LiveMemory
from engine.game.buttons import Button
from engine.game.field_moves import FIELD_MOVE_LIST_INDEX
from engine.game.models import GameState
from engine.game.navigation import next_list_press
from engine.game.screen import row_text
from engine.menus.errors import FieldMoveError

TextSink = Callable[[tuple[str, ...]], None]


class Driver(Protocol):
    """What clears text and menus and tells when the game reads the pad (mechanics' OverworldDriver)."""

    def settle(self, answer: Button = ..., read: TextSink | None = None) -> GameState: ...
    def waiting_for_button(self) -> bool: ...


START_MENU_X, START_MENU_Y = 0x0B, 2  # DrawStartMenu's first entry; entries are two rows apart
START_MENU_TEXT_X = 12
PARTY_MENU_X, PARTY_MENU_Y = 0, 1
FIELD_MOVE_MON_MENU = 0x04  # pret constants/menu_constants.asm
FIELD_MOVE_SLOTS = 4
SCREEN_COLUMNS = 20
MENU_FRAMES = 300  # a menu drawn, or the party's HP bars and pictures loaded
PRESS_TRIES = 8  # presses that bring a cursor to its entry (a party of six, a start menu of seven)
STALE_POLL_FRAMES = 3  # OverworldDriver.waiting_for_button counts a poll of the last 2 frames
START_TRIES = 3  # START is read only on a frame the overworld loop polls the pad


class FieldMoveUser:
    def __init__(self, session: EmulatorSession, driver: Driver) -> None:
        self.session = session
        self.driver = driver
        self.ram = session.ram_map

    def use(self, move: str, member: int, read: TextSink | None = None) -> None:
        """Use `move` of party member `member` (0-based) from the overworld; back on the overworld after.
        Raises FieldMoveError if a menu was not where expected or the move did not take."""
        listed_as = FIELD_MOVE_LIST_INDEX[move]
        try:
            self._open_start_menu()
            self._choose(self._start_entry("MON"), "the start menu's POKéMON")
            self._wait(self._party_menu, "the party menu")
            self._choose(member, f"party member {member + 1}")
            self._wait(self._submenu, "the member's submenu")
            self._choose(self._field_slot(move, listed_as), move)
        except FieldMoveError:
            self.driver.settle(Button.B)
            raise
        self.driver.settle(read=read)
        if self.session.read_u8(self.ram.wActionResultOrTookBattleTurn) != 1:
            raise FieldMoveError(f"{move} did nothing here")

    # -- the screens -------------------------------------------------------------------------------
    def _open_start_menu(self) -> None:
        for _ in range(START_TRIES):
            self.session.press(Button.START)
            try:
                self._wait(self._start_menu, "the start menu")
                return
            except FieldMoveError:
                continue
        raise FieldMoveError("the start menu did not open")

    def _start_menu(self, memory: LiveMemory) -> bool:
        return (
            memory[self.ram.wTopMenuItemX] == START_MENU_X and memory[self.ram.wTopMenuItemY] == START_MENU_Y
        )

    def _party_menu(self, memory: LiveMemory) -> bool:
        ram = self.ram
        return (memory[ram.wTopMenuItemX], memory[ram.wTopMenuItemY]) == (PARTY_MENU_X, PARTY_MENU_Y) and (
            memory[ram.wPartyMenuTypeOrMessageID] == 0)  # fmt: skip

    def _submenu(self, memory: LiveMemory) -> bool:
        return memory[self.ram.wTextBoxID] == FIELD_MOVE_MON_MENU

    def _start_entry(self, ending: str) -> int:
        """The start menu entry whose text ends with `ending`, read off the screen (POKéMON is the first
        entry until the player has a Pokédex, the second after)."""
        for entry in range(self.session.read_u8(self.ram.wMaxMenuItem)):
            row = START_MENU_Y + 2 * entry
            start = self.ram.wTileMap + row * SCREEN_COLUMNS + START_MENU_TEXT_X
            text = row_text(tuple(self.session.read(start, SCREEN_COLUMNS - START_MENU_TEXT_X)))
            if text.endswith(ending):
                return entry
        raise FieldMoveError(f"no start menu entry ends with {ending}")

    def _field_slot(self, move: str, listed_as: int) -> int:
        listed = list(self.session.read(self.ram.wFieldMoves, FIELD_MOVE_SLOTS))
        if listed_as not in listed:
            raise FieldMoveError(f"the member's submenu does not list {move}")
        return listed.index(listed_as)

    # -- pressing ----------------------------------------------------------------------------------
    def _choose(self, entry: int, what: str) -> None:
        """The cursor onto `entry`, checked after every press, then A."""
        for _ in range(PRESS_TRIES):
            at = self.session.read_u8(self.ram.wCurrentMenuItem)
            button = next_list_press(at, entry)
            if button is None:
                self.session.press(Button.A)
                return
            self.session.press(button)
            self._wait(partial(self._moved_from, at), f"the cursor on {what}")
        raise FieldMoveError(f"the cursor never reached {what}")

    def _moved_from(self, at: int, memory: LiveMemory) -> bool:
        return memory[self.ram.wCurrentMenuItem] != at

    def _wait(self, shown: Callable[[LiveMemory], bool], what: str) -> None:
        """Until `shown` holds and then the game reads the pad again: a poll from the screen before (the
        party menu's, read within the last frames) must not count for the submenu being drawn."""
        waiting = self.driver.waiting_for_button
        try:
            self.session.run_until(shown, MENU_FRAMES)
            self.session.tick(STALE_POLL_FRAMES)
            self.session.run_until(lambda memory: shown(memory) and waiting(), MENU_FRAMES)
        except FrameBudgetExceeded as exc:
            raise FieldMoveError(f"{what} was not there within {MENU_FRAMES} frames") from exc
