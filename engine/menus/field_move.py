"""A field move from the party menu, closed-loop: START, POKéMON, the member, the move.

The member's submenu (pret engine/menus/start_sub_menus.asm StartMenu_Pokemon: text box
FIELD_MOVE_MON_MENU) lists its field moves first, in wFieldMoves by their FieldMoveNames index, then STATS,
SWITCH, CANCEL. Choosing the move runs its routine (CUT: engine/overworld/cut.asm UsedCut, which sets
wActionResultOrTookBattleTurn to 1 once it cuts). Anything unexpected closes the menus with B and raises,
so the caller always gets the overworld back.
"""

from __future__ import annotations

from engine.emulator.session import EmulatorSession
from engine.game.field_moves import FIELD_MOVE_LIST_INDEX
from engine.menus.errors import FieldMoveError, MenusError
from engine.menus.party import open_member_submenu
from engine.menus.screens import Driver, MenuPresser, TextSink

FIELD_MOVE_SLOTS = 4
STRENGTH_ACTIVE = 0x01  # wStatusFlags1 bit 0 (BIT_STRENGTH_ACTIVE), which PrintStrengthText sets


class FieldMoveUser:
    def __init__(self, session: EmulatorSession, driver: Driver) -> None:
        self.session = session
        self.driver = driver
        self.ram = session.ram_map

    def use(self, move: str, member: int, read: TextSink | None = None) -> None:
        """Use `move` of party member `member` (0-based) from the overworld; back on the overworld after.
        Raises FieldMoveError if a menu was not where expected or the move did not take."""
        menus = MenuPresser(self.session, self.driver, read)
        try:
            open_member_submenu(menus, member)
            menus.choose(field_slot(self.session, move), move)
        except MenusError as exc:
            menus.leave()
            raise FieldMoveError(str(exc)) from exc
        self.driver.settle(read=read)
        if not self._took(move):
            raise FieldMoveError(f"{move} did nothing here")

    def _took(self, move: str) -> bool:
        """What RAM shows once the move worked: STRENGTH sets its flag (pret engine/overworld/
        field_move_messages.asm PrintStrengthText), FLASH clears wMapPalOffset; CUT and SURF set
        wActionResultOrTookBattleTurn."""
        if move == "STRENGTH":
            return bool(self.session.read_u8(self.ram.wStatusFlags1) & STRENGTH_ACTIVE)
        if move == "FLASH":  # pret engine/menus/start_sub_menus.asm StartMenu_Pokemon .flash
            return self.session.read_u8(self.ram.wMapPalOffset) == 0
        return self.session.read_u8(self.ram.wActionResultOrTookBattleTurn) == 1


def field_slot(session: EmulatorSession, move: str) -> int:
    """Where `move` is in the open member submenu's list (wFieldMoves); MenusError when it is not there."""
    listed = list(session.read(session.ram_map.wFieldMoves, FIELD_MOVE_SLOTS))
    if FIELD_MOVE_LIST_INDEX[move] not in listed:
        raise MenusError(f"the member's submenu does not list {move}")
    return listed.index(FIELD_MOVE_LIST_INDEX[move])
