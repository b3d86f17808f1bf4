"""REPEL where walking gains nothing: one is used where every wild Pokémon of the map is below the lead and
none is active, the longest-lasting first; a few are bought in a town whose Mart sells them, when the bag
has none and the money is there."""

from __future__ import annotations

from engine.game.models import BagItem, GameState
from engine.game.tables import game_data
from engine.tactician.repels import STOCK, buying_leg, repel_leg
from engine.world.goals import HereGoal, Leg, ObjectGoal
from engine.world.models import WildTable
from engine.world.world import World
from tests.support.tiny_world import INDOOR, TinyMap, build_world, person, state_at
from tests.unit.test_team import member, team

FIELD, MART = 1, 2
ART = ("#" * 6, *("#....#" for _ in range(4)), "#" * 6)


def world() -> World:
    field = TinyMap(FIELD, "CERULEAN_CITY", ["#D" + ART[0][2:], *ART[1:]], warps=[(1, 0, MART, 0)])
    mart = TinyMap(
        MART, "CERULEAN_MART", ART, tileset=INDOOR, warps=[(1, 4, 0xFF, 0)], objects=(person(1, 2, 1),)
    )
    w = build_world(field, mart)
    w.wild = {FIELD: WildTable(rate=20, slots=((10, "RATTATA"), (12, "SPEAROW")))}
    return w


def standing(level: int, money: int = 20_000, repel_steps: int = 0, **items: int) -> GameState:
    ids = game_data().item_ids
    base = team(member("WARTORTLE", level, ("WATER_GUN",)), money=money)
    bag = tuple(BagItem(item_id=ids[name], name=name, quantity=n) for name, n in items.items())
    state = state_at(base.model_copy(update={"bag": bag}), FIELD, 2, 2)
    return state.model_copy(
        update={"overworld": state.overworld.model_copy(update={"repel_steps": repel_steps})}
    )


def test_a_repel_is_used_where_every_wild_pokemon_is_below_the_lead() -> None:
    leg = repel_leg(standing(20, REPEL=2, MAX_REPEL=1), world())
    assert leg is not None and isinstance(leg.goal, HereGoal) and leg.use == "MAX_REPEL"
    assert repel_leg(standing(12, REPEL=2), world()) is None  # a SPEAROW L12 would still come
    assert repel_leg(standing(20, repel_steps=40, REPEL=2), world()) is None  # one is working
    assert repel_leg(standing(20), world()) is None  # none in the bag


def clerk_leg(state: GameState, kind: str, shop: str | None, why: str, clerk: int) -> Leg | None:
    assert kind == "_MART" and shop is not None
    w = world()
    return Leg(
        goal=ObjectGoal(map_id=w.by_name[shop].id, index=clerk), interact=True, max_steps=40, reason=why
    )


def test_a_few_are_bought_in_a_town_whose_mart_sells_them() -> None:
    leg = buying_leg(standing(20), world(), clerk_leg)
    assert leg is not None and [(p.item, p.quantity) for p in leg.buy] == [("REPEL", STOCK)]
    assert buying_leg(standing(20, REPEL=1), world(), clerk_leg) is None  # some in the bag already
    assert buying_leg(standing(20, money=500), world(), clerk_leg) is None  # the money is for other things
