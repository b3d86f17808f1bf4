"""Experience points by growth rate, against figures any Gen 1 experience table lists."""

from __future__ import annotations

import pytest

from engine.game.errors import GameError
from engine.game.growth import experience_for_level, level_for_experience
from engine.game.tables import game_data


@pytest.mark.parametrize(
    ("rate", "level", "points"),
    [
        ("GROWTH_MEDIUM_SLOW", 5, 135),  # a starter as Professor Oak hands it over
        ("GROWTH_MEDIUM_SLOW", 8, 314),
        ("GROWTH_MEDIUM_SLOW", 100, 1_059_860),
        ("GROWTH_MEDIUM_FAST", 100, 1_000_000),
        ("GROWTH_FAST", 100, 800_000),
        ("GROWTH_SLOW", 50, 156_250),
        ("GROWTH_SLOW", 100, 1_250_000),
    ],
)
def test_points_for_a_level(rate: str, level: int, points: int) -> None:
    assert experience_for_level(rate, level) == points


def test_the_level_of_the_fewest_points_for_a_level_is_that_level_for_every_species_and_level() -> None:
    for rate in {entry.growth_rate for entry in game_data().species_by_name.values()}:
        for level in range(2, 101):
            points = experience_for_level(rate, level)
            assert level_for_experience(rate, points) == level
            assert level_for_experience(rate, points - 1) == level - 1


def test_a_slow_member_with_medium_fast_points_is_levels_lower() -> None:
    # What the game does to an ARCANINE L50 given 50**3 points: its first win re-levels it to 46.
    assert level_for_experience("GROWTH_SLOW", 50**3) == 46


def test_unknown_rates_and_levels_are_refused() -> None:
    with pytest.raises(GameError, match="growth rate"):
        experience_for_level("GROWTH_ERRATIC", 10)
    with pytest.raises(GameError, match="level 101"):
        experience_for_level("GROWTH_SLOW", 101)
