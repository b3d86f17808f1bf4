"""What to buy before the Elite Four: five battles in a row with no Pokémon Center between them, mended from
the bag alone (engine/game/mending.py), so the money left is worth nothing more than heals.

The Indigo Plateau lobby's clerk sells FULL_RESTORE, MAX_POTION, FULL_HEAL and REVIVE among others (pret
data/items/marts.asm IndigoPlateauLobbyClerkText). A FULL_RESTORE, dearer than a MAX_POTION by ¥500, also
wakes a sleeping member in battle; revives are worth it only with more than one fighter to bring back.
"""

from __future__ import annotations

from engine.game.mending import fighters
from engine.game.models import GameState
from engine.game.tables import game_data

GAUNTLET_BATTLES = 5  # Lorelei, Bruno, Agatha, Lance and the Champion
RESTORES_PER_BATTLE = 4
REVIVES_PER_BATTLE = 1
CURES_PER_BATTLE = 1
MONEY_KEPT = 1000  # a whiteout halves what is left; this much buys a way back to the fight


def gauntlet_stock(state: GameState) -> tuple[tuple[str, int], ...]:
    """(item, quantity) to buy, most needed first, within the money; empty when the bag has its targets or
    nothing more can be paid for."""
    prices = game_data().item_prices
    held = {entry.name: entry.quantity for entry in state.bag}
    spare = state.progress.money - MONEY_KEPT
    wanted = []
    for item, target in _targets(state):
        price = prices[item]
        quantity = min(target - held.get(item, 0), max(spare, 0) // price, 99 - held.get(item, 0))
        if quantity > 0:
            wanted.append((item, quantity))
            spare -= quantity * price
    return tuple(wanted)


def full_stock(state: GameState) -> tuple[tuple[str, int], ...]:
    """Everything the lobby's stock aims for, whatever the money now: the bag a plan for the gauntlet
    weighs moves with long before the team gets there."""
    held = {entry.name: entry.quantity for entry in state.bag}
    wanted = ((item, target - held.get(item, 0)) for item, target in _targets(state))
    return tuple((item, quantity) for item, quantity in wanted if quantity > 0)


def _targets(state: GameState) -> tuple[tuple[str, int], ...]:
    others = max(len(fighters(state)) - 1, 0)
    return (
        ("FULL_RESTORE", GAUNTLET_BATTLES * RESTORES_PER_BATTLE),
        ("REVIVE", min(GAUNTLET_BATTLES * REVIVES_PER_BATTLE, 2 * others)),
        ("FULL_HEAL", GAUNTLET_BATTLES * CURES_PER_BATTLE),
    )
