"""Mending the party from the bag, out of battle, where no Pokémon Center can be reached (between the Elite
Four's rooms): which item goes to which member next.

Only the members that still fight are mended: a member far below the strongest (an HM's carrier) would
use up revives and potions the fighters need later. A fainted fighter is revived first, then a status is
cured, then HP is filled, each with the cheapest item that does the job (pret data/items/prices.asm).
"""

from __future__ import annotations

from engine.frozen import Frozen
from engine.game.items import BATTLE_ITEMS, BattleItem, ItemKind
from engine.game.models import GameState, PartyMon
from engine.game.tables import game_data

FIGHTER_LEVELS = 15  # a member this many levels below the strongest is no fighter
ENOUGH_HP = 0.9  # a fighter at this share of its HP or more is not worth a potion


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
    for mending in (_revive, _cure, _fill):
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
