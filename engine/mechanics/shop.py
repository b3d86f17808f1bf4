"""Selling and buying at a Poké Mart, closed-loop: the clerk's menus (mechanics/mart_menus.py) driven press
by press, every sale and purchase checked in RAM.

SELL (pret/pokered engine/events/pokemart.asm DisplayPokemartDialogue_ .sellMenu): "What would you like to
sell?", the bag's list, the quantity box (at most the stack chosen, the total shown halved in hMoney), "I
can pay you ¥X for that." with YES/NO, the money added and the items taken from the bag, and the bag's
list again. BUY: the Mart's stock, the quantity box, "ITEM? That will be ¥N. OK?" with YES/NO, "Here you
are! Thank you!", and the stock again. The sales come first, so their money pays for the purchases of the
same visit. A sale is counted only when the bag holds that many fewer of the item and the money rose by
what the clerk offered (half their price); a purchase only when the bag holds that many more and the money
fell by their price. Anything unexpected ends the visit, and the menus are left with B until the player
can walk again.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.game.buttons import Button
from engine.game.decoders import decode_bcd
from engine.game.mart import bag_count, bag_room, plan_purchase, stock_ids
from engine.game.models import GameState
from engine.game.selling import plan_sale, sale_price
from engine.game.tables import game_data
from engine.mechanics.errors import MartError
from engine.mechanics.mart_menus import BUY, ITEM_LIST_BYTES, SELL, MartMenus, Screen
from engine.mechanics.walking import TextSink
from engine.world.goals import Purchase

BUY_QUANTITY = 99  # DisplayPokemartDialogue_ sets wMaxItemQuantity to 99 before BUY's quantity box
MONEY_BYTES = 3


@dataclass
class ShopResult:
    bought: list[Purchase] = field(default_factory=list)
    sold: list[Purchase] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # why a sale or purchase was skipped or cut short
    frames: int = 0


class Shopper(MartMenus):
    def shop(
        self, purchases: tuple[Purchase, ...], read: TextSink | None = None, sales: tuple[Purchase, ...] = ()
    ) -> ShopResult:
        """Sell `sales`, then buy `purchases`, in order, from the clerk just talked to; then leave."""
        started = self.session.frame
        self.read = read or (lambda lines: None)
        result = ShopResult()
        try:
            self._advance_to({Screen.MENU, Screen.LIST})  # the clerk's menu is open: the stock is loaded
            self._read_box()  # "Hi there! May I help you?" waits for no button
            stock = stock_ids(self.session.read(self.ram.wItemList, ITEM_LIST_BYTES))
            for sale in sales:
                self._sell(sale, result)
            for purchase in purchases:
                self._buy(purchase, stock, result)
        except MartError as exc:
            result.notes.append(f"stopped shopping: {exc}")
        self._leave()
        result.frames = self.session.frame - started
        return result

    # -- one sale ----------------------------------------------------------------------------------
    def _sell(self, sale: Purchase, result: ShopResult) -> None:
        item_id = game_data().item_ids[sale.item]
        before = self.driver.state()
        slot = next((at for at, entry in enumerate(before.bag) if entry.item_id == item_id), None)
        held = before.bag[slot].quantity if slot is not None else 0
        plan = plan_sale(sale.item, sale.quantity, held=held, money=before.progress.money)
        if plan.note:
            result.notes.append(plan.note)
        if plan.quantity == 0 or slot is None:
            return
        self._open_list(SELL)
        self._cursor_to(slot, Screen.SELL_LIST)
        if self._press(Button.A) is not Screen.QUANTITY or self._u8(self.ram.wCurItem) != item_id:
            raise MartError(f"choosing {sale.item} to sell did not open its quantity box")
        self._set_quantity(plan.quantity, maximum=held)
        offered = decode_bcd(self.session.read(self.ram.hMoney, MONEY_BYTES))
        if offered != sale_price(sale.item, plan.quantity):
            raise MartError(f"{plan.quantity} {sale.item} fetch ¥{offered} here, not half the price table's")
        self._confirm({Screen.SELL_LIST})
        self._check_sold(sale.item, item_id, plan.quantity, offered, before, result)

    def _check_sold(
        self, item: str, item_id: int, quantity: int, offered: int, before: GameState, result: ShopResult
    ) -> None:
        """Counted only if RAM shows it: that many fewer in the bag, what was offered more in hand."""
        after = self.driver.state()
        gone = bag_count(before.bag, item_id) - bag_count(after.bag, item_id)
        paid = after.progress.money - before.progress.money
        if gone == quantity and paid == offered:
            result.sold.append(Purchase(item=item, quantity=quantity))
        else:
            result.notes.append(f"{item}: the game did not buy {quantity} (bag -{gone}, money +{paid})")

    # -- one purchase ------------------------------------------------------------------------------
    def _buy(self, wanted: Purchase, stock: tuple[int, ...], result: ShopResult) -> None:
        data = game_data()
        purchase = wanted.stocked(stock)
        if purchase is not wanted:
            result.notes.append(f"{wanted.item} is not sold here: {purchase.item} instead")
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
        self._open_list(BUY)
        self._cursor_to(stock.index(item_id), Screen.LIST)
        if self._press(Button.A) is not Screen.QUANTITY or self._u8(self.ram.wCurItem) != item_id:
            raise MartError(f"choosing {purchase.item} did not open its quantity box")
        shown = decode_bcd(self.session.read(self.ram.hItemPrice, 3))
        if shown != price:
            raise MartError(f"{purchase.item} costs ¥{shown} here, not the ¥{price} of the price table")
        self._set_quantity(plan.quantity, maximum=BUY_QUANTITY)
        self._confirm({Screen.LIST, Screen.MENU})  # the menu after "not enough money"
        self._check_bought(purchase.item, item_id, plan.quantity, price, before, result)

    def _check_bought(
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
