"""Using an item from the bag in the field, closed-loop (START, ITEM, the item, USE): items that need no
member chosen (the POKé FLUTE next to a sleeping SNORLAX, and the like), and items given to a member
(potions, status heals, revives, evolution stones, RARE CANDY), checked on the member afterwards. A move
the RARE CANDY's level offers to a member with four moves is learned or let go by the teaching rule
(engine/game/teaching.py level_up_room; pret engine/pokemon/learn_move.asm, the move in wMoveNum).

pret/pokered engine/menus/start_sub_menus.asm StartMenu_Item: an item of UsableItems_PartyMenu opens the
party menu (engine/items/item_effects.asm ItemUseMedicine: USE_ITEM_PARTY_MENU, ItemUseEvoStone:
EVO_STONE_PARTY_MENU, whose evolution cannot be stopped), prints what it did and goes back to the bag.
"""

from __future__ import annotations

from engine.emulator.session import EmulatorSession, LiveMemory
from engine.game.buttons import Button
from engine.game.items import BATTLE_ITEMS, ItemKind
from engine.game.models import PartyMon
from engine.game.state import decode_state
from engine.game.tables import game_data
from engine.game.teaching import level_up_room
from engine.menus.bag import TOSS, choose_to_use, in_bag
from engine.menus.errors import ItemUseError, MenusError
from engine.menus.quantity import quantity_box, set_quantity
from engine.menus.screens import Driver, MenuPresser, Shown, TextSink, message_box_lines
from engine.menus.teach import FORGET_MENU_X, FORGET_MENU_Y, TWO_OPTION_MENU, YES

USE_ITEM_PARTY_MENU, EVO_STONE_PARTY_MENU = 0x01, 0x05  # pret constants/menu_constants.asm
STONES = frozenset({"MOON_STONE", "FIRE_STONE", "THUNDER_STONE", "WATER_STONE", "LEAF_STONE"})
# An evolution's cry, pause and animation run without a button read for longer than any menu: under 600
# frames (pret engine/movie/evolution.asm EvolveMon).
EVOLUTION_FRAMES = 900
GIVEN_KINDS = frozenset({ItemKind.HEAL_HP, ItemKind.CURE_STATUS, ItemKind.REVIVE})


MAX_PROMPTS = 6  # a level-up's learning asks at most three questions; an evolution may follow
NO = 1


