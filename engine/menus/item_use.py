"""Using an item from the bag in the field, closed-loop (START, ITEM, the item, USE): items that need no
member chosen (the POKé FLUTE next to a sleeping SNORLAX, and the like), and items given to a member
(potions, status heals, revives, evolution stones), checked on the member afterwards.

pret/pokered engine/menus/start_sub_menus.asm StartMenu_Item: an item of UsableItems_PartyMenu opens the
party menu (engine/items/item_effects.asm ItemUseMedicine: USE_ITEM_PARTY_MENU, ItemUseEvoStone:
EVO_STONE_PARTY_MENU, whose evolution cannot be stopped), prints what it did and goes back to the bag.
"""

from __future__ import annotations

from engine.emulator.session import EmulatorSession, LiveMemory
from engine.game.items import BATTLE_ITEMS, ItemKind
from engine.game.models import PartyMon
from engine.game.state import decode_state
from engine.menus.bag import choose_to_use, in_bag
from engine.menus.errors import ItemUseError, MenusError
from engine.menus.screens import Driver, MenuPresser, Shown, TextSink

USE_ITEM_PARTY_MENU, EVO_STONE_PARTY_MENU = 0x01, 0x05  # pret constants/menu_constants.asm
STONES = frozenset({"MOON_STONE", "FIRE_STONE", "THUNDER_STONE", "WATER_STONE", "LEAF_STONE"})
# An evolution's cry, pause and animation run without a button read for longer than any menu: under 600
# frames (pret engine/movie/evolution.asm EvolveMon).
EVOLUTION_FRAMES = 900
GIVEN_KINDS = frozenset({ItemKind.HEAL_HP, ItemKind.CURE_STATUS, ItemKind.REVIVE})


def can_give(item: str) -> bool:
    """Whether `give` handles the item: a potion, status heal, revive or evolution stone."""
    found = BATTLE_ITEMS.get(item)
    return item in STONES or (found is not None and found.kind in GIVEN_KINDS)


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
            # A through the item's text (and a stone's evolution, which A cannot stop) back to the bag.
            menus.advance_to({"bag": lambda memory: in_bag(menus, memory)}, EVOLUTION_FRAMES)
        except MenusError as exc:
            menus.leave()
            raise ItemUseError(f"giving {item} to {before.species_name}: {exc}") from exc
        menus.leave()
        return _change(item, before, self._member(member))

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
    if after.hp != before.hp or after.status != before.status:
        return (
            f"{item} on {before.species_name}: {before.hp} to {after.hp} HP, "
            f"{before.status} to {after.status}"
        )
    raise ItemUseError(f"{item} changed nothing on {before.species_name}")
