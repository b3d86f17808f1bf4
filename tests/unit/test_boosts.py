"""X items for the gauntlet: bought when the chain's chance rises by enough after their price is missed at
the lobby, never beyond the money."""

from __future__ import annotations

from engine.game.tables import game_data
from engine.team.boosts import GAIN, ITEMS, boosts_to_buy
from engine.team.planner import GAUNTLET
from tests.unit.test_machines import trained
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
