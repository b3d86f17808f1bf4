"""Poké Mart arithmetic: what a purchase can be, how the quantity box is set, what the bag can hold.

Pure Gen 1 facts, from pret/pokered: engine/events/pokemart.asm (DisplayPokemartDialogue_: the money is
compared with the total before anything is added), home/list_menu.asm (DisplayChooseQuantityMenu: the box
starts at 1, UP adds one and wraps above the maximum to 1, DOWN takes one and wraps below 1 to the
maximum), engine/items/inventory.asm (AddItemToInventory_: 20 slots of at most 99 each).
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.frozen import Frozen
from engine.game.buttons import Button
from engine.game.models import BagItem

MAX_QUANTITY = 99  # DisplayPokemartDialogue_ sets wMaxItemQuantity to 99 before the quantity box
BAG_ITEM_CAPACITY = 20  # pret constants/menu_constants.asm
STACK_SIZE = 99
LIST_TERMINATOR = 0xFF


class PurchasePlan(Frozen):
    """How many of an item to ask the clerk for (0: none), and why it is fewer than wanted."""

    quantity: int
    note: str = ""


def plan_purchase(
    item: str, wanted: int, *, price: int | None, sold: bool, money: int, room: int
) -> PurchasePlan:
    """At most `wanted`, and no more than the money pays for or the bag holds."""
    if not sold:
        return PurchasePlan(quantity=0, note=f"{item}: not sold here")
    if not price:
        return PurchasePlan(quantity=0, note=f"{item}: no price known")
    quantity = min(wanted, affordable(price, money), room)
    if quantity == 0:
        why = f"¥{price} each, ¥{money} in hand" if room else "the bag is full"
        return PurchasePlan(quantity=0, note=f"{item}: none bought ({why})")
    if quantity < wanted:
        why = "the bag holds no more" if quantity == room else f"¥{money} pays for {quantity}"
        return PurchasePlan(quantity=quantity, note=f"{item}: {quantity} of {wanted} ({why})")
    return PurchasePlan(quantity=quantity)


def affordable(price: int, money: int) -> int:
    """How many at `price` the money pays for, at most what the quantity box offers."""
    return min(MAX_QUANTITY, money // price) if price > 0 else MAX_QUANTITY


def quantity_presses(wanted: int, start: int = 1, maximum: int = MAX_QUANTITY) -> tuple[Button, int]:
    """The button and how many presses take the quantity box from `start` to `wanted` the short way
    round (the box wraps at both ends)."""
    if not 1 <= wanted <= maximum:
        raise ValueError(f"a quantity between 1 and {maximum}, not {wanted}")
    up = (wanted - start) % maximum
    down = (start - wanted) % maximum
    return (Button.UP, up) if up <= down else (Button.DOWN, down)


def stock_ids(raw: bytes) -> tuple[int, ...]:
    """The item ids of a Mart's stock as wItemList holds it: a count, the ids, $ff."""
    if not raw:
        return ()
    ids = []
    for item_id in raw[1 : 1 + raw[0]]:
        if item_id == LIST_TERMINATOR:
            break
        ids.append(item_id)
    return tuple(ids)


def bag_count(bag: Iterable[BagItem], item_id: int) -> int:
    """How many of the item the bag holds, over all its stacks."""
    return sum(item.quantity for item in bag if item.item_id == item_id)


def bag_room(bag: Iterable[BagItem], item_id: int) -> int:
    """How many more of the item the bag takes: room left in its stacks, and whole stacks in free slots."""
    items = list(bag)
    spare = sum(STACK_SIZE - item.quantity for item in items if item.item_id == item_id)
    free_slots = max(0, BAG_ITEM_CAPACITY - len(items))
    return spare + free_slots * STACK_SIZE


def encode_bcd(value: int, length: int = 3) -> bytes:
    """`value` as the game's binary-coded decimal (two digits a byte, most significant first)."""
    if not 0 <= value < 10 ** (2 * length):
        raise ValueError(f"{value} does not fit {length} BCD bytes")
    digits = f"{value:0{2 * length}d}"
    return bytes(int(digits[i]) << 4 | int(digits[i + 1]) for i in range(0, 2 * length, 2))
