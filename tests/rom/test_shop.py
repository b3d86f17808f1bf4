"""Buying and selling at a Poké Mart on a real cartridge: a leg with `buy` or `sell` walks to the clerk, goes
through the Mart's menus and reports what RAM shows bought and sold; what the Mart does not sell, or the
money does not pay for, or the clerk will not buy, is skipped, and the player can walk again afterwards."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.config import EmulatorConfig
from engine.emulator.session import open_session
from engine.game.models import DecisionPoint, GameState
from engine.mechanics.role import EmulatorRole
from engine.messages import LegReport
from engine.world.goals import Leg, MapGoal, ObjectGoal, Purchase
from engine.world.world import World, load_world
from tests.support.scenarios import set_bag, set_money, state_of
from tests.support.story import story_state

pytestmark = pytest.mark.rom

# (story stage, town, Mart) at the Mart's door. pret data/items/marts.asm: Viridian sells POKE_BALL,
# ANTIDOTE, PARLYZ_HEAL, BURN_HEAL (no POTION); Pewter sells POKE_BALL, POTION and more.
MARTS = {"VIRIDIAN_MART": ("pokedex", "VIRIDIAN_CITY"), "PEWTER_MART": ("pokedex", "PEWTER_CITY")}
CLERK = 1  # pret data/maps/objects/ViridianMart.asm, PewterMart.asm: the clerk is the first object
COOLTRAINER = 3  # Viridian Mart's third object: he talks, he sells nothing
SHOPPING_FRAMES = 3000  # a generous bound on a leg of a few steps and two purchases (~830 frames)


@pytest.fixture(scope="module")
def world(rom_path: Path) -> World:
    return load_world(rom_path.read_bytes())


@pytest.fixture(scope="module")
def at_the_door(rom_path: Path, world: World) -> dict[str, bytes]:
    """Each Mart, just inside its door, at a story stage where it sells."""
    states = {}
    for mart, (stage, town) in MARTS.items():
        with open_session(rom_path, EmulatorConfig()) as session:
            story_state(session, world, stage, town)
            report = EmulatorRole.on_session(session).travel(Leg(goal=MapGoal(map_id=world.by_name[mart].id)))
            assert report.outcome == "arrived", report.reason
            states[mart] = session.export_state()
    return states


@pytest.fixture
def role(rom_path: Path) -> Iterator[EmulatorRole]:
    session = open_session(rom_path, EmulatorConfig())
    yield EmulatorRole.on_session(session)
    session.close()


def shop(role: EmulatorRole, world: World, mart: str, buy: tuple[Purchase, ...], object_index: int = CLERK,
         sell: tuple[Purchase, ...] = ()) -> tuple[GameState, LegReport]:  # fmt: skip
    """From the Mart's door: the state before, and the report of the leg that sold and bought."""
    before = state_of(role.session)
    goal = ObjectGoal(map_id=world.by_name[mart].id, index=object_index)
    return before, role.travel(Leg(goal=goal, buy=buy, sell=sell))


def count(state: GameState, item: str) -> int:
    return sum(entry.quantity for entry in state.bag if entry.name == item)


def assert_free_to_walk(role: EmulatorRole, world: World, town: str) -> None:
    assert state_of(role.session).decision_point is DecisionPoint.OVERWORLD_FREE
    report = role.travel(Leg(goal=MapGoal(map_id=world.by_name[town].id)))
    assert report.outcome == "arrived", report.reason
    assert report.state.overworld.map_name == town


def p(item: str, quantity: int) -> Purchase:
    return Purchase(item=item, quantity=quantity)


