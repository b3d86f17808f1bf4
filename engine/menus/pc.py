"""Bill's PC in a Pokémon Center, closed-loop: a member deposited, a boxed Pokémon withdrawn, the box changed.

A at the PC prints "<PLAYER> turned on the PC." and opens its main menu (pret engine/pokemon/bills_pc.asm
DisplayPCMainMenu: wTopMenuItemX 1, Y 2; SOMEONE's PC, or BILL's PC once the player has met Bill, first).
BILL's PC's own menu has the same corner (BillsPCMenu: WITHDRAW PKMN, DEPOSIT PKMN, RELEASE PKMN, CHANGE
BOX, SEE YA!), so the two are told apart by the text of their first entry. The Pokémon come as a list menu
(DisplayMonListMenu), then DEPOSIT or WITHDRAW / STATS / CANCEL at wTopMenuItemX 10, Y 12
(DisplayDepositWithdrawMenu). CHANGE BOX asks to save first (YES), lists the twelve boxes at wTopMenuItemX
12, Y 1, and saves the game (engine/menus/save.asm ChangeBox). wPartyCount, wBoxCount and wCurrentBoxNum
are checked after; anything unexpected closes the menus with B and raises PcError.

Items are stored from the same main menu's second entry, the player's own PC (pret engine/menus/
players_pc.asm PlayerPCMenu: WITHDRAW ITEM, DEPOSIT ITEM, TOSS ITEM, LOG OFF at the same corner): the bag or
the PC's items as a list menu, then "How many?" for an item that is no key item, then the list again; the
bag and the PC's items (wNumBoxItems) are checked after.
"""

from __future__ import annotations

from engine.emulator.session import EmulatorSession, LiveMemory
from engine.game.bag_room import BAG_CAPACITY, KEY_ITEMS
from engine.game.buttons import Button
from engine.game.models import BagItem
from engine.game.screen import row_text
from engine.game.state import decode_state
from engine.menus.bag import LIST_MENU_BOX, in_bag
from engine.menus.errors import MenusError, PcError
from engine.menus.quantity import quantity_box, set_quantity
from engine.menus.screens import SCREEN_COLUMNS, Driver, MenuPresser, Shown, TextSink
from engine.menus.teach import TWO_OPTION_MENU, YES

PC_MENU_X, PC_MENU_Y = 1, 2
FIRST_ENTRY_X = 2  # the entries' text starts a column right of the cursor
CHOICE_X, CHOICE_Y = 10, 12  # DEPOSIT or WITHDRAW / STATS / CANCEL
WITHDRAW, DEPOSIT, CHANGE_BOX = 0, 1, 3  # BillsPCMenu's entries
PLAYERS_PC = 1  # DisplayPCMainMenu's second entry
WITHDRAW_ITEM, DEPOSIT_ITEM = 0, 1  # PlayersPCMenuEntries
PC_ITEM_CAPACITY = 50  # pret constants/item_constants.asm
MONS_PER_BOX, PARTY_LENGTH, BOXES = 20, 6, 12  # pret constants/pokemon_data_constants.asm
BOX_MENU_X, BOX_MENU_Y = 12, 1  # engine/menus/save.asm DisplayChangeBoxMenu
BOX_NUMBER = 0x7F  # wCurrentBoxNum: the box, and BIT_HAS_CHANGED_BOXES above it
SAVE_FRAMES = 900  # SaveGameData writes the cartridge's save, then the save sound plays


