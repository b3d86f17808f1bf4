"""The bag from the start menu: START, ITEM, the item, USE, every screen recognised in RAM.

pret/pokered: the bag is a list menu (home/list_menu.asm DisplayListMenuID, ITEMLISTMENU); choosing an item
opens the USE/TOSS box (engine/menus/start_sub_menus.asm StartMenu_Item, USE_TOSS_MENU_TEMPLATE), and USE
runs the item's routine (engine/items/item_effects.asm). What the item then shows (a party menu, text) is
the caller's to read.
"""

from __future__ import annotations

from engine.emulator.session import LiveMemory
from engine.game.buttons import Button
from engine.game.state import decode_state
from engine.game.tables import game_data
from engine.menus.errors import MenusError
from engine.menus.screens import MenuPresser

LIST_MENU_BOX, ITEMLISTMENU = 0x0D, 0x03  # pret constants/menu_constants.asm, list_constants.asm
USE_TOSS_MENU_TEMPLATE = 0x06
USE, TOSS = 0, 1


# A on the BICYCLE uses it: no USE/TOSS box (pret engine/menus/start_sub_menus.asm StartMenu_Item).
USED_AT_ONCE = "BICYCLE"


def choose_to_use(menus: MenuPresser, item: str, entry: int = USE) -> None:
    """From the overworld to the item's USE (or TOSS) chosen; MenusError (the menus left open) when not."""
    session, ram = menus.session, menus.ram
    names = [entry.name for entry in decode_state(session.memory_image(), ram).bag]
    if item not in names:
        raise MenusError(f"the bag holds no {item}")
    if item == USED_AT_ONCE and entry != USE:
        raise MenusError(f"the {item} cannot be tossed")
    menus.open_start_menu()
    menus.choose(menus.start_entry("ITEM"), "the start menu's ITEM")
    menus.wait(lambda memory: in_bag(menus, memory), "the bag")
    menus.cursor_to(names.index(item), item, scrolled=True)
    session.press(Button.A)
    if item != USED_AT_ONCE:
        menus.wait(lambda memory: memory[ram.wTextBoxID] == USE_TOSS_MENU_TEMPLATE, "USE/TOSS")
    if session.read_u8(ram.wCurItem) != game_data().item_ids[item]:
        raise MenusError(f"the bag's cursor was not on {item}")
    if item != USED_AT_ONCE:
        menus.choose(entry, "USE" if entry == USE else "TOSS")


def in_bag(menus: MenuPresser, memory: LiveMemory) -> bool:
    ram = menus.ram
    return memory[ram.wTextBoxID] == LIST_MENU_BOX and memory[ram.wListMenuID] == ITEMLISTMENU
