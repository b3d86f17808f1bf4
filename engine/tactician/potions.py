"""Potions for the next boss: a few bought at a Mart on the way when the boss's forecast with them in the
bag is clearly better. The battle search drinks them where they pay (combat/turn.py: a healing item is one
of its actions), and the forecast counts them (combat/position.py `_heals`), so the rise is measured, not
guessed: a boss lost costs a walk back, half the money and a retry; a potion costs a few hundred yen.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.game.models import BagItem, GameState
from engine.game.tables import game_data
from engine.tactician.repels import at_hand
from engine.world.goals import Leg, Purchase
from engine.world.world import World

# Marts and the best potion each sells, with its clerk (pret data/items/marts.asm).
SELLERS = {
    "PEWTER_MART": (1, "POTION"), "CERULEAN_MART": (1, "POTION"), "VERMILION_MART": (1, "SUPER_POTION"),
    "LAVENDER_MART": (1, "SUPER_POTION"), "CELADON_MART_2F": (1, "SUPER_POTION"),
    "FUCHSIA_MART": (1, "SUPER_POTION"), "CINNABAR_MART": (1, "HYPER_POTION"),
    "SAFFRON_MART": (1, "HYPER_POTION"),
}  # fmt: skip
COUNTS = (3, 6)
GAIN = 0.05  # the least rise in the boss's forecast a purchase is made for
MONEY_KEPT = 3000  # yen left after the purchase
SHOP_STEPS = 40  # the most steps a detour to the Mart is worth

Counter = Callable[[GameState, str, str | None, str, int], Leg | None]
Forecast = Callable[[GameState], float | None]


def potions_leg(state: GameState, world: World, counter: Counter, forecast: Forecast) -> Leg | None:
    """A few potions from a Mart in the town the player is in, when the boss's forecast with them rises by
    GAIN; None otherwise."""
    before = forecast(state)
    if before is None:
        return None
    prices = game_data().item_prices
    for shop, (clerk, potion) in SELLERS.items():
        if not at_hand(world, shop, state.overworld.map_id):
            continue
        for count in COUNTS:
            cost = prices.get(potion, 0) * count
            if not cost or state.progress.money < cost + MONEY_KEPT:
                continue
            after = forecast(_holding(state, potion, count))
            if after is None or after < before + GAIN:
                continue
            why = f"{count} {potion} for the boss: its forecast {before:.0%} → {after:.0%} with them"
            leg = counter(state, "_MART", shop, why, clerk)
            if leg is not None and leg.max_steps <= SHOP_STEPS + LEG_SLACK:
                return leg.model_copy(update={"buy": (Purchase(item=potion, quantity=count),)})
    return None


def _holding(state: GameState, item: str, count: int) -> GameState:
    held = next((entry.quantity for entry in state.bag if entry.name == item), 0)
    bag = tuple(entry for entry in state.bag if entry.name != item)
    bag += (BagItem(item_id=game_data().item_ids[item], name=item, quantity=held + count),)
    return state.model_copy(update={"bag": bag})


LEG_SLACK = 30  # what a leg to a person allows beyond its plan (tactician/explorer.py)
