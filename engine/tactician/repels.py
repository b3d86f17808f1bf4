"""REPEL where walking gains nothing: while the team needs no experience for what lies ahead, a walk over
ground where wild Pokémon appear is made under a REPEL, and a few are bought at a Mart that sells them on
the way while the bag has none.

A REPEL keeps away every wild Pokémon of a lower level than the party's first member for its steps (pret
engine/battle/wild_encounters.asm TryDoWildEncounter; REPEL 100 steps, SUPER_REPEL 200, MAX_REPEL 250:
engine/items/item_effects.asm ItemUseRepel), so it is used only where the lead outlevels the map's whole
wild table. An encounter costs hundreds of frames even when it is run from; a REPEL, one trip to the bag.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.game.models import GameState
from engine.game.tables import game_data
from engine.world.goals import HereGoal, Leg, Purchase
from engine.world.world import World

STEPS = {"MAX_REPEL": 250, "SUPER_REPEL": 200, "REPEL": 100}  # the longest first
# Marts that sell a REPEL, its clerk (the map's object) and the kind (pret data/items/marts.asm); not the
# Indigo Plateau's lobby: the money there is the gauntlet's.
SELLERS = {
    "CERULEAN_MART": (1, "REPEL"),
    "VERMILION_MART": (1, "REPEL"),
    "LAVENDER_MART": (1, "SUPER_REPEL"),
    "FUCHSIA_MART": (1, "SUPER_REPEL"),
    "CINNABAR_MART": (1, "MAX_REPEL"),
    "SAFFRON_MART": (1, "MAX_REPEL"),
}  # fmt: skip
STOCK = 6  # bought at once
MONEY_KEPT = 10_000  # yen left for heals, the story's own purchases and the gauntlet's stock
SHOP_STEPS = 40  # the most steps a detour to a Mart for them is worth

Counter = Callable[[GameState, str, str | None, str, int], Leg | None]  # the pilot's way to a clerk


def repel_leg(state: GameState, world: World) -> Leg | None:
    """A REPEL from the bag here, where the map's wild Pokémon are all below the lead and none is active;
    None otherwise."""
    if state.overworld.repel_steps or not state.party:
        return None
    table = world.wild.get(state.overworld.map_id)
    if table is None or max(level for level, _ in table.slots) >= state.party[0].level:
        return None
    held = {entry.name for entry in state.bag if entry.quantity}
    repel = next((name for name in STEPS if name in held), None)
    if repel is None:
        return None
    why = f"{repel}: the team needs no experience, and every wild Pokémon here is below the lead"
    return Leg(goal=HereGoal(), use=repel, reason=why)


def buying_leg(state: GameState, world: World, counter: Counter) -> Leg | None:
    """A few REPELs from a Mart that sells them in the town the player is in, when the bag has none, the
    money is there and the Mart is a short detour; None otherwise."""
    if any(entry.name in STEPS and entry.quantity for entry in state.bag):
        return None
    prices = game_data().item_prices
    for shop, (clerk, repel) in SELLERS.items():
        if not at_hand(world, shop, state.overworld.map_id):
            continue
        cost = prices.get(repel, 0) * STOCK
        if not cost or state.progress.money < cost + MONEY_KEPT:
            continue
        leg = counter(state, "_MART", shop, f"{STOCK} {repel} for the walks that need no experience", clerk)
        if leg is not None and leg.max_steps <= SHOP_STEPS + LEG_SLACK:
            return leg.model_copy(update={"buy": (Purchase(item=repel, quantity=STOCK),)})
    return None


def at_hand(world: World, shop: str, here: int) -> bool:
    """The player is in the Mart or on the map whose door leads into it (a building's own warps lead
    back to wherever the player came from, so the door is looked up from outside)."""
    data, there = world.by_name.get(shop), world.maps.get(here)
    if data is None or there is None:
        return False
    return data.id == here or any(warp.to_map == data.id for warp in there.warps)


LEG_SLACK = 30  # what a leg to a person allows beyond its plan (tactician/explorer.py)
