"""Poké Mart arithmetic (engine/game/mart.py), the price table, and the purchase models of a leg."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from engine.game.buttons import Button
from engine.game.decoders import decode_bcd
from engine.game.mart import (
    affordable,
    bag_count,
    bag_room,
    encode_bcd,
    plan_purchase,
    quantity_presses,
    stock_ids,
)
from engine.game.models import BagItem
from engine.game.tables import game_data
from engine.world.goals import Leg, ObjectGoal, Purchase

BALL, POTION = 4, 20  # pret constants/item_constants.asm


def bag(*items: tuple[int, int]) -> tuple[BagItem, ...]:
    return tuple(BagItem(item_id=item_id, name=None, quantity=quantity) for item_id, quantity in items)


def test_prices_come_from_pret_tables() -> None:
    prices = game_data().item_prices
    # data/items/prices.asm and data/items/tm_prices.asm (thousands)
    assert (prices["POKE_BALL"], prices["POTION"], prices["ANTIDOTE"]) == (200, 300, 100)
    assert prices["NUGGET"] == 10000
    assert prices["TM_MEGA_PUNCH"] == 3000 and prices["TM_SUBSTITUTE"] == 2000
    assert "BICYCLE" not in prices and "BOULDERBADGE" not in prices  # priced 0: never sold
    assert set(prices) <= set(game_data().item_ids)


def test_affordable_is_what_the_money_pays_for_at_most_the_box() -> None:
    assert affordable(200, 3000) == 15
    assert affordable(200, 199) == 0
    assert affordable(100, 50_000) == 99  # the quantity box stops at 99
    assert affordable(0, 0) == 99


def test_a_plan_buys_what_it_can_and_says_why_it_is_less() -> None:
    assert plan_purchase("POKE_BALL", 3, price=200, sold=True, money=3000, room=99).quantity == 3
    assert plan_purchase("POKE_BALL", 3, price=200, sold=True, money=3000, room=99).note == ""
    cut = plan_purchase("POKE_BALL", 5, price=200, sold=True, money=500, room=99)
    assert (cut.quantity, cut.note) == (2, "POKE_BALL: 2 of 5 (¥500 pays for 2)")
    roomless = plan_purchase("POKE_BALL", 5, price=200, sold=True, money=3000, room=3)
    assert (roomless.quantity, roomless.note) == (3, "POKE_BALL: 3 of 5 (the bag holds no more)")
    poor = plan_purchase("POKE_BALL", 1, price=200, sold=True, money=150, room=99)
    assert (poor.quantity, poor.note) == (0, "POKE_BALL: none bought (¥200 each, ¥150 in hand)")
    full = plan_purchase("POKE_BALL", 1, price=200, sold=True, money=3000, room=0)
    assert (full.quantity, full.note) == (0, "POKE_BALL: none bought (the bag is full)")
    unsold = plan_purchase("POTION", 2, price=300, sold=False, money=3000, room=99)
    assert (unsold.quantity, unsold.note) == (0, "POTION: not sold here")
    assert plan_purchase("BICYCLE", 1, price=None, sold=True, money=3000, room=99).quantity == 0


@pytest.mark.parametrize(
    ("wanted", "start", "presses"),
    [(1, 1, (Button.UP, 0)), (3, 1, (Button.UP, 2)), (50, 1, (Button.UP, 49)), (51, 1, (Button.DOWN, 49)),
     (99, 1, (Button.DOWN, 1)), (2, 99, (Button.UP, 2)), (5, 7, (Button.DOWN, 2))],
)  # fmt: skip
def test_the_quantity_box_is_set_the_short_way_round(
    wanted: int, start: int, presses: tuple[Button, int]
) -> None:
    assert quantity_presses(wanted, start=start) == presses


def test_the_quantity_box_refuses_what_it_cannot_show() -> None:
    for wanted in (0, 100):
        with pytest.raises(ValueError):
            quantity_presses(wanted)


def test_the_stock_is_read_as_wItemList_holds_it() -> None:
    # Viridian Mart: POKE_BALL, ANTIDOTE, PARLYZ_HEAL, BURN_HEAL (pret data/items/marts.asm)
    assert stock_ids(bytes([4, 4, 11, 15, 12, 0xFF, 0, 0])) == (4, 11, 15, 12)
    assert stock_ids(bytes([3, 4, 0xFF, 7])) == (4,)  # a terminator before the count: the list ends
    assert stock_ids(b"") == ()


def test_the_bag_counts_every_stack_and_has_room_in_stacks_and_free_slots() -> None:
    held = bag((BALL, 99), (POTION, 3), (BALL, 10))
    assert bag_count(held, BALL) == 109 and bag_count(held, 99) == 0
    assert bag_room(held, BALL) == 89 + 17 * 99
    full = bag(*((item_id, 1) for item_id in range(30, 50)))
    assert bag_room(full, BALL) == 0
    assert bag_room(full, 30) == 98


def test_money_is_written_as_the_game_keeps_it() -> None:
    assert encode_bcd(3000) == bytes([0x00, 0x30, 0x00])
    for value in (0, 7, 99, 12_345, 999_999):
        assert decode_bcd(encode_bcd(value)) == value
    with pytest.raises(ValueError):
        encode_bcd(1_000_000)


def test_a_purchase_names_a_real_item_and_a_quantity_the_box_offers() -> None:
    assert Purchase(item="POKE_BALL", quantity=3).quantity == 3
    for bad in ({"item": "POKEBALL", "quantity": 1}, {"item": "POTION", "quantity": 0},
                {"item": "POTION", "quantity": 100}):  # fmt: skip
        with pytest.raises(ValidationError):
            Purchase.model_validate(bad)
    goal = ObjectGoal(map_id=42, index=1)
    assert Leg(goal=goal).buy == ()
    leg = Leg(goal=goal, buy=(Purchase(item="POTION", quantity=2),))
    assert Leg.model_validate_json(leg.model_dump_json()) == leg


def test_a_purchase_falls_back_to_its_first_alternative_the_mart_stocks() -> None:
    ids = game_data().item_ids
    balls = Purchase(item="POKE_BALL", quantity=5, or_else=("GREAT_BALL", "ULTRA_BALL"))
    saffron = (ids["GREAT_BALL"], ids["HYPER_POTION"], ids["ULTRA_BALL"])  # pret marts.asm: no POKE_BALL
    assert balls.stocked(saffron) == Purchase(item="GREAT_BALL", quantity=5)
    assert balls.stocked((ids["POKE_BALL"], ids["GREAT_BALL"])) is balls
    assert balls.stocked((ids["POTION"],)) is balls  # none of them: the Mart's "not sold here" note
    with pytest.raises(ValidationError):
        Purchase(item="POKE_BALL", quantity=1, or_else=("NOT_AN_ITEM",))