def can_give(item: str) -> bool:
    """Whether `give` handles the item: a potion, status heal, revive, ELIXER (every move: no move menu),
    evolution stone or RARE CANDY."""
    found = BATTLE_ITEMS.get(item)
    if found is not None and found.every_move:
        return True
    return item in STONES or item == "RARE_CANDY" or (found is not None and found.kind in GIVEN_KINDS)


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

    def give(self, item: str, member: int, read: TextSink | None = None) -> str:
        """Give `item` to party member `member` (0 first); what it did, in words. ItemUseError (the menus
        closed) when the item is not one `can_give` names, a screen was not where expected, or the member
        is unchanged after (the game's "It won't have any effect.")."""
        if not can_give(item):
            raise ItemUseError(f"{item} is not an item given to a member")
        before = self._member(member)
        menus = MenuPresser(self.session, self.driver, read)
        try:
            choose_to_use(menus, item)
            menus.wait(self._party_menu(menus), "the party menu")
            menus.choose(member, f"party member {member + 1}")
            self._back_to_the_bag(menus, member)
        except MenusError as exc:
            menus.leave()
            raise ItemUseError(f"giving {item} to {before.species_name}: {exc}") from exc
        menus.leave()
        return _change(item, before, self._member(member))

    def toss(self, item: str, quantity: int, read: TextSink | None = None) -> None:
        """Throw `quantity` of `item` away: TOSS, the quantity box, YES to "Is it OK to toss ...?".
        ItemUseError (the menus closed, nothing thrown) for more than the bag holds, a key item or an HM
        ("That's too important to toss!"), or a screen not where expected; checked on the bag after."""
        held = self._held(item)
        if not 1 <= quantity <= held:
            raise ItemUseError(f"cannot toss {quantity} {item}: the bag holds {held}")
        menus = MenuPresser(self.session, self.driver, read)
        try:
            choose_to_use(menus, item, TOSS)
            bag: Shown = lambda memory: in_bag(menus, memory)  # noqa: E731
            # A key item or an HM skips the quantity box: "That's too important to toss!", then the bag.
            if menus.advance_to({"quantity": quantity_box(menus), "bag": bag}) != "quantity":
                raise MenusError("the game will not toss it (a key item or an HM)")
            set_quantity(menus, quantity, held)
            self.session.press(Button.A)
            if menus.advance_to({"yes_no": self._yes_no, "bag": bag}) != "yes_no":
                raise MenusError("no question whether to toss it")
            menus.choose(YES, "YES")
            menus.advance_to({"bag": bag})
        except MenusError as exc:
            menus.leave()
            raise ItemUseError(f"tossing {quantity} {item}: {exc}") from exc
        menus.leave()
        if self._held(item) != held - quantity:
            raise ItemUseError(f"the bag holds {self._held(item)} {item} after tossing {quantity} of {held}")

    def _held(self, item: str) -> int:
        bag = decode_state(self.session.memory_image(), self.session.ram_map).bag
        return sum(entry.quantity for entry in bag if entry.name == item)

    def _yes_no(self, memory: LiveMemory) -> bool:
        return bool(memory[self.session.ram_map.wTextBoxID] == TWO_OPTION_MENU)

    def _back_to_the_bag(self, menus: MenuPresser, member: int) -> None:
        """A through the item's text and any evolution (A never stops one) back to the bag, answering a
        level-up's offer of a move by the teaching rule on the way."""
        ram = self.session.ram_map
        screens = {
            "bag": lambda memory: in_bag(menus, memory),
            "yes_no": lambda memory: memory[ram.wTextBoxID] == TWO_OPTION_MENU,
            "forget": lambda memory: (
                (memory[ram.wTopMenuItemX], memory[ram.wTopMenuItemY]) == (FORGET_MENU_X, FORGET_MENU_Y)
            ),
        }
        for _ in range(MAX_PROMPTS):
            found = menus.advance_to(screens, EVOLUTION_FRAMES)
            if found == "bag":
                return
            offered = game_data().moves_by_id.get(self.session.read_u8(ram.wMoveNum))
            slot = level_up_room(self._member(member), offered.name) if offered is not None else None
            if found == "forget" and slot is not None:
                menus.choose(slot, f"move slot {slot + 1}")
            elif found == "yes_no":
                abandoning = any("Abandon" in line for line in message_box_lines(self.session))
                # "Delete an older move?" YES when one goes; "Abandon learning?" YES when none does.
                menus.choose(YES if abandoning == (slot is None) else NO, "the learning question")
            else:
                raise MenusError("the forget list came up with no move to forget")
        raise MenusError(f"not back in the bag after {MAX_PROMPTS} questions")

    def _member(self, member: int) -> PartyMon:
        party = decode_state(self.session.memory_image(), self.session.ram_map).party
        if not 0 <= member < len(party):
            raise ItemUseError(f"no party member {member + 1} (the party has {len(party)})")
        return party[member]

    @staticmethod
    def _party_menu(menus: MenuPresser) -> Shown:
        def shown(memory: LiveMemory) -> bool:
            return menus.party_menu(USE_ITEM_PARTY_MENU, memory) or menus.party_menu(
                EVO_STONE_PARTY_MENU, memory
            )

        return shown


def _change(item: str, before: PartyMon, after: PartyMon) -> str:
    if after.species_name != before.species_name:
        return f"{item}: {before.species_name} evolved into {after.species_name}"
    if after.level != before.level:
        moves = ", ".join(slot.name or "-" for slot in after.moves)
        return f"{item}: {before.species_name} to level {after.level} ({moves})"
    if after.hp != before.hp or after.status != before.status:
        return (
            f"{item} on {before.species_name}: {before.hp} to {after.hp} HP, "
            f"{before.status} to {after.status}"
        )
    pp_before, pp_after = [slot.pp for slot in before.moves], [slot.pp for slot in after.moves]
    if pp_after != pp_before:
        return f"{item} on {before.species_name}: PP {pp_before} to {pp_after}"
    raise ItemUseError(f"{item} changed nothing on {before.species_name}")
