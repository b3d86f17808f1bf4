"""Selling on the way (tactician/sales.py, the asides): NUGGETs sold in a town whose Mart is a short walk
away, each sale tried twice at most; NUGGETs stored in the PC taken out while in a Pokémon Center."""

from __future__ import annotations

from engine.game.models import GameState
from engine.story.graph import story_graph
from engine.tactician.asides import Asides
from engine.tactician.sales import selling_leg
from engine.world.goals import Leg, ObjectGoal, PcOrder, Purchase
from tests.support.tiny_world import INDOOR, TinyMap, build_world, person, state_at
from tests.unit.test_repels import ART, FIELD, MART, clerk_leg, world
from tests.unit.test_selling import holding, stored

CENTER = 3


def in_cerulean(*items: tuple[str, int]) -> GameState:
    return state_at(holding(*items), FIELD, 2, 2)


def test_in_a_town_whose_mart_is_near_the_nuggets_are_sold_there() -> None:
    leg = selling_leg(in_cerulean(("POTION", 2), ("NUGGET", 2)), world(), clerk_leg)
    assert leg is not None and leg.goal == ObjectGoal(map_id=MART, index=1)
    assert leg.sell == (Purchase(item="NUGGET", quantity=2),) and leg.buy == ()
    assert leg.reason == "sell 2 NUGGET: ¥10,000 for the gauntlet's stock"
    assert selling_leg(in_cerulean(("POTION", 2)), world(), clerk_leg) is None  # nothing to sell


def test_a_mart_far_away_is_not_walked_to_and_a_sale_is_tried_twice_at_most() -> None:
    def far(state: GameState, kind: str, shop: str | None, why: str, clerk: int) -> Leg | None:
        leg = clerk_leg(state, kind, shop, why, clerk)
        return leg.model_copy(update={"max_steps": 200}) if leg is not None else None

    asides = Asides(world(), story_graph(), None)
    state = in_cerulean(("NUGGET", 1))
    assert asides._sell(state, far) is None
    assert [asides._sell(state, clerk_leg) is not None for _ in range(3)] == [True, True, False]
    richer = state.model_copy(update={"progress": state.progress.model_copy(update={"money": 20_000})})
    assert asides._sell(richer, clerk_leg) is not None  # a new NUGGET after a sale is tried afresh


def test_in_a_pokemon_center_stored_nuggets_are_taken_out_to_be_sold() -> None:
    center = build_world(TinyMap(FIELD, "CERULEAN_POKECENTER", ART, tileset=INDOOR))

    def at_pc(state: GameState, order: PcOrder, why: str) -> Leg:
        return Leg(goal=ObjectGoal(map_id=FIELD, index=1), pc=order, reason=why)

    state = stored(state_at(holding(("POTION", 3)), FIELD, 2, 2), ("NUGGET", 3))
    leg = Asides(center, story_graph(), None)._take(state, at_pc)
    assert leg is not None and leg.pc == PcOrder(take=("NUGGET", 3))
    assert leg.reason == "3 NUGGET out of the PC, to be sold at a Mart"
    outside = stored(in_cerulean(("POTION", 3)), ("NUGGET", 3))
    assert Asides(world(), story_graph(), None)._take(outside, at_pc) is None  # no PC at hand


def test_from_another_building_of_the_town_the_mart_is_at_hand_too() -> None:
    # The town of test_repels, and a Pokémon Center whose door leads back to wherever the player came from.
    field = TinyMap(FIELD, "CERULEAN_CITY", ["#D" + ART[0][2:], *ART[1:]], warps=[(1, 0, MART, 0)])
    shop = TinyMap(
        MART, "CERULEAN_MART", ART, tileset=INDOOR, warps=[(1, 4, 0xFF, 0)], objects=(person(1, 2, 1),)
    )
    center = TinyMap(CENTER, "CERULEAN_POKECENTER", ART, tileset=INDOOR, warps=[(1, 4, 0xFF, 0)])
    town = build_world(field, shop, center)
    inside = state_at(holding(("NUGGET", 1)), CENTER, 2, 2)
    assert selling_leg(inside, town, clerk_leg) is None  # come in from nowhere known
    came_from_town = inside.model_copy(update={"story": inside.story.model_copy(update={"last_map": FIELD})})
    leg = selling_leg(came_from_town, town, clerk_leg)
    assert leg is not None and leg.sell == (Purchase(item="NUGGET", quantity=1),)
