"""Room in the bag: it holds twenty kinds of item (pret constants/item_constants.asm BAG_ITEM_CAPACITY), and
a ball whose item does not fit stays where it lies ("No more room for items!"). What to throw away then: a
TM no member can learn (or every one that can knows already) first, then whatever is worth least; never a key
item or an HM, which the game will not toss.
"""

from __future__ import annotations

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
    """The item (and how many of it: the whole stack) to throw away for room; None if nothing may go."""
    prices = game_data().item_prices
    candidates = [
        entry for entry in state.bag
        if entry.name and entry.name not in KEY_ITEMS and not entry.name.startswith("HM_")
    ]  # fmt: skip
    if not candidates:
        return None

    def worth(name: str) -> tuple[bool, int]:
        useless_machine = name.startswith("TM_") and choose_student(state, name) is None
        return (not useless_machine, prices.get(name) or 0)

    chosen = min(candidates, key=lambda entry: worth(entry.name or ""))
    return (chosen.name or "", chosen.quantity)
