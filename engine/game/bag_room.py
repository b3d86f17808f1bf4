"""Room in the bag: it holds twenty kinds of item (pret constants/item_constants.asm BAG_ITEM_CAPACITY), and
a ball whose item does not fit stays where it lies ("No more room for items!"). What to throw away then: a
TM no member can learn (or every one that can knows already) first, then whatever is worth least; never a key
item or an HM, which the game will not toss. What to store in the PC instead, while there: what the engine
never uses (a TM no member can learn, a fossil), so that a gift finds room later; never a valuable, which a
Mart turns into money (game/selling.py).
"""

from __future__ import annotations

from engine.game.items import BATTLE_ITEMS
from engine.game.models import GameState
from engine.game.tables import game_data
from engine.game.teaching import choose_student

BAG_CAPACITY = 20
# pret data/items/key_items.asm KeyItemFlags: the items "too important to toss".
KEY_ITEMS = frozenset({
    "TOWN_MAP", "BICYCLE", "SURFBOARD", "SAFARI_BALL", "POKEDEX", "OLD_AMBER", "DOME_FOSSIL", "HELIX_FOSSIL",
    "SECRET_KEY", "BIKE_VOUCHER", "CARD_KEY", "S_S_TICKET", "GOLD_TEETH", "COIN_CASE", "OAKS_PARCEL",
    "ITEMFINDER", "SILPH_SCOPE", "POKE_FLUTE", "LIFT_KEY", "OLD_ROD", "GOOD_ROD", "SUPER_ROD",
})  # fmt: skip


def has_room_for(state: GameState, item: str) -> bool:
    """A ball of `item` would go into the bag: a free slot, or a stack of it already there."""
    return len(state.bag) < BAG_CAPACITY or any(entry.name == item for entry in state.bag)


def least_needed(state: GameState) -> tuple[str, int] | None:
    """The item (and how many of it: the whole stack) to throw away for room; None if nothing may go (what
    the gauntlet's stock holds never goes)."""
    prices = game_data().item_prices
    candidates = [
        entry for entry in state.bag
        if entry.name and entry.name not in KEY_ITEMS and not entry.name.startswith("HM_")
        and entry.name not in FOR_THE_GAUNTLET
    ]  # fmt: skip
    if not candidates:
        return None

    def worth(name: str) -> tuple[bool, bool, int]:
        useless_machine = name.startswith("TM_") and choose_student(state, name) is None
        # What the engine uses goes last, whatever its price: an ELIXER, which no Mart sells, was the
        # cheapest item of Red seed 54's bag at the Elite Four's door, and was thrown away for a FULL HEAL.
        return (not useless_machine, name in IN_USE, prices.get(name) or 0)

    chosen = min(candidates, key=lambda entry: worth(entry.name or ""))
    return (chosen.name or "", chosen.quantity)


# Kept in the bag whatever the room: what battles, the field and the team planner use.
IN_USE = frozenset({
    "REPEL", "SUPER_REPEL", "MAX_REPEL", "ESCAPE_ROPE", "RARE_CANDY", "POKE_DOLL", "GUARD_SPEC", "DIRE_HIT",
    "ETHER", "MAX_ETHER", "ELIXER", "MAX_ELIXER", "PP_UP", "HP_UP", "PROTEIN", "IRON", "CARBOS", "CALCIUM",
    "MOON_STONE", "FIRE_STONE", "THUNDER_STONE", "WATER_STONE", "LEAF_STONE",
})  # fmt: skip
# Bought for the Elite Four (team/boosts.py, game/stock.py): never thrown away for room. Blue seed 55 threw
# its six X SPECIALs away for room for a FULL RESTORE and bought them again for the chain's forecast, ten
# times over (58,901 frames in those legs alone).
FOR_THE_GAUNTLET = frozenset({
    "X_ACCURACY", "X_ATTACK", "X_DEFEND", "X_SPECIAL", "X_SPEED", "FULL_RESTORE", "MAX_POTION", "REVIVE",
    "MAX_REVIVE", "FULL_HEAL",
})  # fmt: skip
# Key items with no use left to the story: the fossils (their revival is optional).
STORABLE_KEY_ITEMS = frozenset({"DOME_FOSSIL", "HELIX_FOSSIL", "OLD_AMBER"})
# Items nothing in the game uses and a Mart pays well for: sold (game/selling.py), not stored.
VALUABLES = frozenset({"NUGGET"})


def to_store(state: GameState) -> tuple[str, int] | None:
    """The item (the whole stack) to put in the PC to keep room in the bag: a TM no member can learn first,
    then a fossil or another item the engine never uses, then the cheapest TM; None when everything in the
    bag is in use or to be sold."""
    prices = game_data().item_prices
    candidates = [entry.name for entry in state.bag if entry.name and _storable(entry.name)]
    if not candidates:
        return None

    def order(name: str) -> tuple[int, int]:
        machine = name.startswith("TM_")
        rank = 0 if machine and choose_student(state, name) is None else 2 if machine else 1
        return rank, prices.get(name) or 0

    chosen = min(candidates, key=order)
    return chosen, sum(entry.quantity for entry in state.bag if entry.name == chosen)


def _storable(name: str) -> bool:
    if name in STORABLE_KEY_ITEMS:
        return True
    used = name in KEY_ITEMS or name in IN_USE or name in BATTLE_ITEMS or name in VALUABLES
    return not used and not name.startswith("HM_")
