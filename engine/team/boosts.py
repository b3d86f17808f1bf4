"""X items for the gauntlet: which to buy at the Celadon store, and how many, weighed by the chain's
forecast (team/gauntlet.py) with the money they cost taken from the lobby's stock (game/stock.py).

A speedrunner wins the Elite Four with fewer levels and more X items: a stage up for the stat the best move
hits with, or for speed against the faster foes, is worth many levels. The store's fifth floor sells them
(pret data/items/marts.asm CeladonMart5FClerk1Text); the chain's greedy policy uses them while a foe is no
threat (team/gauntlet.py `greedy`). A purchase is proposed only when it raises the chance of the whole
chain by GAIN after the money it takes is missed at the lobby.
"""

from __future__ import annotations

from engine.combat.hits import OHKO
from engine.game.mending import fighters
from engine.game.models import BagItem, GameState
from engine.game.stock import gauntlet_stock
from engine.game.tables import game_data
from engine.team.changes import Boosts
from engine.team.gauntlet import Boss, planned_forecast

SHOP = "CELADON_MART_5F"
CLERK = 3  # pret data/maps/objects/CeladonMart5F.asm: the X items' clerk is the third object
ITEMS = ("X_SPECIAL", "X_ATTACK", "X_SPEED", "X_ACCURACY", "X_DEFEND")
COUNTS = (3, 6)  # how many of one item are weighed
GAIN = 0.05
# X ACCURACYs the bag holds while a fighter knows a one-hit knock-out move (FISSURE, HORN DRILL,
# GUILLOTINE): one a room, whatever the chain's quick policy makes of them. Four runs' own first entries
# (BLASTOISE L60-63 with FISSURE) played again three times each with five in the bag and the rest as it
# was: 12 of 12 reached the Hall of Fame (LORELEI's five in six turns), against 4 of 12 without; the
# chain's forecast read 56-95% with them and 72-91% without, a floor the search plays far above.
ACCURACY_HELD = 5
SAMPLES = 16  # per purchase weighed (the same draws for each: their differences are what counts)


def boosts_to_buy(state: GameState, bosses: tuple[Boss, ...]) -> Boosts | None:
    """X ACCURACYs for a fighter's one-hit knock-out move first (see ACCURACY_HELD); else the X items whose
    purchase raises the chain's chance most, by GAIN at least; None otherwise."""
    before = _chance(state, bosses)
    if before is None:
        return None
    prices = game_data().item_prices
    wanted = accuracy_wanted(state)
    price = prices.get("X_ACCURACY", 0)
    count = min(wanted, state.progress.money // price) if price else 0
    if count > 0:
        after = _chance(_bought(state, "X_ACCURACY", count, count * price), bosses)
        why = "X ACCURACY makes a one-hit knock-out move sure against every foe not faster than its user"
        return Boosts(item="X_ACCURACY", count=count, before=before, after=before if after is None else after,
                      bosses=bosses, why=why)  # fmt: skip
    best: Boosts | None = None
    for item in ITEMS:
        for count in COUNTS:
            cost = prices.get(item, 0) * count
            if not cost or cost > state.progress.money:
                continue
            after = _chance(_bought(state, item, count, cost), bosses)
            if after is None or after < before + GAIN or (best is not None and after <= best.after):
                continue
            best = Boosts(item=item, count=count, before=before, after=after, bosses=bosses)
    return best


def accuracy_wanted(state: GameState) -> int:
    """X ACCURACYs to buy: ACCURACY_HELD less those held, while a fighter knows a one-hit knock-out move."""
    moves = game_data().moves_by_id
    sure = any(moves[slot.move_id].effect == OHKO for mon in fighters(state) for slot in mon.moves
               if slot.move_id in moves)  # fmt: skip
    held = sum(entry.quantity for entry in state.bag if entry.name == "X_ACCURACY")
    return max(0, ACCURACY_HELD - held) if sure else 0


def _chance(state: GameState, bosses: tuple[Boss, ...]) -> float | None:
    found = planned_forecast(state, bosses, gauntlet_stock(state), samples=SAMPLES)
    return found.chance if found is not None else None


def _bought(state: GameState, item: str, count: int, cost: int) -> GameState:
    held = next((entry.quantity for entry in state.bag if entry.name == item), 0)
    bag = tuple(entry for entry in state.bag if entry.name != item)
    bag += (BagItem(item_id=game_data().item_ids[item], name=item, quantity=held + count),)
    progress = state.progress.model_copy(update={"money": state.progress.money - cost})
    return state.model_copy(update={"bag": bag, "progress": progress})
