"""Selling on the way: while a Mart is at hand (the player is in it, in the town its door opens onto, or in
another building of that town, and the clerk is a short walk away), the bag's valuables and the TMs no one
can learn (game/selling.py) are sold, so the money is there for the Elite Four's stock (FULL_RESTOREs,
REVIVEs and X items bought before it), as well as for the stones and REPELs on the way."""

from __future__ import annotations

from collections.abc import Callable

from engine.game.models import GameState
from engine.game.selling import Sale, to_sell
from engine.tactician.repels import LEG_SLACK, SHOP_STEPS, at_hand
from engine.world.goals import Leg, Purchase
from engine.world.world import World

# Every clerk that buys (pret data/maps/objects/*Mart.asm: the clerk is a Mart's first object;
# IndigoPlateauLobby.asm: its fourth). Any Mart's clerk runs the same DisplayPokemartDialogue_.
CLERKS = {
    "VIRIDIAN_MART": 1, "PEWTER_MART": 1, "CERULEAN_MART": 1, "VERMILION_MART": 1, "LAVENDER_MART": 1,
    "FUCHSIA_MART": 1, "CINNABAR_MART": 1, "SAFFRON_MART": 1, "INDIGO_PLATEAU_LOBBY": 4,
}  # fmt: skip

Counter = Callable[[GameState, str, str | None, str, int], Leg | None]  # the pilot's way to a clerk


def selling_leg(state: GameState, world: World, counter: Counter) -> Leg | None:
    """A leg to the clerk of a Mart at hand that sells what the rule says; None when there is nothing to
    sell or no Mart is a short walk away."""
    sales = to_sell(state)
    if not sales:
        return None
    # A leg usually ends in a building (a Pokémon Center, a gym): its town is the map the player came in
    # from (wLastMap).
    places = {state.overworld.map_id, state.story.last_map}
    for shop, clerk in CLERKS.items():
        if not any(at_hand(world, shop, place) for place in places if place is not None):
            continue
        leg = counter(state, "_MART", shop, sale_words(sales), clerk)
        if leg is not None and leg.max_steps <= SHOP_STEPS + LEG_SLACK:
            sell = tuple(Purchase(item=sale.item, quantity=sale.quantity) for sale in sales)
            return leg.model_copy(update={"sell": sell})
    return None


def sale_words(sales: tuple[Sale, ...]) -> str:
    """'sell 2 NUGGET: ¥10,000 for the gauntlet's stock'."""
    what = ", ".join(f"{sale.quantity} {sale.item}" for sale in sales)
    return f"sell {what}: ¥{sum(sale.price for sale in sales):,} for the gauntlet's stock"
