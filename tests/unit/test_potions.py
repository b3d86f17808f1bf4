"""Potions for the next boss: bought in a town whose Mart sells them when the boss's forecast with them in
the bag is clearly better, and not when it is not, the money is short or no Mart is at hand."""

from __future__ import annotations

from engine.combat.position import forecast
from engine.game.models import GameState
from engine.tactician.potions import potions_leg
from engine.world.goals import Leg, ObjectGoal
from engine.world.world import World
from tests.support.tiny_world import INDOOR, TinyMap, build_world, person, state_at
from tests.unit.test_team import member, team

FIELD, MART = 1, 2
ART = ("#" * 6, *("#....#" for _ in range(4)), "#" * 6)


def world(town: str = "VERMILION_CITY") -> World:
    field = TinyMap(FIELD, town, ["#D" + ART[0][2:], *ART[1:]], warps=[(1, 0, MART, 0)])
    mart = TinyMap(
        MART, "VERMILION_MART", ART, tileset=INDOOR, warps=[(1, 4, 0xFF, 0)], objects=(person(1, 2, 1),)
    )
    return build_world(field, mart)


def clerk(state: GameState, kind: str, shop: str | None, why: str, person_index: int) -> Leg | None:
    assert shop is not None
    return Leg(goal=ObjectGoal(map_id=MART, index=person_index), interact=True, max_steps=40, reason=why)


def surge(state: GameState) -> float | None:
    return forecast(state, "LT_SURGE", 1, healed=True)


def close_call(money: int = 20_000) -> GameState:
    return state_at(
        team(member("WARTORTLE", 33, ("BITE", "WATER_GUN", "WITHDRAW", "TAIL_WHIP")), money=money),
        FIELD,
        2,
        2,
    )


def test_potions_that_lift_a_close_fight_are_bought_and_not_without_the_money() -> None:
    before = surge(close_call())
    assert before is not None and 0.1 < before < 0.9  # a fight potions can decide
    leg = potions_leg(close_call(), world(), clerk, surge)
    assert leg is not None and [p.item for p in leg.buy] == ["SUPER_POTION"] and "→" in leg.reason
    assert potions_leg(close_call(money=1000), world(), clerk, surge) is None


def test_a_sure_fight_needs_none() -> None:
    sure = state_at(team(member("DIGLETT", 40, ("DIG", "SLASH"))), FIELD, 2, 2)
    assert potions_leg(sure, world(), clerk, surge) is None
