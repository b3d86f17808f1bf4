"""Tier selection: the router's rules, the battle profile from real captures, the cost ledger's budgets."""

from __future__ import annotations

import pytest

from engine.config import ModelTierConfig, RoutingConfig
from engine.game.capture import load_capture
from engine.game.models import GameState
from engine.game.ram import RED_BLUE
from engine.game.state import decode_state
from engine.llm.complexity import battle_kind, closeness, profile
from engine.llm.ledger import CostLedger, call_cost
from engine.llm.router import TaskProfile, tiers_from, wanted_tier
from engine.llm.wire import Usage
from tests.conftest import GEN1_FIXTURES

ROUTING = RoutingConfig()


def state(name: str) -> GameState:
    return decode_state(load_capture(GEN1_FIXTURES / name), RED_BLUE)


@pytest.mark.parametrize(
    ("task", "battle", "tier"),
    [
        ("tactics", "wild", "rule_based"),
        ("tactics", "trainer", "acting"),
        ("tactics", "boss", "acting"),
        ("strategy", "none", "rule_based"),
        ("strategy", "wild", "rule_based"),
        ("strategy", "trainer", "acting"),
        ("strategy", "boss", "thinking"),
        ("reflection", "none", "thinking"),
    ],
)
def test_default_routing(task: str, battle: str, tier: str) -> None:
    chosen, reason = wanted_tier(TaskProfile(task=task, battle=battle), ROUTING)  # type: ignore[arg-type]
    assert chosen == tier
    assert reason


def test_a_close_or_outlevelled_fight_goes_one_tier_up() -> None:
    close = TaskProfile(task="tactics", battle="wild", closeness=0.7, opponent="ONIX")
    tier, reason = wanted_tier(close, ROUTING)
    assert tier == "acting" and "close battle (70% loss risk)" in reason and "ONIX" in reason
    gap = TaskProfile(task="tactics", battle="boss", level_gap=6)
    tier, reason = wanted_tier(gap, ROUTING)
    assert tier == "thinking" and "6 levels higher" in reason
    assert wanted_tier(TaskProfile(task="tactics", battle="wild", closeness=0.59), ROUTING)[0] == "rule_based"
    outnumbered = TaskProfile(task="tactics", battle="trainer", our_remaining=1, enemy_remaining=3)
    tier, reason = wanted_tier(outnumbered, ROUTING)
    assert tier == "thinking" and "outnumbered 1 to 3" in reason
    even = TaskProfile(task="tactics", battle="trainer", our_remaining=2, enemy_remaining=2)
    assert wanted_tier(even, ROUTING)[0] == "acting"
    quiet = RoutingConfig(escalate_when_outnumbered=False)
    assert wanted_tier(outnumbered, quiet)[0] == "acting"


def test_thinking_never_goes_higher() -> None:
    routing = RoutingConfig(tactics_boss="thinking")
    assert wanted_tier(TaskProfile(task="tactics", battle="boss", closeness=0.9), routing)[0] == "thinking"


def test_the_fallback_chain_walks_down() -> None:
    assert tiers_from("thinking") == ["thinking", "acting", "rule_based"]
    assert tiers_from("rule_based") == ["rule_based"]


def test_profiles_from_real_battles() -> None:
    brock = profile(state("red_brock_main_menu"), "tactics")
    assert brock.battle == "boss" and brock.opponent.startswith("BROCK")
    assert brock.our_remaining >= 1 and brock.enemy_remaining >= 1
    wild = profile(state("red_wild_main_menu"), "tactics")
    assert wild.battle == "wild" and wild.opponent == "PIDGEY"
    assert profile(state("red_pallet_town_overworld"), "strategy").battle == "none"
    assert battle_kind(None) == "none"


def test_closeness_orders_easy_and_hard_fights() -> None:
    values = {name: closeness(state(name)) for name in (
        "red_brock_main_menu", "red_brock_second_mon_onix", "blue_misty_move_menu", "red_wild_main_menu",
        "red_wild_enemy_paralyzed",
    )}  # fmt: skip
    assert all(0.0 <= value <= 1.0 for value in values.values())
    # Water against rock and grass against water are one-sided; PIKACHU's electric moves against a grass
    # ODDISH of its own level are the closest fight in the captures.
    assert values["red_brock_main_menu"] < 0.2 and values["red_brock_second_mon_onix"] < 0.2
    assert values["blue_misty_move_menu"] < 0.2
    assert max(values, key=values.__getitem__) == "red_wild_enemy_paralyzed"
    assert closeness(state("red_pallet_town_overworld")) == 0.0


def tier_config() -> ModelTierConfig:
    return ModelTierConfig(provider="openai", model="m", price_input_per_mtok=3.0, price_output_per_mtok=15.0)


def test_cost_is_prices_times_reported_tokens() -> None:
    assert call_cost(tier_config(), Usage(input_tokens=2000, output_tokens=100)) == pytest.approx(0.0075)


def test_budgets_roll_over_with_time() -> None:
    now = [0.0]
    ledger = CostLedger(hourly_usd=0.01, daily_usd=0.014, clock=lambda: now[0])
    ledger.record("acting", tier_config(), Usage(input_tokens=2000, output_tokens=100))  # $0.0075
    assert ledger.over_budget(0.001) is None
    hourly = ledger.over_budget(0.003)
    assert hourly is not None and hourly.startswith("hourly budget $0.01: $0.0075 spent")
    now[0] = 3601.0  # an hour later the hourly window is empty again, the daily one is not
    assert ledger.over_budget(0.005) is None
    ledger.record("acting", tier_config(), Usage(input_tokens=2000, output_tokens=100))
    ledger.record("thinking", tier_config(), Usage(input_tokens=0, output_tokens=0))
    daily = ledger.over_budget(0.001)
    assert daily is not None and daily.startswith("daily budget $0.014: $0.0150 spent")
    totals = ledger.totals()
    assert totals["acting"].calls == 2 and totals["thinking"].cost_usd == 0.0
    now[0] = 3601.0 + 86401.0
    assert ledger.spent(86400.0) == 0.0
