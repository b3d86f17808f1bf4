"""What the engine sells at a Poké Mart (game/selling.py): the NUGGET first, a TM no one can learn, never
what battles, the field, the team planner or the story use; what a sale can be; NUGGETs taken back out of
the PC to be sold."""

from __future__ import annotations

import pytest

from engine.game.bag_room import BAG_CAPACITY
from engine.game.models import BagItem, GameState
from engine.game.selling import MAX_MONEY, Sale, plan_sale, sale_price, to_sell, to_take
from engine.game.tables import game_data
from tests.unit.test_team import member, pikachu, team, wartortle


def holding(*items: tuple[str, int], money: int = 9000, box: tuple[str, ...] = ()) -> GameState:
    """WARTORTLE and PIKACHU (neither learns WHIRLWIND; WARTORTLE learns BLIZZARD) with this bag."""
    ids = game_data().item_ids
    boxed = tuple(member(species, 20, ("TACKLE",)) for species in box)
    state = team(wartortle(), pikachu(), box=boxed, money=money)
    bag = tuple(BagItem(item_id=ids[name], name=name, quantity=count) for name, count in items)
    return state.model_copy(update={"bag": bag})


def stored(state: GameState, *items: tuple[str, int]) -> GameState:
    ids = game_data().item_ids
    pc = tuple(BagItem(item_id=ids[name], name=name, quantity=count) for name, count in items)
    return state.model_copy(update={"pc_items": pc})


def test_a_mart_pays_half_the_price() -> None:
    assert sale_price("NUGGET", 1) == 5000 and sale_price("NUGGET", 3) == 15_000
    assert sale_price("TM_WHIRLWIND", 1) == 500  # pret data/items/tm_prices.asm: ¥1,000
    assert sale_price("EXP_ALL", 1) == 0  # priced 0 in pret data/items/prices.asm


def test_nuggets_are_sold_first_then_a_tm_no_one_can_learn() -> None:
    state = holding(("POTION", 3), ("TM_WHIRLWIND", 1), ("NUGGET", 2), ("TM_BLIZZARD", 1))
    assert to_sell(state) == (
        Sale(item="NUGGET", quantity=2, price=10_000),
        Sale(item="TM_WHIRLWIND", quantity=1, price=500),
    )


def test_a_tm_a_boxed_pokemon_can_learn_is_kept() -> None:
    state = holding(("TM_WHIRLWIND", 1), box=("PIDGEY",))  # PIDGEY learns WHIRLWIND
    assert to_sell(state) == ()
    assert to_sell(holding(("TM_WHIRLWIND", 1), box=("RATTATA",))) == (Sale(item="TM_WHIRLWIND", quantity=1,
                                                                             price=500),)  # fmt: skip


@pytest.mark.parametrize(
    "kept",
    [
        ("TOWN_MAP", "BICYCLE", "S_S_TICKET", "SILPH_SCOPE", "POKE_FLUTE", "OLD_ROD"),  # key items
        ("DOME_FOSSIL", "HELIX_FOSSIL", "OLD_AMBER"),  # key items too: a Mart will not price them
        ("HM_CUT", "HM_SURF", "HM_STRENGTH"),
        ("POKE_BALL", "GREAT_BALL", "ULTRA_BALL", "MASTER_BALL", "SAFARI_BALL"),
        ("POTION", "SUPER_POTION", "HYPER_POTION", "MAX_POTION", "FULL_RESTORE", "REVIVE", "MAX_REVIVE"),
        ("ANTIDOTE", "FULL_HEAL", "AWAKENING", "FRESH_WATER", "SODA_POP", "LEMONADE"),
        ("X_ATTACK", "X_DEFEND", "X_SPEED", "X_SPECIAL", "X_ACCURACY", "GUARD_SPEC", "DIRE_HIT"),
        ("PP_UP", "ETHER", "MAX_ETHER", "ELIXER", "MAX_ELIXER"),
        ("MOON_STONE", "FIRE_STONE", "THUNDER_STONE", "WATER_STONE", "LEAF_STONE", "RARE_CANDY"),
        ("HP_UP", "PROTEIN", "IRON", "CARBOS", "CALCIUM", "REPEL", "SUPER_REPEL", "MAX_REPEL"),
        ("ESCAPE_ROPE", "POKE_DOLL", "EXP_ALL"),
        ("TM_BLIZZARD", "TM_THUNDERBOLT"),  # WARTORTLE learns BLIZZARD, PIKACHU THUNDERBOLT
    ],
)
def test_what_the_engine_uses_is_never_sold(kept: tuple[str, ...]) -> None:
    assert to_sell(holding(*((name, 1) for name in kept))) == ()
    assert to_sell(holding(*((name, 1) for name in kept), ("NUGGET", 1))) == (
        Sale(item="NUGGET", quantity=1, price=5000),
    )


def test_the_money_is_never_pushed_past_what_the_game_keeps() -> None:
    # AddBCD stops at ¥999,999: three NUGGETs would lose yen past it, so two are sold.
    state = holding(("NUGGET", 3), money=MAX_MONEY - 12_000)
    assert to_sell(state) == (Sale(item="NUGGET", quantity=2, price=10_000),)
    assert to_sell(holding(("NUGGET", 3), money=MAX_MONEY - 4_999)) == ()
    plan = plan_sale("NUGGET", 3, held=3, money=MAX_MONEY - 12_000)
    assert plan.quantity == 2 and "takes 2" in plan.note


def test_a_sale_the_clerk_would_refuse_is_not_offered() -> None:
    assert plan_sale("DOME_FOSSIL", 1, held=1, money=0).quantity == 0
    assert plan_sale("HM_CUT", 1, held=1, money=0).quantity == 0
    assert plan_sale("EXP_ALL", 1, held=1, money=0).note == "EXP_ALL: worth nothing to a Mart"
    assert plan_sale("NUGGET", 2, held=0, money=0).quantity == 0
    short = plan_sale("NUGGET", 5, held=2, money=0)
    assert short.quantity == 2 and "the bag holds 2" in short.note


def test_stored_nuggets_are_taken_out_while_the_bag_has_room() -> None:
    roomy = stored(holding(("POTION", 3)), ("TM_BLIZZARD", 1), ("NUGGET", 2))
    assert to_take(roomy, free_kept=2) == ("NUGGET", 2)
    assert to_take(stored(holding(("POTION", 3)), ("TM_BLIZZARD", 1)), free_kept=2) is None
    machines = [name for name in game_data().item_ids if name.startswith("TM_")]
    crowded = [(name, 1) for name in machines[: BAG_CAPACITY - 2]]  # one more kind leaves one free
    assert to_take(stored(holding(*crowded), ("NUGGET", 1)), free_kept=2) is None
    # A NUGGET already in the bag takes no new kind of room.
    assert to_take(stored(holding(*crowded[:-1], ("NUGGET", 1)), ("NUGGET", 1)), free_kept=2) == ("NUGGET", 1)