class PcUser:
    def __init__(self, session: EmulatorSession, driver: Driver) -> None:
        self.session = session
        self.driver = driver
        self.ram = session.ram_map

    def counts(self) -> tuple[int, int]:
        """The party's size and the current box's."""
        return self.session.read_u8(self.ram.wPartyCount), self.session.read_u8(self.ram.wBoxCount)

    def refusal(self, deposit: int | None = None, withdraw: int | None = None) -> str | None:
        """Why the PC would turn the deposit or withdrawal down (asked before the PC is turned on, so that
        nothing is left open), or None."""
        party, box = self.counts()
        if deposit is not None:
            if not 0 <= deposit < party:
                return f"the party has no member {deposit + 1} (it has {party})"
            if party == 1:
                return "the last member of the party cannot be deposited"
            if box >= MONS_PER_BOX:
                return f"the box is full ({box} of {MONS_PER_BOX}): nothing more can be deposited"
        if withdraw is not None:
            if not 0 <= withdraw < box:
                return f"the box has no Pokémon {withdraw + 1} (it holds {box})"
            if party >= PARTY_LENGTH:
                return "the party is full: deposit a member first"
        return None

    def deposit(self, member: int, read: TextSink | None = None) -> str:
        """With the PC's text just opened by A: party member `member` (0-based) put in the box."""
        _, box = self._moved(DEPOSIT, member, read)
        return f"deposited member {member + 1} in the box ({box} of {MONS_PER_BOX})"

    def withdraw(self, slot: int, read: TextSink | None = None) -> str:
        """With the PC's text just opened by A: the box's Pokémon `slot` (0-based) taken into the party."""
        party, _ = self._moved(WITHDRAW, slot, read)
        return f"withdrew the box's Pokémon {slot + 1} into the party ({party} members)"

    def _moved(self, entry: int, slot: int, read: TextSink | None) -> tuple[int, int]:
        """One Pokémon moved between the party and the box through the menus; the counts after, checked:
        one fewer on the side it left, one more on the other."""
        depositing = entry == DEPOSIT
        refused = self.refusal(deposit=slot) if depositing else self.refusal(withdraw=slot)
        if refused is not None:
            raise PcError(refused)
        party, box = self.counts()
        self._through_menus(entry, slot, read)
        step = -1 if depositing else 1
        if self.counts() != (party + step, box - step):
            what = f"member {slot + 1}" if depositing else f"the box's Pokémon {slot + 1}"
            raise PcError(
                f"{what} was not {'deposited' if depositing else 'withdrawn'} (party {self.counts()[0]})"
            )
        return party + step, box - step

    def change_box(self, box: int, read: TextSink | None = None) -> str:
        """With the PC's text just opened by A: box `box` (0-based) made the current one, the game saved
        (as the game insists). Raises PcError, the menus closed, when it did not change."""
        if not 0 <= box < BOXES:
            raise PcError(f"there is no box {box + 1} (there are {BOXES})")
        menus = MenuPresser(self.session, self.driver, read)
        try:
            menus.advance_to({"PC": self._entry_reads("BILL", "SOMEONE")})
            menus.choose(0, "BILL's PC")
            menus.advance_to({"BILL's PC": self._entry_reads("WITHDRAW")})
            menus.choose(CHANGE_BOX, "CHANGE BOX")
            menus.advance_to({"YES/NO": lambda memory: memory[self.ram.wTextBoxID] == TWO_OPTION_MENU})
            menus.choose(YES, "YES (save)")
            menus.wait(self._box_menu, "the boxes")
            menus.choose(box, f"box {box + 1}")
            menus.advance_to({"BILL's PC": self._entry_reads("WITHDRAW")}, busy_frames=SAVE_FRAMES)
        except MenusError as exc:
            menus.leave()
            raise PcError(f"Bill's PC: {exc}") from exc
        menus.leave()
        now = self.session.read_u8(self.ram.wCurrentBoxNum) & BOX_NUMBER
        if now != box:
            raise PcError(f"the current box is {now + 1}, not {box + 1}")
        return f"changed to box {box + 1} ({self.counts()[1]} Pokémon in it); the game was saved"

    def deposit_item(self, item: str, quantity: int, read: TextSink | None = None) -> str:
        """With the PC's text just opened by A: `quantity` of the bag's `item` stored in the PC."""
        self._items_moved(DEPOSIT_ITEM, item, quantity, read)
        return f"stored {quantity} {item} in the PC"

    def withdraw_item(self, item: str, quantity: int, read: TextSink | None = None) -> str:
        """With the PC's text just opened by A: `quantity` of the PC's `item` taken into the bag."""
        self._items_moved(WITHDRAW_ITEM, item, quantity, read)
        return f"took {quantity} {item} from the PC"

    def _items(self) -> tuple[tuple[BagItem, ...], tuple[BagItem, ...]]:
        state = decode_state(self.session.memory_image(), self.ram)
        return state.bag, state.pc_items

    def item_refusal(self, item: str, quantity: int, depositing: bool) -> str | None:
        """Why storing (or taking out) `quantity` of `item` cannot be done (asked before the PC is turned
        on, so that nothing is left open), or None."""
        bag, stored = self._items()
        source, target = (bag, stored) if depositing else (stored, bag)
        held = _count(source, item)
        if not 1 <= quantity <= held:
            return f"cannot move {quantity} {item}: {'the bag' if depositing else 'the PC'} holds {held}"
        room, where = (PC_ITEM_CAPACITY, "the PC") if depositing else (BAG_CAPACITY, "the bag")
        if _count(target, item) == 0 and len(target) >= room:
            return f"{where} holds {room} kinds of item already: no room for {item}"
        return None

    def _items_moved(self, entry: int, item: str, quantity: int, read: TextSink | None) -> None:
        depositing = entry == DEPOSIT_ITEM
        refused = self.item_refusal(item, quantity, depositing)
        if refused is not None:
            raise PcError(refused)
        bag, stored = self._items()
        names = [found.name for found in (bag if depositing else stored)]
        held = _count(bag if depositing else stored, item)
        self._through_item_menus(entry, names.index(item), item, quantity, held, read)
        after_bag, after_stored = self._items()
        step = -quantity if depositing else quantity
        if _count(after_bag, item) != _count(bag, item) + step or (
            _count(after_stored, item) != _count(stored, item) - step
        ):
            moved = "stored" if depositing else "taken out"
            raise PcError(f"{quantity} {item} were not {moved} (the bag holds {_count(after_bag, item)})")
        if _others(after_bag, item) != _others(bag, item):
            raise PcError(f"more than the {item} moved: the bag holds {len(after_bag)} kinds of item now")

    def _through_item_menus(
        self, entry: int, index: int, item: str, quantity: int, held: int, read: TextSink | None
    ) -> None:
        menus = MenuPresser(self.session, self.driver, read)
        items: Shown = lambda memory: in_bag(menus, memory)  # noqa: E731
        try:
            menus.advance_to({"PC": self._entry_reads("BILL", "SOMEONE")})
            menus.choose(PLAYERS_PC, "the player's PC")
            menus.advance_to({"the player's PC": self._entry_reads("WITHDRAW ITEM")})
            menus.choose(entry, "DEPOSIT ITEM" if entry == DEPOSIT_ITEM else "WITHDRAW ITEM")
            menus.advance_to({"the items": items})
            menus.cursor_to(index, item, scrolled=True)
            self.session.press(Button.A)
            if item not in KEY_ITEMS:  # a key item goes without "How many?"
                menus.advance_to({"quantity": quantity_box(menus)})
                set_quantity(menus, quantity, held)
                self.session.press(Button.A)
            menus.advance_to({"the items": items})
            # B back out, screen by screen: the list waits under "What do you want to deposit?", text that a
            # plain leave() would answer with A, choosing the first item again.
            self.session.press(Button.B)
            menus.advance_to({"the player's PC": self._entry_reads("WITHDRAW ITEM")})
            self.session.press(Button.B)
            menus.advance_to({"PC": self._entry_reads("BILL", "SOMEONE")})
        except MenusError as exc:
            menus.leave()
            raise PcError(f"the player's PC: {exc}") from exc
        menus.leave()

    def _box_menu(self, memory: LiveMemory) -> bool:
        ram = self.ram
        return (memory[ram.wTopMenuItemX], memory[ram.wTopMenuItemY]) == (BOX_MENU_X, BOX_MENU_Y)

    def _through_menus(self, entry: int, slot: int, read: TextSink | None) -> None:
        menus = MenuPresser(self.session, self.driver, read)
        try:
            menus.advance_to({"PC": self._entry_reads("BILL", "SOMEONE")})
            menus.choose(0, "BILL's PC")
            menus.advance_to({"BILL's PC": self._entry_reads("WITHDRAW")})
            menus.choose(entry, "DEPOSIT" if entry == DEPOSIT else "WITHDRAW")
            menus.advance_to({"the Pokémon": self._mon_list})
            menus.cursor_to(slot, f"Pokémon {slot + 1}", scrolled=True)
            self.session.press(Button.A)
            menus.advance_to({"the choice": self._choice})
            menus.choose(0, "DEPOSIT" if entry == DEPOSIT else "WITHDRAW")
            menus.advance_to({"BILL's PC": self._entry_reads("WITHDRAW")})
        except MenusError as exc:
            menus.leave()
            raise PcError(f"Bill's PC: {exc}") from exc
        menus.leave()

    def _entry_reads(self, *starts: str) -> Shown:
        ram = self.ram

        def shown(memory: LiveMemory) -> bool:
            if (memory[ram.wTopMenuItemX], memory[ram.wTopMenuItemY]) != (PC_MENU_X, PC_MENU_Y):
                return False
            at = ram.wTileMap + PC_MENU_Y * SCREEN_COLUMNS + FIRST_ENTRY_X
            text = row_text(tuple(memory[at + i] for i in range(SCREEN_COLUMNS - FIRST_ENTRY_X)))
            return text.startswith(starts)

        return shown

    def _mon_list(self, memory: LiveMemory) -> bool:
        return memory[self.ram.wTextBoxID] == LIST_MENU_BOX and memory[self.ram.wListMenuID] == 0

    def _choice(self, memory: LiveMemory) -> bool:
        ram = self.ram
        return (memory[ram.wTopMenuItemX], memory[ram.wTopMenuItemY]) == (CHOICE_X, CHOICE_Y)


def _count(items: tuple[BagItem, ...], item: str) -> int:
    return sum(found.quantity for found in items if found.name == item)


def _others(items: tuple[BagItem, ...], item: str) -> dict[str | None, int]:
    return {found.name: found.quantity for found in items if found.name != item}
