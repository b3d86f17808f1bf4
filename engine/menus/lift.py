"""Riding an elevator, closed-loop: A at the panel, the floor chosen in its list, the ride waited out.

The panel's text runs pret/pokered engine/events/elevator.asm DisplayElevatorFloorMenu: "Which floor do you
want?" and the floors as a list menu (home/list_menu.asm DisplayListMenuID, SPECIALLISTMENU, the floor
"items" in wItemList); A on an entry points the elevator's exits at that floor (wWarpEntries) and the car
shakes once the text closes. The choice counts only if the list reports the floor chosen (wCurItem).
"""

from __future__ import annotations

from engine.emulator.session import EmulatorSession, LiveMemory
from engine.game.buttons import Button
from engine.menus.errors import LiftError, MenusError
from engine.menus.screens import Driver, MenuPresser, TextSink

LIST_MENU_BOX, SPECIALLISTMENU = 0x0D, 0x04  # pret constants/menu_constants.asm, list_constants.asm
FLOORS_MAX = 16  # wItemList: a count, the floors, $ff
TALK_TAPS = 4
WINDOW_HIDDEN = 0x90  # hWY: no text box or menu over the map


class LiftRider:
    def __init__(self, session: EmulatorSession, driver: Driver) -> None:
        self.session = session
        self.driver = driver
        self.ram = session.ram_map

    def ride(self, entry: int, read: TextSink | None = None) -> int:
        """Choose the floor menu's `entry` at the panel the player faces; the floor's item id. Raises
        LiftError (the menus closed) when the menu did not come or the choice did not take."""
        menus = MenuPresser(self.session, self.driver, read)
        try:
            self._talk()
            menus.advance_to({"floors": self._floors})
            listed = self.session.read(self.ram.wItemList, FLOORS_MAX)
            if not 0 <= entry < listed[0]:
                raise MenusError(f"the panel lists {listed[0]} floors, not an entry {entry}")
            menus.cursor_to(entry, f"floor entry {entry}", scrolled=True)
            self.session.press(Button.A)
            chosen = self.session.read_u8(self.ram.wCurItem)
            if chosen != listed[1 + entry]:
                raise MenusError(f"the list chose item {chosen:#x}, not the floor {listed[1 + entry]:#x}")
        except MenusError as exc:
            menus.leave()
            raise LiftError(str(exc)) from exc
        self.driver.settle(read=read)  # the car shakes, then the player may walk out
        return chosen

    def _talk(self) -> None:
        """A at the panel: the game takes A only on a frame it sees it go down, and not in the frames right
        after a turn, so A is tapped until a text box opens."""
        for _ in range(TALK_TAPS):
            self.session.press(Button.A)
            if self.session.read_u8(self.ram.hWY) < WINDOW_HIDDEN:
                return
        raise MenusError("the panel did not answer A")

    def _floors(self, memory: LiveMemory) -> bool:
        ram = self.ram
        return memory[ram.wTextBoxID] == LIST_MENU_BOX and memory[ram.wListMenuID] == SPECIALLISTMENU
