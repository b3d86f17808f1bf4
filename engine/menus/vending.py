"""A drink from a vending machine (the Celadon Mart's roof), closed-loop.

A at the machine prints "A vending machine! Here's the menu!" and opens a four-entry menu at wTopMenuItemX 1,
wTopMenuItemY 5 (FRESH WATER, SODA POP, LEMONADE, CANCEL; pret engine/events/vending_machine.asm
VendingMachineMenu); A on a drink takes its price if the money is there and puts the drink in the bag. The bag
and the money are checked after: a drink that did not come (too little money, a full bag) raises with the
menus closed.
"""

from __future__ import annotations

from engine.emulator.session import EmulatorSession, LiveMemory
from engine.game.decoders import decode_bag
from engine.game.tables import game_data
from engine.menus.errors import MenusError, VendingError
from engine.menus.screens import Driver, MenuPresser, TextSink

# In menu order, with their prices (pret data/items/vending_prices.asm VendingPrices).
DRINKS = {"FRESH_WATER": 200, "SODA_POP": 300, "LEMONADE": 350}
MENU_X, MENU_Y, LAST_ENTRY = 1, 5, 3


class VendingMachine:
    def __init__(self, session: EmulatorSession, driver: Driver) -> None:
        self.session = session
        self.driver = driver
        self.ram = session.ram_map

    def buy(self, drink: str, read: TextSink | None = None) -> str:
        """With the machine's text just opened by A: `drink` bought; what RAM showed. Raises VendingError
        (the menus closed) if the menu did not come or the drink did not reach the bag."""
        if drink not in DRINKS:
            raise VendingError(f"no {drink} in a vending machine (it sells {', '.join(DRINKS)})")
        before = self._count(drink)
        menus = MenuPresser(self.session, self.driver, read)
        try:
            menus.advance_to({"drinks": self._menu})
            menus.choose(list(DRINKS).index(drink), drink)
        except MenusError as exc:
            menus.leave()
            raise VendingError(f"the vending machine's menu: {exc}") from exc
        self.driver.settle(read=read)
        if self._count(drink) != before + 1:
            raise VendingError(
                f"no {drink} came out (¥{DRINKS[drink]}: too little money, or the bag is full)"
            )
        return f"bought {drink} from the vending machine for ¥{DRINKS[drink]}"

    def _menu(self, memory: LiveMemory) -> bool:
        ram = self.ram
        return (memory[ram.wTopMenuItemX], memory[ram.wTopMenuItemY], memory[ram.wMaxMenuItem]) == (
            MENU_X, MENU_Y, LAST_ENTRY,
        )  # fmt: skip

    def _count(self, drink: str) -> int:
        bag = decode_bag(self.session.memory_image(), self.ram, game_data())
        return sum(item.quantity for item in bag if item.name == drink)
