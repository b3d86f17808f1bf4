"""Using an item from the bag in the field, closed-loop (START, ITEM, the item, USE), for the items that need
no member chosen: the POKé FLUTE next to a sleeping SNORLAX, and the like. The item's text is read to its
end; what the item does after (a battle begins, an event is set) is the caller's to check."""

from __future__ import annotations

from engine.emulator.session import EmulatorSession
from engine.menus.bag import choose_to_use
from engine.menus.errors import ItemUseError, MenusError
from engine.menus.screens import Driver, MenuPresser, TextSink


class ItemUser:
    def __init__(self, session: EmulatorSession, driver: Driver) -> None:
        self.session = session
        self.driver = driver

    def use(self, item: str, read: TextSink | None = None) -> None:
        """Use `item` where the player stands; ItemUseError (the menus closed) when the bag's screens were
        not where expected."""
        menus = MenuPresser(self.session, self.driver, read)
        try:
            choose_to_use(menus, item)
        except MenusError as exc:
            menus.leave()
            raise ItemUseError(f"using {item}: {exc}") from exc
        self.driver.settle(read=read)
