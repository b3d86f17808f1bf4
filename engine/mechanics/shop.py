"""Buying at a Poké Mart, closed-loop: the clerk's menus driven press by press, every purchase checked in RAM.

Once the clerk has been talked to, the game runs pret/pokered engine/events/pokemart.asm
DisplayPokemartDialogue_: the BUY/SELL/QUIT menu, BUY's list of the Mart's stock (wItemList, shown by
home/list_menu.asm DisplayListMenuID), the quantity box (DisplayChooseQuantityMenu, wItemQuantity), "ITEM?
That will be ¥N. OK?" with YES/NO, "Here you are! Thank you!", and back to the list. Each screen is told
apart from RAM while the game waits for a button (it runs JoypadLowSensitivity then): the text box id
(wTextBoxID), the list's menu id and whether the list or the quantity box reads the pad (hJoy7). Every press
is followed by a bounded wait for the screen to change; a purchase is counted only when the bag holds that
many more of the item and the money fell by their price. Anything unexpected ends the shopping, and the
menus are left with B until the player can walk again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum

from engine.emulator.errors import FrameBudgetExceeded
from engine.emulator.session import EmulatorSession, LiveMemory
from engine.game.buttons import Button
from engine.game.decoders import decode_bcd
from engine.game.mart import bag_count, bag_room, plan_purchase, quantity_presses, stock_ids
from engine.game.models import GameState
from engine.game.navigation import next_list_press
from engine.game.tables import game_data
from engine.mechanics.errors import MartError
from engine.mechanics.walking import OverworldDriver, TextSink
from engine.menus.screens import message_box_lines
from engine.world.goals import Purchase

# Text box ids (pret constants/menu_constants.asm) and list menu ids (constants/list_constants.asm).
MESSAGE_BOX = 0x01  # PrintText's box: a line of the clerk's text
LIST_MENU_BOX = 0x0D  # DisplayListMenuID: the stock, then the quantity box over it
BUY_SELL_QUIT_MENU_TEMPLATE = 0x0E  # DoBuySellQuitMenu
TWO_OPTION_MENU = 0x14  # the YES/NO box
PRICEDITEMLISTMENU = 0x02  # the Mart's buy list (the sell list is ITEMLISTMENU)
BUY, YES = 0, 0  # menu entries: BUY is the first of BUY/SELL/QUIT, YES the first of YES/NO
WINDOW_HIDDEN = 0x90  # hWY: no text box or menu over the map
ITEM_LIST_BYTES = 16  # pret ram/wram.asm wItemList:: ds 16

SCREEN_FRAMES = 600  # a screen of text at the slowest text speed, or the purchase jingle, fits well inside
PRESS_TRIES = 3  # a press that changed nothing is tried again this often before giving up
TEXT_SCREENS = 8  # screens of text between two menus ("ITEM? That will be", "¥N. OK?", ...)
LEAVE_PRESSES = 16  # list, YES/NO, BUY/SELL/QUIT, "Thank you!": a few presses of B and A each
MAX_QUANTITY_PRESSES = 50  # the quantity box wraps, so the short way round is at most 49 presses


class Screen(StrEnum):
    MENU = "buy_sell_quit"
    LIST = "item_list"
    QUANTITY = "quantity"
    YES_NO = "yes_no"
    TEXT = "text"
    FREE = "free"  # the menus are closed: the player can walk
    OTHER = "other"  # a menu of someone else (the sell list, a clerk who is no clerk)


@dataclass
class ShopResult:
    bought: list[Purchase] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # why a purchase was skipped or cut short
    frames: int = 0


Signature = tuple[Screen, int, int, int, tuple[int, ...]]


class Shopper:
    def __init__(self, session: EmulatorSession, driver: OverworldDriver) -> None:
        self.session = session
        self.driver = driver  # watches JoypadLowSensitivity, decodes states, clears what is left
        self.ram = session.ram_map
        self.read: TextSink = lambda lines: None

    def shop(self, purchases: tuple[Purchase, ...], read: TextSink | None = None) -> ShopResult:
        """Buy `purchases` in order from the clerk just talked to, then leave the menus."""
        started = self.session.frame
        self.read = read or (lambda lines: None)
        result = ShopResult()
        try:
            self._advance_to({Screen.MENU, Screen.LIST})  # the clerk's menu is open: the stock is loaded
            self._read_box()  # "Hi there! May I help you?" waits for no button
            stock = stock_ids(self.session.read(self.ram.wItemList, ITEM_LIST_BYTES))
            for purchase in purchases:
                self._buy(purchase, stock, result)
        except MartError as exc:
            result.notes.append(f"stopped shopping: {exc}")
        self._leave()
        result.frames = self.session.frame - started
        return result

    # -- one purchase ------------------------------------------------------------------------------
    def _buy(self, purchase: Purchase, stock: tuple[int, ...], result: ShopResult) -> None:
        data = game_data()
        item_id = data.item_ids[purchase.item]
        before = self.driver.state()
        price = data.item_prices.get(purchase.item)
        plan = plan_purchase(
            purchase.item, purchase.quantity, price=price, sold=item_id in stock,
            money=before.progress.money, room=bag_room(before.bag, item_id),
        )  # fmt: skip
        if plan.note:
            result.notes.append(plan.note)
        if plan.quantity == 0 or price is None:
            return
        self._open_list()
        self._cursor_to(stock.index(item_id))
        if self._press(Button.A) is not Screen.QUANTITY or self._u8(self.ram.wCurItem) != item_id:
            raise MartError(f"choosing {purchase.item} did not open its quantity box")
        shown = decode_bcd(self.session.read(self.ram.hItemPrice, 3))
        if shown != price:
            raise MartError(f"{purchase.item} costs ¥{shown} here, not the ¥{price} of the price table")
        self._set_quantity(plan.quantity)
        self._confirm()
        self._check(purchase.item, item_id, plan.quantity, price, before, result)

    def _check(
        self, item: str, item_id: int, quantity: int, price: int, before: GameState, result: ShopResult
    ) -> None:
        """Counted only if RAM shows it: that many more in the bag, their price less in hand."""
        after = self.driver.state()
        got = bag_count(after.bag, item_id) - bag_count(before.bag, item_id)
        paid = before.progress.money - after.progress.money
        if got == quantity and paid == price * quantity:
            result.bought.append(Purchase(item=item, quantity=quantity))
        else:
            result.notes.append(f"{item}: the game did not sell {quantity} (bag +{got}, money -{paid})")

    # -- the menus ---------------------------------------------------------------------------------
    def _open_list(self) -> None:
        """To the Mart's stock: from BUY/SELL/QUIT choose BUY, read the text on the way."""
        if self._advance_to({Screen.MENU, Screen.LIST}) is Screen.LIST:
            return
        self._menu_cursor_to(BUY)
        self._press(Button.A)
        self._advance_to({Screen.LIST})

    def _cursor_to(self, index: int) -> None:
        """The list cursor onto entry `index` (wCurrentMenuItem counts from the top row shown,
        wListScrollOffset the entries scrolled past)."""
        for _ in range(ITEM_LIST_BYTES):
            at = self._u8(self.ram.wCurrentMenuItem) + self._u8(self.ram.wListScrollOffset)
            button = next_list_press(at, index)
            if button is None:
                return
            if self._press(button) is not Screen.LIST:
                raise MartError("the list closed while its cursor moved")
        raise MartError(f"the list cursor never reached entry {index}")

    def _set_quantity(self, wanted: int) -> None:
        for _ in range(MAX_QUANTITY_PRESSES):
            now = self._u8(self.ram.wItemQuantity)
            if now == wanted:
                return
            button, _ = quantity_presses(wanted, start=now)
            if self._press(button) is not Screen.QUANTITY:
                raise MartError("the quantity box closed while it was being set")
        raise MartError(f"the quantity box never showed {wanted}")

    def _confirm(self) -> None:
        """A on the quantity, YES to the price, and the clerk's answer read back to a menu."""
        self._press(Button.A)
        self._advance_to({Screen.YES_NO})
        self._read_box()  # "¥N. OK?"
        self._menu_cursor_to(YES)
        self._press(Button.A)
        self._advance_to({Screen.LIST, Screen.MENU})  # the list again; the menu after "not enough money"

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


SCREEN_COLUMNS = 20
SCREEN_TILES = SCREEN_COLUMNS * 18  # wTileMap: the game's copy of the screen, where it draws text and menus


def _keep(look: Callable[[LiveMemory], Screen | None], found: list[Screen]) -> Callable[[LiveMemory], bool]:
    """A run_until predicate that remembers what `look` saw when it held."""

    def holds(memory: LiveMemory) -> bool:
        screen = look(memory)
        if screen is not None:
            found.append(screen)
        return screen is not None

    return holds
