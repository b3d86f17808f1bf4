"""The menu work a leg ends in, where it arrived: a TM or HM taught, an item used, given or tossed, FLY to
a town, Bill's PC, a Mart's counter, a vending machine. Each is the menus' closed loop (engine.menus,
mechanics/shop.py) with its error turned into the leg's stop; the walk (mechanics/travel.py) dispatches to
them."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Protocol

from engine.emulator.session import EmulatorSession
from engine.game.field_moves import member_with
from engine.game.models import GameState
from engine.game.teaching import Lesson
from engine.mechanics.leg_progress import LegProgress, Stop, keep_new
from engine.mechanics.shop import Shopper
from engine.mechanics.walking import OverworldDriver
from engine.menus.errors import FlyError, ItemUseError, PartyOrderError, PcError, TeachError, VendingError
from engine.menus.fly import FlyUser
from engine.menus.item_use import ItemUser
from engine.menus.party import PartyOrder
from engine.menus.pc import PcUser
from engine.menus.teach import Teacher
from engine.menus.vending import VendingMachine
from engine.world.goals import Give, PcOrder, Purchase, Teach
from engine.world.models import Square
from engine.world.tables import FLY_TILESETS
from engine.world.world import World


class MenuWalker(Protocol):
    """What the menu steps need of the walk that uses them."""

    session: EmulatorSession
    world: World
    driver: OverworldDriver

    def state(self) -> GameState: ...
    def position(self) -> Square: ...
    def _tap_a(self) -> None: ...
    def _on_a_loaded_map(self) -> bool: ...


class MenuSteps:
    def _teach(self: MenuWalker, teach: Teach, progress: LegProgress) -> None:
        """The bag's menus: the TM or HM taught as the leg says, RAM checked that the member knows it."""
        lesson = Lesson(member=teach.member, forget=teach.forget, reason=teach.reason)
        try:
            done = Teacher(self.session, self.driver).teach(
                teach.item, lesson, read=partial(keep_new, progress.text)
            )
        except TeachError as exc:
            raise Stop("blocked", str(exc)) from exc
        progress.taught.append(done)

    def _use(self: MenuWalker, item: str, progress: LegProgress) -> None:
        """An item from the bag, where the leg arrived; a battle it starts (SNORLAX woken) ends the leg."""
        try:
            ItemUser(self.session, self.driver).use(item, read=partial(keep_new, progress.text))
        except ItemUseError as exc:
            raise Stop("blocked", str(exc)) from exc
        progress.used.append(item)
        if self.driver.in_battle():
            raise Stop("battle", f"{item} led to a battle")
        if item == "BICYCLE" and self.state().overworld.mode != "bike":
            raise Stop("blocked", "the BICYCLE was used but the player is not on it")

    def _fly(self: MenuWalker, town: str, progress: LegProgress) -> None:
        """FLY from the party menu to `town`; the leg's report stands where the flight landed."""
        member = member_with(self.state(), "FLY")
        data = self.world.by_name.get(town)
        if member is None or data is None:
            raise Stop("blocked", f"no FLY to {town}: no member knows FLY" if data else f"no town {town}")
        if self.world.maps[self.position()[0]].tileset not in FLY_TILESETS:
            raise Stop("blocked", "FLY is used only outdoors")
        try:
            FlyUser(self.session, self.driver).fly(
                member, town, data.id, read=partial(keep_new, progress.text)
            )
        except FlyError as exc:
            raise Stop("blocked", f"FLY failed: {exc}") from exc
        progress.field_moves.append(f"FLY to {town}")
        self._on_a_loaded_map()

    def _at_pc(self: MenuWalker, order: PcOrder, progress: LegProgress) -> None:
        """A at the PC, then its menus: a box change, a deposit, a withdrawal, an item stored, an item taken,
        in that order, A at the PC again before each, each checked in RAM (the current box, party and box
        counts, the bag and the PC's items)."""
        pc, read = PcUser(self.session, self.driver), partial(keep_new, progress.text)
        if order.change_box is None:  # after a change the counts are the new box's: asked then
            refused = pc.refusal(order.deposit, order.withdraw if order.deposit is None else None)
            if refused is not None:
                raise Stop("blocked", refused)
        for item, depositing in ((order.store, True), (order.take, False)):
            refused = pc.item_refusal(*item, depositing=depositing) if item is not None else None
            if refused is not None:
                raise Stop("blocked", refused)
        orders: list[Callable[..., str]] = []
        if order.change_box is not None:
            orders.append(partial(pc.change_box, order.change_box))
        if order.deposit is not None:
            orders.append(partial(pc.deposit, order.deposit))
        if order.withdraw is not None:
            orders.append(partial(pc.withdraw, order.withdraw))
        if order.store is not None:
            orders.append(partial(pc.deposit_item, *order.store))
        if order.take is not None:
            orders.append(partial(pc.withdraw_item, *order.take))
        try:
            for done in orders:
                self._tap_a()  # the PC's text and main menu
                progress.used.append(done(read=read))
        except PcError as exc:
            raise Stop("blocked", str(exc)) from exc

    def _give(self: MenuWalker, give: Give, progress: LegProgress) -> None:
        """An item used on a party member (a stone: the evolution plays), RAM checked that it changed."""
        try:
            done = ItemUser(self.session, self.driver).give(
                give.item, give.member, read=partial(keep_new, progress.text)
            )
        except ItemUseError as exc:
            raise Stop("blocked", str(exc)) from exc
        progress.used.append(done)

    def _reorder(self: MenuWalker, first: int, second: int, progress: LegProgress) -> None:
        """Two party members swapped through the party menu's SWITCH, RAM checked for the new order."""
        try:
            PartyOrder(self.session, self.driver).swap(first, second, read=partial(keep_new, progress.text))
        except PartyOrderError as exc:
            raise Stop("blocked", str(exc)) from exc
        progress.used.append(f"members {first + 1} and {second + 1} swapped")

    def _toss(self: MenuWalker, item: str, quantity: int, progress: LegProgress) -> None:
        try:
            ItemUser(self.session, self.driver).toss(item, quantity, read=partial(keep_new, progress.text))
        except ItemUseError as exc:
            raise Stop("blocked", str(exc)) from exc
        progress.used.append(f"tossed {quantity} {item}")

    def _shop(
        self: MenuWalker,
        purchases: tuple[Purchase, ...],
        progress: LegProgress,
        sales: tuple[Purchase, ...] = (),
    ) -> None:
        """The clerk's menus instead of plain text: sell, then buy, check each in RAM, leave the menus."""
        result = Shopper(self.session, self.driver).shop(
            purchases, read=lambda lines: keep_new(progress.text, lines), sales=sales)  # fmt: skip
        progress.sold.extend(result.sold)
        progress.bought.extend(result.bought)
        progress.notes.extend(result.notes)

    def _vend(self: MenuWalker, purchases: tuple[Purchase, ...], progress: LegProgress) -> None:
        """A vending machine's menu, once per drink (A at the machine again for each after the first)."""
        machine, read = VendingMachine(self.session, self.driver), partial(keep_new, progress.text)
        for number, drink in enumerate(p.item for p in purchases for _ in range(p.quantity)):
            if number:
                self._tap_a()
            try:
                progress.notes.append(machine.buy(drink, read=read))
            except VendingError as exc:
                raise Stop("blocked", str(exc)) from exc
            progress.bought.append(Purchase(item=drink, quantity=1))
