"""Mending the party from the bag, out of battle, where no Pokémon Center can be reached (between the Elite
Four's rooms): which item goes to which member next.

Only the members that still fight are mended: a member far below the strongest (an HM's carrier) would
use up revives and potions the fighters need later. A fainted fighter is revived first, then a status is
cured, then HP is filled, each with the cheapest item that does the job (pret data/items/prices.asm), and
last, between the Elite Four's rooms, an ELIXER gives a fighter's moves their PP back once they miss
MISSING_PP in all: the gauntlet's forecast (team/gauntlet.py) counts on it between rooms, and a BLASTOISE
that came to the Champion with ICE BEAM at 0 and SURF at 1, an ELIXER in the bag, lost there.
"""

from __future__ import annotations

from engine.frozen import Frozen
from engine.game.decoders import ELITE_FOUR_MAPS
from engine.game.items import BATTLE_ITEMS, PP_RESTORED, BattleItem, ItemKind, max_pp
from engine.game.models import GameState, PartyMon
from engine.game.tables import game_data

FIGHTER_LEVELS = 15  # a member this many levels below the strongest is no fighter
ENOUGH_HP = 0.9  # a fighter at this share of its HP or more is not worth a potion
MISSING_PP = 2 * PP_RESTORED  # as team/gauntlet.py's forecast uses one


class Mend(Frozen):
    item: str
    member: int  # party slot, 0 first
    why: str


def fighters(state: GameState) -> list[PartyMon]:
    top = max((mon.level for mon in state.party), default=0)
    return [mon for mon in state.party if mon.level > top - FIGHTER_LEVELS]


def next_mend(state: GameState) -> Mend | None:
    """The next item to use and on whom; None when every fighter is well or the bag holds nothing that
    helps."""
    held = {entry.name: BATTLE_ITEMS[entry.name] for entry in state.bag
            if entry.quantity > 0 and entry.name in BATTLE_ITEMS}  # fmt: skip
    # PP only inside the gauntlet: elsewhere a nurse gives it back, and the ELIXERs are kept for the rooms.
    inside = state.overworld.map_name in ELITE_FOUR_MAPS
    for mending in (_revive, _cure, _fill, _restore_pp) if inside else (_revive, _cure, _fill):
        for mon in fighters(state):
            mend = mending(mon, held)
            if mend is not None:
                return mend
    return None


def _price(item: BattleItem) -> int:
    return game_data().item_prices.get(item.name, 0)


def _revive(mon: PartyMon, held: dict[str, BattleItem]) -> Mend | None:
    if mon.hp > 0:
        return None
    revives = [item for item in held.values() if item.kind is ItemKind.REVIVE]
    if not revives:
        return None
    item = min(revives, key=_price)
    return Mend(item=item.name, member=mon.slot, why=f"{mon.species_name} fainted")


def _cure(mon: PartyMon, held: dict[str, BattleItem]) -> Mend | None:
    if mon.hp == 0 or mon.status == "OK":
        return None
    cures = [item for item in held.values() if mon.status in item.cures]
    if not cures:
        return None
    # A FULL_RESTORE cures too, but it is the dearest: only when nothing else does.
    item = min(cures, key=lambda cure: (cure.kind is ItemKind.HEAL_HP, _price(cure)))
    return Mend(item=item.name, member=mon.slot, why=f"{mon.species_name} is {mon.status}")


def _fill(mon: PartyMon, held: dict[str, BattleItem]) -> Mend | None:
    missing = mon.max_hp - mon.hp
    if mon.hp == 0 or mon.hp >= ENOUGH_HP * mon.max_hp:
        return None
    potions = [item for item in held.values() if item.kind is ItemKind.HEAL_HP]
    if not potions:
        return None
    filling = [item for item in potions if item.heal is None or item.heal >= missing]
    if filling:  # the cheapest that fills the gap
        item = min(filling, key=lambda potion: (_price(potion), potion.name == "FULL_RESTORE"))
    else:  # none fills it: the largest, and again after
        item = max(potions, key=lambda potion: (potion.heal or 0, -_price(potion)))
    why = f"{mon.species_name} at {mon.hp}/{mon.max_hp} HP"
    return Mend(item=item.name, member=mon.slot, why=why)


def _restore_pp(mon: PartyMon, held: dict[str, BattleItem]) -> Mend | None:
    """An ELIXER (a MAX ELIXER only with none left) for a fighter whose moves miss MISSING_PP or more."""
    if mon.hp == 0:
        return None
    missing = sum(max(0, max_pp(slot) - slot.pp) for slot in mon.moves if slot.move_id)
    if missing < MISSING_PP:
        return None
    elixers = [item for item in held.values() if item.kind is ItemKind.RESTORE_PP and item.every_move]
    if not elixers:
        return None
    item = min(elixers, key=lambda elixer: elixer.name == "MAX_ELIXER")
    return Mend(item=item.name, member=mon.slot, why=f"{mon.species_name}'s moves miss {missing} PP")
