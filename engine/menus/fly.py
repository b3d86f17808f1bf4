"""FLY from the party menu, closed-loop: START, POKéMON, the member, FLY, the town on the town map, A.

The town map for FLY (pret engine/items/town_map.asm LoadTownMap_Fly) writes "To" at the screen's top left
and the chosen town's name from column 3 of the top row; UP goes to the next visited town in the list, DOWN
to the one before, A flies there (wDestinationMap, then the game's own warp to the town's landing square,
data/maps/special_warps.asm FlyWarpDataPtr). The name on screen is read after every press; the flight is
done when wCurMap is the town's and the player can walk. FLY is refused indoors (CheckIfInOutsideMap), so
the caller asks only outdoors.
"""

from __future__ import annotations

from functools import partial

from engine.emulator.errors import FrameBudgetExceeded
from engine.emulator.session import EmulatorSession, LiveMemory
from engine.game.buttons import Button
from engine.game.screen import row_text
from engine.menus.errors import FlyError, MenusError
from engine.menus.field_move import field_slot
from engine.menus.party import open_member_submenu
from engine.menus.screens import SCREEN_COLUMNS, Driver, MenuPresser, TextSink

NAME_X = 3  # the town's name on the top row
TOWNS = 11  # NUM_CITY_MAPS: the list the map's cursor goes round
FLIGHT_FRAMES = 1200  # the bird's animation, the fade and the town loaded


def town_words(town: str) -> str:
    """The name the town map shows for a town's pret name: VIRIDIAN_CITY -> VIRIDIAN CITY."""
    return town.replace("_", " ")


class FlyUser:
    def __init__(self, session: EmulatorSession, driver: Driver) -> None:
        self.session = session
        self.driver = driver
        self.ram = session.ram_map

    def fly(self, member: int, town: str, town_id: int, read: TextSink | None = None) -> None:
        """Party member `member` (0-based) flies the player to `town` (its pret name; map id `town_id`).
        Raises FlyError, with the menus closed, when a screen was not where expected or the flight did not
        land there."""
        menus = MenuPresser(self.session, self.driver, read)
        try:
            open_member_submenu(menus, member)
            menus.choose(field_slot(self.session, "FLY"), "FLY")
            menus.wait(self._on_town_map, "the town map")
            self._choose(menus, town_words(town))
        except MenusError as exc:
            menus.leave()
            raise FlyError(str(exc)) from exc
        self.session.press(Button.A)
        ram = self.ram

        def landed(memory: LiveMemory) -> bool:
            return memory[ram.wCurMap] == town_id

        try:
            self.session.run_until(landed, FLIGHT_FRAMES)
        except FrameBudgetExceeded as exc:
            raise FlyError(f"the flight to {town} did not land within {FLIGHT_FRAMES} frames") from exc
        self.driver.settle(read=read)

    def _choose(self, menus: MenuPresser, name: str) -> None:
        for _ in range(TOWNS + 1):
            shown = self._shown_town()
            if shown == name:
                return
            self.session.press(Button.UP)
            menus.wait(partial(self._other_town, shown), "the next town")
        raise MenusError(f"{name} is not among the towns FLY offers")

    def _on_town_map(self, memory: LiveMemory) -> bool:
        at = self.ram.wTileMap
        return row_text((memory[at], memory[at + 1])) == "To" and bool(self._shown_town(memory))

    def _shown_town(self, memory: LiveMemory | None = None) -> str:
        at = self.ram.wTileMap + NAME_X
        width = SCREEN_COLUMNS - NAME_X - 2  # the arrows at columns 18 and 19
        read = memory if memory is not None else self.session.pyboy.memory
        return row_text(tuple(read[at + i] for i in range(width))).strip()

    def _other_town(self, before: str, memory: LiveMemory) -> bool:
        shown = self._shown_town(memory)
        return bool(shown) and shown != before