@pytest.mark.parametrize(
    ("mart", "buy", "price"),
    [("VIRIDIAN_MART", (p("POKE_BALL", 3), p("ANTIDOTE", 2)), 3 * 200 + 2 * 100),
     ("PEWTER_MART", (p("POKE_BALL", 3), p("POTION", 2)), 3 * 200 + 2 * 300)],
)  # fmt: skip
def test_a_leg_buys_at_the_clerk_and_ram_shows_exactly_that(
    mart: str, buy: tuple[Purchase, ...], price: int, role: EmulatorRole, world: World,
    at_the_door: dict[str, bytes],
) -> None:  # fmt: skip
    role.session.load_state(at_the_door[mart])
    set_money(role.session, 3000)
    before, report = shop(role, world, mart, buy)
    after = report.state
    assert report.outcome == "arrived", report.reason
    assert report.bought == buy
    for purchase in buy:
        assert count(after, purchase.item) == count(before, purchase.item) + purchase.quantity
    assert after.progress.money == before.progress.money - price
    assert {entry.name for entry in after.bag} - {entry.name for entry in before.bag} <= {b.item for b in buy}
    assert any("Here you are!" in line for line in report.text), report.text
    assert report.frames < SHOPPING_FRAMES
    print(f"{mart}: {', '.join(f'{b.quantity} {b.item}' for b in buy)} in {report.frames} frames")
    assert_free_to_walk(role, world, MARTS[mart][1])


def test_more_than_the_money_pays_for_buys_only_what_it_can(
    role: EmulatorRole, world: World, at_the_door: dict[str, bytes]
) -> None:
    role.session.load_state(at_the_door["VIRIDIAN_MART"])
    set_money(role.session, 500)
    before, report = shop(role, world, "VIRIDIAN_MART", (p("POKE_BALL", 5), p("ANTIDOTE", 3)))
    after = report.state
    # ¥500: two balls (¥400), then one antidote (¥100) of the three asked for.
    assert report.bought == (p("POKE_BALL", 2), p("ANTIDOTE", 1))
    assert count(after, "POKE_BALL") == count(before, "POKE_BALL") + 2
    assert count(after, "ANTIDOTE") == count(before, "ANTIDOTE") + 1
    assert after.progress.money == 0
    assert "POKE_BALL: 2 of 5" in report.reason and "ANTIDOTE: 1 of 3" in report.reason, report.reason
    assert_free_to_walk(role, world, "VIRIDIAN_CITY")


def test_what_the_mart_does_not_sell_or_the_money_cannot_pay_is_skipped_without_hanging(
    role: EmulatorRole, world: World, at_the_door: dict[str, bytes]
) -> None:
    role.session.load_state(at_the_door["VIRIDIAN_MART"])
    set_money(role.session, 250)
    buy = (p("POTION", 2), p("BURN_HEAL", 1), p("POKE_BALL", 1), p("ANTIDOTE", 1))
    before, report = shop(role, world, "VIRIDIAN_MART", buy)
    # No potions at Viridian; the burn heal takes ¥250 of ¥250, and nothing is left for the rest.
    assert report.outcome == "arrived" and report.bought == (p("BURN_HEAL", 1),)
    assert "POTION: not sold here" in report.reason, report.reason
    assert "POKE_BALL: none bought" in report.reason and "ANTIDOTE: none bought" in report.reason
    assert count(report.state, "POTION") == count(before, "POTION")
    assert report.state.progress.money == 0
    assert report.frames < SHOPPING_FRAMES
    assert_free_to_walk(role, world, "VIRIDIAN_CITY")


def test_someone_who_is_no_clerk_sells_nothing_and_the_player_walks_on(
    role: EmulatorRole, world: World, at_the_door: dict[str, bytes]
) -> None:
    role.session.load_state(at_the_door["VIRIDIAN_MART"])
    before, report = shop(role, world, "VIRIDIAN_MART", (p("POKE_BALL", 1),), object_index=COOLTRAINER)
    assert report.outcome == "arrived" and report.bought == ()
    assert "without a Mart's menu" in report.reason, report.reason
    assert report.state.bag == before.bag and report.state.progress.money == before.progress.money
    assert report.frames < SHOPPING_FRAMES
    assert_free_to_walk(role, world, "VIRIDIAN_CITY")


