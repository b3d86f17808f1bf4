"""The quantity box ("×01", pret home/list_menu.asm DisplayChooseQuantityMenu): recognised in RAM and set to a
number by the short way round, each press checked on wItemQuantity. The bag's TOSS and the PC's item
storage both ask how many through it."""

from __future__ import annotations

from functools import partial

from engine.emulator.session import LiveMemory
from engine.game.mart import quantity_presses
from engine.menus.errors import MenusError
from engine.menus.screens import SCREEN_COLUMNS, MenuPresser, Shown

QUANTITY_ROW, QUANTITY_COLUMN, TIMES_TILE = 10, 16, 0xF1  # "×01" at column 16 of row 10; charmap "×"
MAX_QUANTITY_PRESSES = 60  # the short way round a box of up to 99


def quantity_box(menus: MenuPresser) -> Shown:
    """The box drawn and the game reading the pad in it."""
    at = menus.ram.wTileMap + QUANTITY_ROW * SCREEN_COLUMNS + QUANTITY_COLUMN
    return lambda memory: memory[at] == TIMES_TILE and menus.menu_waits()


def set_quantity(menus: MenuPresser, wanted: int, maximum: int) -> None:
    """Up and down until the box shows `wanted` (1..maximum); MenusError when it never does."""
    address = menus.ram.wItemQuantity
    for _ in range(MAX_QUANTITY_PRESSES):
        now = menus.session.read_u8(address)
        if now == wanted:
            return
        button, _ = quantity_presses(wanted, start=now, maximum=maximum)
        menus.session.press(button)
        menus.wait(partial(_moved, address, now), "the quantity changed")
    raise MenusError(f"the quantity box never showed {wanted}")


def _moved(address: int, was: int, memory: LiveMemory) -> bool:
    return bool(memory[address] != was)
