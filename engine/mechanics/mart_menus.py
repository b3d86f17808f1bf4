"""A Poké Mart's menus, closed-loop: which screen waits for a button, presses that change it, the clerk's
text read on the way, the list cursor, the quantity box, YES to the price, and the way out. Buying and
selling (mechanics/shop.py) are made of these.

Once the clerk has been talked to, the game runs pret/pokered engine/events/pokemart.asm
DisplayPokemartDialogue_: the BUY/SELL/QUIT menu; BUY's list of the Mart's stock (wItemList) or SELL's list
of the bag (wNumBagItems), both shown by home/list_menu.asm DisplayListMenuID; the quantity box
(DisplayChooseQuantityMenu, wItemQuantity); the price with YES/NO; and back to the list. Each screen is told
apart from RAM while the game waits for a button (it runs JoypadLowSensitivity then): the text box id
(wTextBoxID), the list's menu id and whether the list or the quantity box reads the pad (hJoy7). Every press
is followed by a bounded wait for the screen to change.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum

from engine.emulator.errors import FrameBudgetExceeded
from engine.emulator.session import EmulatorSession, LiveMemory
from engine.game.buttons import Button
from engine.game.mart import quantity_presses
from engine.game.navigation import next_list_press
from engine.mechanics.errors import MartError
from engine.mechanics.walking import OverworldDriver, TextSink
from engine.menus.screens import message_box_lines

# Text box ids (pret constants/menu_constants.asm) and list menu ids (constants/list_constants.asm).
MESSAGE_BOX = 0x01  # PrintText's box: a line of the clerk's text
LIST_MENU_BOX = 0x0D  # DisplayListMenuID: the stock or the bag, then the quantity box over it
BUY_SELL_QUIT_MENU_TEMPLATE = 0x0E  # DoBuySellQuitMenu
TWO_OPTION_MENU = 0x14  # the YES/NO box
PRICEDITEMLISTMENU = 0x02  # the Mart's buy list, and the quantity box with a price (buying and selling)
ITEMLISTMENU = 0x03  # the bag's list: SELL's
BUY, SELL, YES = 0, 1, 0  # menu entries: BUY/SELL/QUIT, and YES/NO
WINDOW_HIDDEN = 0x90  # hWY: no text box or menu over the map
ITEM_LIST_BYTES = 16  # pret ram/wram.asm wItemList:: ds 16
LIST_ENTRIES = 21  # the longest list: twenty kinds of item in the bag, then CANCEL

SCREEN_FRAMES = 600  # a screen of text at the slowest text speed, or the purchase jingle, fits well inside
PRESS_TRIES = 3  # a press that changed nothing is tried again this often before giving up
TEXT_SCREENS = 8  # screens of text between two menus ("ITEM? That will be", "¥N. OK?", ...)
LEAVE_PRESSES = 16  # list, YES/NO, BUY/SELL/QUIT, "Thank you!": a few presses of B and A each
MAX_QUANTITY_PRESSES = 50  # the quantity box wraps, so the short way round is at most 49 presses
SCREEN_COLUMNS = 20
SCREEN_TILES = SCREEN_COLUMNS * 18  # wTileMap: the game's copy of the screen, where it draws text and menus


class Screen(StrEnum):
    MENU = "buy_sell_quit"
    LIST = "item_list"  # BUY's list of the stock
    SELL_LIST = "sell_list"  # SELL's list of the bag
    QUANTITY = "quantity"
    YES_NO = "yes_no"
    TEXT = "text"
    FREE = "free"  # the menus are closed: the player can walk
    OTHER = "other"  # a menu of someone else (a clerk who is no clerk)


LISTS = {BUY: Screen.LIST, SELL: Screen.SELL_LIST}
Signature = tuple[Screen, int, int, int, tuple[int, ...]]


class MartMenus:
    def __init__(self, session: EmulatorSession, driver: OverworldDriver) -> None:
        self.session = session
        self.driver = driver  # watches JoypadLowSensitivity, decodes states, clears what is left
        self.ram = session.ram_map
        self.read: TextSink = lambda lines: None

    # -- moving through the menus ------------------------------------------------------------------
    def _open_list(self, entry: int) -> None:
        """To BUY's or SELL's list (`entry` of BUY/SELL/QUIT): from the other list back to the menu with B,
        then the entry chosen; the text on the way is read."""
        wanted = LISTS[entry]
        screen = self._advance_to({Screen.MENU, *LISTS.values()})
        if screen is wanted:
            return
        if screen is not Screen.MENU:
            self._press(Button.B)  # "Is there anything else I can do?"
            self._advance_to({Screen.MENU})
        self._menu_cursor_to(entry)
        self._press(Button.A)
        self._advance_to({wanted})

    def _cursor_to(self, index: int, screen: Screen) -> None:
        """The list cursor onto entry `index` (wCurrentMenuItem counts from the top row shown,
        wListScrollOffset the entries scrolled past)."""
        for _ in range(LIST_ENTRIES):
            at = self._u8(self.ram.wCurrentMenuItem) + self._u8(self.ram.wListScrollOffset)
            button = next_list_press(at, index)
            if button is None:
                return
            if self._press(button) is not screen:
                raise MartError("the list closed while its cursor moved")
        raise MartError(f"the list cursor never reached entry {index}")

    def _set_quantity(self, wanted: int, maximum: int) -> None:
        for _ in range(MAX_QUANTITY_PRESSES):
            now = self._u8(self.ram.wItemQuantity)
            if now == wanted:
                return
            button, _ = quantity_presses(wanted, start=now, maximum=maximum)
            if self._press(button) is not Screen.QUANTITY:
                raise MartError("the quantity box closed while it was being set")
        raise MartError(f"the quantity box never showed {wanted}")

    def _confirm(self, back_to: set[Screen]) -> None:
        """A on the quantity, YES to the price, and the clerk's answer read until one of `back_to` (the
        list again, or the menu after "not enough money")."""
        self._press(Button.A)
        self._advance_to({Screen.YES_NO})
        self._read_box()  # "¥N. OK?", "I can pay you ¥N for that."
        self._menu_cursor_to(YES)
        self._press(Button.A)
        self._advance_to(back_to)

    def _menu_cursor_to(self, entry: int) -> None:
        for _ in range(PRESS_TRIES * 2):
            button = next_list_press(self._u8(self.ram.wCurrentMenuItem), entry)
            if button is None:
                return
            self._press(button)
        raise MartError(f"the menu cursor never reached entry {entry}")

    def _leave(self) -> None:
        """B out of the menus (A on the clerk's last words) until the player can walk."""
        for _ in range(LEAVE_PRESSES):
            try:
                screen = self._look()
                if screen is Screen.FREE:
                    break
                if screen in (Screen.TEXT, Screen.MENU):
                    self._read_box()  # "Is there anything else I can do?", "Thank you!"
                self._press(Button.A if screen is Screen.TEXT else Button.B)
            except MartError:
                break
        self.driver.settle(Button.B, read=self.read)  # whatever is left; it raises if it never frees

    # -- looking and pressing ----------------------------------------------------------------------
    def _advance_to(self, wanted: set[Screen]) -> Screen:
        """Read the clerk's text (A at each screen of it) until one of the `wanted` screens waits."""
        screen = self._look()
        for _ in range(TEXT_SCREENS):
            if screen in wanted:
                return screen
            if screen is Screen.FREE:
                raise MartError("the talk ended without a Mart's menu")
            if screen is not Screen.TEXT:
                raise MartError(f"at {screen.value}, not at {'/'.join(sorted(s.value for s in wanted))}")
            self._read_box()
            screen = self._press(Button.A)
        raise MartError(f"still reading after {TEXT_SCREENS} screens of text")

    def _look(self) -> Screen:
        """The screen, once the game waits for a button (or the menus have closed)."""
        found: list[Screen] = []
        try:
            self.session.run_until(_keep(self._screen, found), SCREEN_FRAMES)
        except FrameBudgetExceeded as exc:
            raise MartError(f"the game stayed busy for {SCREEN_FRAMES} frames") from exc
        return found[-1]

    def _press(self, button: Button) -> Screen:
        """Press `button` and wait until the screen waiting for a button is another one; retried a few
        times if the game did not take the press."""
        before = self._signature(self.session.pyboy.memory)
        found: list[Screen] = []

        def changed(memory: LiveMemory) -> Screen | None:
            screen = self._screen(memory)
            return screen if screen is not None and self._signature(memory) != before else None

        for _ in range(PRESS_TRIES):
            self.session.press(button)
            try:
                self.session.run_until(_keep(changed, found), SCREEN_FRAMES)
            except FrameBudgetExceeded:
                continue
            return found[-1]
        raise MartError(f"pressing {button.value.upper()} changed nothing")

    def _screen(self, memory: LiveMemory) -> Screen | None:
        """Which Mart screen waits for a button; None while the game is busy (printing, a jingle)."""
        ram = self.ram
        if memory[ram.hWY] >= WINDOW_HIDDEN and not memory[ram.wJoyIgnore]:
            return Screen.FREE
        if not self.driver.waiting_for_button():
            return None
        box = memory[ram.wTextBoxID]
        if box == TWO_OPTION_MENU:
            return Screen.YES_NO
        if box == BUY_SELL_QUIT_MENU_TEMPLATE:
            return Screen.MENU
        if box == LIST_MENU_BOX and memory[ram.wListMenuID] == PRICEDITEMLISTMENU:
            return Screen.LIST if memory[ram.hJoy7] else Screen.QUANTITY
        if box == LIST_MENU_BOX and memory[ram.wListMenuID] == ITEMLISTMENU and memory[ram.hJoy7]:
            return Screen.SELL_LIST
        return Screen.TEXT if box == MESSAGE_BOX else Screen.OTHER

    def _signature(self, memory: LiveMemory) -> Signature | None:
        """What a press changes: the screen, the cursor, the scroll, the quantity, the text shown."""
        screen = self._screen(memory)
        if screen is None:
            return None
        ram = self.ram
        tiles = tuple(memory[ram.wTileMap : ram.wTileMap + SCREEN_TILES])
        return (screen, memory[ram.wCurrentMenuItem], memory[ram.wListScrollOffset],
                memory[ram.wItemQuantity], tiles)  # fmt: skip

    def _read_box(self) -> None:
        """Hand the text box's lines to `read` (not the menus above it)."""
        lines = message_box_lines(self.session)
        if lines:
            self.read(lines)

    def _u8(self, address: int) -> int:
        return self.session.read_u8(address)


def _keep(look: Callable[[LiveMemory], Screen | None], found: list[Screen]) -> Callable[[LiveMemory], bool]:
    """A run_until predicate that remembers what `look` saw when it held."""

    def holds(memory: LiveMemory) -> bool:
        screen = look(memory)
        if screen is not None:
            found.append(screen)
        return screen is not None

    return holds