# Six kinds: the NUGGETs fifth, below the list's three rows, so the sell list scrolls to them.
BAG = [("POKE_BALL", 5), ("POTION", 3), ("TM_WHIRLWIND", 1), ("BICYCLE", 1), ("NUGGET", 3), ("ANTIDOTE", 2)]


def test_nuggets_are_sold_and_their_money_pays_for_what_is_bought_on_the_same_visit(
    role: EmulatorRole, world: World, at_the_door: dict[str, bytes]
) -> None:
    role.session.load_state(at_the_door["PEWTER_MART"])
    set_bag(role.session, BAG)
    set_money(role.session, 100)
    before, report = shop(role, world, "PEWTER_MART", (p("POTION", 4),), sell=(p("NUGGET", 2),))
    after = report.state
    assert report.outcome == "arrived", report.reason
    # pret data/items/prices.asm: a NUGGET is ¥10,000, a Mart pays half; a POTION costs ¥300.
    assert report.sold == (p("NUGGET", 2),) and report.bought == (p("POTION", 4),)
    assert after.progress.money == 100 + 2 * 5000 - 4 * 300
    assert count(after, "NUGGET") == 1 and count(after, "POTION") == count(before, "POTION") + 4
    assert any("I can pay you" in line for line in report.text), report.text
    assert report.frames < SHOPPING_FRAMES
    assert_free_to_walk(role, world, "PEWTER_CITY")


def test_a_whole_stack_and_a_tm_are_sold_and_a_key_item_is_not_offered(
    role: EmulatorRole, world: World, at_the_door: dict[str, bytes]
) -> None:
    role.session.load_state(at_the_door["VIRIDIAN_MART"])
    set_bag(role.session, BAG)
    set_money(role.session, 0)
    sell = (p("BICYCLE", 1), p("NUGGET", 3), p("TM_WHIRLWIND", 1))
    _, report = shop(role, world, "VIRIDIAN_MART", (), sell=sell)
    after = report.state
    assert report.outcome == "arrived", report.reason
    assert report.sold == (p("NUGGET", 3), p("TM_WHIRLWIND", 1))
    assert "BICYCLE: a Mart will not buy it" in report.reason, report.reason
    # TM_WHIRLWIND: ¥1,000 (pret data/items/tm_prices.asm), half of it paid.
    assert after.progress.money == 3 * 5000 + 500
    kept = [(entry.name, entry.quantity) for entry in after.bag]
    assert kept == [("POKE_BALL", 5), ("POTION", 3), ("BICYCLE", 1), ("ANTIDOTE", 2)]
    assert report.frames < SHOPPING_FRAMES
    assert_free_to_walk(role, world, "VIRIDIAN_CITY")


def test_where_the_mart_does_not_sell_an_item_its_first_stocked_alternative_is_bought(
    role: EmulatorRole, world: World, at_the_door: dict[str, bytes]
) -> None:
    role.session.load_state(at_the_door["VIRIDIAN_MART"])
    set_money(role.session, 1000)
    # No POTION or SUPER_POTION at Viridian; ANTIDOTE is its first alternative the Mart stocks.
    wanted = Purchase(item="POTION", quantity=2, or_else=("SUPER_POTION", "ANTIDOTE", "POKE_BALL"))
    before, report = shop(role, world, "VIRIDIAN_MART", (wanted,))
    assert report.outcome == "arrived" and report.bought == (p("ANTIDOTE", 2),), report.reason
    assert "POTION is not sold here: ANTIDOTE instead" in report.reason, report.reason
    assert count(report.state, "ANTIDOTE") == count(before, "ANTIDOTE") + 2
    assert report.state.progress.money == 1000 - 2 * 100
    assert_free_to_walk(role, world, "VIRIDIAN_CITY")
