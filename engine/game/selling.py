"""What to sell at a Poké Mart, and what a sale can be: money for the Elite Four's stock from items the
engine never uses.

Facts from pret/pokered engine/events/pokemart.asm (DisplayPokemartDialogue_, the SELL path): the clerk
pays half the price of the items sold (hHalveItemPrices is set before home/list_menu.asm
DisplayChooseQuantityMenu, which halves the total, "I can pay you ¥X for that."); the quantity box offers
at most the stack chosen (DisplayListMenuID puts its quantity in wMaxItemQuantity); a key item or an HM is
refused ("I can't put a price on that.", engine/items/item_effects.asm IsKeyItem_ over
data/items/key_items.asm, where the fossils are key items too); the money is added with home/inventory.asm
AddAmountSoldToMoney, and engine/math/bcd.asm AddBCD stops at 999,999, so yen beyond it would be lost.

What is sold: a valuable (game/bag_room.py VALUABLES: the NUGGET, which nothing in the game uses), then a
TM that no member of the party or of the current box can learn (the team planner only weighs a TM for
them, engine/team/machines.py). Never anything battles, the field, the team planner or the story use: key
items, HMs, balls, healing items, X items, PP items, stones, vitamins, RARE_CANDY, REPELs.
"""

from __future__ import annotations

from engine.frozen import Frozen
from engine.game.bag_room import BAG_CAPACITY, IN_USE, KEY_ITEMS, VALUABLES
from engine.game.items import BATTLE_ITEMS
from engine.game.mart import MAX_QUANTITY
from engine.game.models import GameState
from engine.game.tables import game_data
from engine.game.teaching import can_learn

MAX_MONEY = 999_999  # wPlayerMoney: three BCD bytes
# Never sold, whatever else the rule says: what the engine uses (X_ACCURACY is an X item that the battle
# items do not model).
NEVER_SOLD = KEY_ITEMS | IN_USE | frozenset(BATTLE_ITEMS) | {"X_ACCURACY"}


class Sale(Frozen):
    """`quantity` of `item` from one stack of the bag, and what the clerk pays for them all."""

    item: str
    quantity: int
    price: int


class SalePlan(Frozen):
    """How many of an item to offer the clerk (0: none), and why it is fewer than wanted."""

    quantity: int
    note: str = ""


def sale_price(item: str, quantity: int) -> int:
    """What a Mart pays for `quantity` of `item`: half their price together."""
    return game_data().item_prices.get(item, 0) * quantity // 2


def never_sold(item: str) -> bool:
    return item in NEVER_SOLD or item.startswith("HM_")


def to_sell(state: GameState) -> tuple[Sale, ...]:
    """What to sell from the bag, in order: the valuables first, then the TMs no one can learn, the dearest
    first; each a whole stack (as much as the money still takes)."""
    candidates = [
        entry for entry in state.bag
        if entry.name and entry.quantity and _worth_selling(state, entry.name)
    ]  # fmt: skip
    candidates.sort(key=lambda entry: (entry.name not in VALUABLES, -sale_price(entry.name or "", 1)))
    sales: list[Sale] = []
    money = state.progress.money
    for entry in candidates:
        item = entry.name or ""
        if any(sale.item == item for sale in sales):
            continue  # one stack of an item a visit: the next stack is sold at the next
        plan = plan_sale(item, entry.quantity, held=entry.quantity, money=money)
        if plan.quantity:
            price = sale_price(item, plan.quantity)
            sales.append(Sale(item=item, quantity=plan.quantity, price=price))
            money += price
    return tuple(sales)


def plan_sale(item: str, wanted: int, *, held: int, money: int) -> SalePlan:
    """At most `wanted` of `item` from a stack of `held`, and no more than the money can still take."""
    if item in KEY_ITEMS or item.startswith("HM_"):
        return SalePlan(quantity=0, note=f"{item}: a Mart will not buy it")
    unit = sale_price(item, 1)
    if not unit:
        return SalePlan(quantity=0, note=f"{item}: worth nothing to a Mart")
    if not held:
        return SalePlan(quantity=0, note=f"{item}: none in the bag")
    room = (MAX_MONEY - money) // unit
    quantity = min(wanted, held, MAX_QUANTITY, room)
    if quantity == 0:
        return SalePlan(quantity=0, note=f"{item}: none sold (¥{money} in hand, the most is ¥{MAX_MONEY})")
    if quantity < wanted:
        why = f"the bag holds {held}" if quantity == held else f"¥{money} in hand takes {quantity}"
        return SalePlan(quantity=quantity, note=f"{item}: {quantity} of {wanted} ({why})")
    return SalePlan(quantity=quantity)


def to_take(state: GameState, free_kept: int) -> tuple[str, int] | None:
    """A valuable stored in the PC (the whole stack) to take back into the bag, to be sold; None when there
    is none, or when its kind would leave fewer than `free_kept` kinds of room in the bag."""
    for entry in state.pc_items:
        if entry.name not in VALUABLES or not entry.quantity:
            continue
        stacked = any(held.name == entry.name and held.quantity + entry.quantity <= MAX_QUANTITY
                      for held in state.bag)  # fmt: skip
        if stacked or len(state.bag) + 1 + free_kept <= BAG_CAPACITY:
            return entry.name, entry.quantity
    return None


def _worth_selling(state: GameState, item: str) -> bool:
    if never_sold(item) or not sale_price(item, 1):
        return False
    if item in VALUABLES:
        return True
    members = (*state.party, *state.box)
    return item.startswith("TM_") and not any(can_learn(mon.species_name, item) for mon in members)
