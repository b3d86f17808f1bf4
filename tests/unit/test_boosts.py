"""X items for the gauntlet: bought when the chain's chance rises by enough after their price is missed at
the lobby, never beyond the money."""

from __future__ import annotations

from engine.game.models import BagItem
from engine.game.tables import game_data
from engine.story.graph import story_graph
from engine.tactician.asides import Asides
from engine.team.boosts import ACCURACY_HELD, CLERK, GAIN, ITEMS, SHOP, accuracy_wanted, boosts_to_buy
from engine.team.planner import GAUNTLET
from engine.world.goals import ObjectGoal
from tests.support.tiny_world import INDOOR, TinyMap, build_world, person, state_at
from tests.unit.test_machines import trained
from tests.unit.test_repels import ART, FIELD, MART
from tests.unit.test_team import team

CHAIN = (*GAUNTLET, ("RIVAL3", 2))


def pair(level: int, money: int):  # type: ignore[no-untyped-def]
    blastoise = trained("BLASTOISE", level, ("SURF", "BLIZZARD", "EARTHQUAKE", "STRENGTH"))
    jolteon = trained("JOLTEON", level - 3, ("THUNDERBOLT", "PIN_MISSILE", "DOUBLE_KICK", "THUNDER_WAVE"))
    return team(blastoise, jolteon, money=money)


def test_x_items_that_raise_the_chain_are_bought_within_the_money() -> None:
    found = boosts_to_buy(pair(60, 40_000), CHAIN)
    assert found is not None and found.item in ITEMS
    assert found.after >= found.before + GAIN
    assert found.count * game_data().item_prices[found.item] <= 40_000
    assert found.item in found.reason and "→" in found.reason


def test_no_money_buys_nothing_and_a_sure_chain_needs_nothing() -> None:
    assert boosts_to_buy(pair(60, 100), CHAIN) is None
    assert boosts_to_buy(pair(90, 40_000), CHAIN) is None  # already sure: nothing to gain


def test_a_fighter_with_fissure_holds_x_accuracys_first_within_the_money() -> None:
    fissure = trained("BLASTOISE", 60, ("SURF", "BLIZZARD", "FISSURE", "STRENGTH"))
    state = team(fissure, money=40_000)
    assert accuracy_wanted(state) == ACCURACY_HELD and accuracy_wanted(pair(60, 40_000)) == 0
    found = boosts_to_buy(state, CHAIN)
    assert found is not None and (found.item, found.count) == ("X_ACCURACY", ACCURACY_HELD)
    assert "one-hit knock-out move sure" in found.reason
    poorer = boosts_to_buy(team(fissure, money=2_000), CHAIN)  # ¥950 each: two
    assert poorer is not None and (poorer.item, poorer.count) == ("X_ACCURACY", 2)
    ids = game_data().item_ids
    five = BagItem(item_id=ids["X_ACCURACY"], name="X_ACCURACY", quantity=5)
    stocked = state.model_copy(update={"bag": (*state.bag, five)})
    assert accuracy_wanted(stocked) == 0
    held = boosts_to_buy(stocked, CHAIN)
    assert held is None or held.item != "X_ACCURACY"


def test_a_purchase_is_tried_twice_from_each_map_so_a_flight_does_not_use_up_its_tries() -> None:
    # A run flew to Celadon (one try), its walk to the clerk was cut short on landing (the other), and the
    # X items its forecast counted on were never bought.
    city = TinyMap(FIELD, "CELADON_CITY", ["#D" + ART[0][2:], *ART[1:]], warps=[(1, 0, MART, 0)])
    clerks = tuple(person(x, 2, 1) for x in (1, 2, 3))
    shop = TinyMap(MART, SHOP, ART, tileset=INDOOR, warps=[(1, 4, 0xFF, 0)], objects=clerks)
    asides = Asides(build_world(city, shop), story_graph(), None)
    base = pair(54, 40_000)  # below the chain's bar with the lobby's stock, above it with X items
    outside, inside = state_at(base, FIELD, 2, 2), state_at(base, MART, 2, 2)
    assert [asides._boosts(outside) is not None for _ in range(3)] == [True, True, False]
    leg = asides._boosts(inside)
    assert leg is not None and leg.goal == ObjectGoal(map_id=MART, index=CLERK) and leg.buy
    assert [asides._boosts(inside) is not None for _ in range(2)] == [True, False]
