"""The party menu from the start menu, closed-loop: START, POKéMON, a member, its submenu; and putting two
members in each other's places with SWITCH.

pret/pokered engine/menus/start_sub_menus.asm StartMenu_Pokemon: the member's submenu (text box
FIELD_MOVE_MON_MENU) lists its field moves, then STATS, SWITCH and CANCEL, the last at wMaxMenuItem;
SWITCH opens the party menu again as SWAP_MONS_PARTY_MENU, and choosing the second member swaps the two
(engine/menus/party_menu.asm SwitchPartyMon) and shows the party menu as before.
"""

from __future__ import annotations

from engine.emulator.session import EmulatorSession
from engine.game.state import decode_state
from engine.menus.errors import MenusError, PartyOrderError
from engine.menus.screens import Driver, MenuPresser, TextSink

NORMAL_PARTY_MENU, SWAP_MONS_PARTY_MENU = 0x00, 0x04  # pret constants/menu_constants.asm
FIELD_MOVE_MON_MENU = 0x04
SWITCH_FROM_THE_END = 1  # SWITCH sits just above CANCEL, the submenu's last entry


def open_member_submenu(menus: MenuPresser, member: int) -> None:
    """From the overworld to party member `member`'s submenu (0 first); MenusError when not."""
    menus.open_start_menu()
    menus.choose(menus.start_entry("MON"), "the start menu's POKéMON")
    menus.wait(lambda memory: menus.party_menu(NORMAL_PARTY_MENU, memory), "the party menu")
    menus.choose(member, f"party member {member + 1}")
    menus.wait(lambda memory: memory[menus.ram.wTextBoxID] == FIELD_MOVE_MON_MENU, "the member's submenu")


class PartyOrder:
    def __init__(self, session: EmulatorSession, driver: Driver) -> None:
        self.session = session
        self.driver = driver

    def swap(self, first: int, second: int, read: TextSink | None = None) -> None:
        """Put party members `first` and `second` (0 first) in each other's places; back on the
        overworld after. PartyOrderError (the menus closed) when a screen was not where expected or the
        party is not in the new order after."""
        before = self._species()
        if first == second or not (0 <= first < len(before) and 0 <= second < len(before)):
            raise PartyOrderError(f"cannot swap members {first + 1} and {second + 1} of {len(before)}")
        menus = MenuPresser(self.session, self.driver, read)
        try:
            open_member_submenu(menus, first)
            menus.choose(self.session.read_u8(menus.ram.wMaxMenuItem) - SWITCH_FROM_THE_END, "SWITCH")
            menus.wait(lambda memory: menus.party_menu(SWAP_MONS_PARTY_MENU, memory), "the swap party menu")
            menus.choose(second, f"party member {second + 1}")
            menus.wait(lambda memory: menus.party_menu(NORMAL_PARTY_MENU, memory), "the party menu again")
        except MenusError as exc:
            menus.leave()
            raise PartyOrderError(f"swapping members {first + 1} and {second + 1}: {exc}") from exc
        menus.leave()
        wanted = list(before)
        wanted[first], wanted[second] = before[second], before[first]
        if self._species() != wanted:
            raise PartyOrderError(f"the party reads {self._species()} after the swap, not {wanted}")

    def _species(self) -> list[str | None]:
        party = decode_state(self.session.memory_image(), self.session.ram_map).party
        return [member.species_name for member in party]
