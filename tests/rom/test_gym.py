"""PokemonRed-v0 / PokemonBlue-v0 on the cartridge: Gymnasium's checker passes for both action sets,
leaving the house by buttons earns the first milestone's reward, and the decisions action set plays the
story's first legs and a battle action."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import engine.gym  # noqa: F401  (registers the ids)
from engine.emulator.rom import check_rom_file
from engine.gym.buttons import BUTTONS
from engine.gym.cartridge import ENV_IDS
from tests.support.gym_envs import env_maker

pytestmark = pytest.mark.rom

MAX_PRESSES = 12  # presses to walk one stretch of the house (a turn, a map's loading, then the squares)


@pytest.fixture
def env_id(rom_path: Path) -> str:
    return ENV_IDS[check_rom_file(rom_path).game]


@pytest.fixture
def make(env_id: str, rom_path: Path, boot_record: tuple[bytes, list[object]]) -> Iterator[Any]:
    """Environments starting in the bedroom, closed after the test."""
    with env_maker(env_id, rom=rom_path, state=boot_record[0]) as build:
        yield build


def test_the_checker_passes_from_power_on_with_the_intro_played(env_id: str, rom_path: Path) -> None:
    env = gymnasium.make(env_id, rom=rom_path, ram=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the checker's warnings too
        check_env(env.unwrapped)
    observation, info = env.reset()
    assert info["map"] == "REDS_HOUSE_2F" and observation["ram"][0] == 38  # the bedroom
    env.close()


def test_the_checker_passes_for_decisions(make: Any) -> None:
    env = make(actions="decisions", ram=True)
    check_env(env)
    _, info = env.reset()
    assert info["options"][0].startswith("leave_house (leave the house): next go PALLET_TOWN")
    assert list(info["action_mask"]) == [1] * len(info["options"]) + [0] * (16 - len(info["options"]))


def test_leaving_the_house_by_buttons_earns_the_first_milestone(make: Any) -> None:
    env = make(ram=True)
    env.reset(seed=0)
    x, y = 1, 2
    stretches: list[tuple[str, Callable[[np.ndarray, dict[str, Any]], bool]]] = [
        ("right", lambda ram, info: ram[x] >= 5),
        ("up", lambda ram, info: ram[y] <= 2),
        ("right", lambda ram, info: ram[x] == 7),
        ("up", lambda ram, info: info["map"] == "REDS_HOUSE_1F"),
        ("down", lambda ram, info: ram[y] == 6),
        ("left", lambda ram, info: ram[x] == 3),
        ("down", lambda ram, info: info["map"] == "PALLET_TOWN"),
    ]
    earned: list[dict[str, float]] = []
    for button, arrived in stretches:
        for _ in range(MAX_PRESSES):
            observation, reward, terminated, truncated, info = env.step(BUTTONS.index(button))
            assert not terminated and not truncated
            if reward:
                earned.append(info["reward_parts"])
            if arrived(observation["ram"], info):
                break
        else:
            pytest.fail(f"pressing {button} never got there: {info['map']} {observation['ram'][:3]}")
    assert earned[-1] == {"objective": 1.0, "milestone": 5.0, "town": 1.0, "new_map": 0.1}
    assert info["milestones"] == ("leave_house",) and info["frames"] == 40 * info["steps"]


def test_decisions_walk_the_story_and_play_a_battle_action(make: Any) -> None:
    env = make(actions="decisions")
    env.reset(seed=0)
    _, reward, _, _, info = env.step(0)
    assert info["chosen"].startswith("leave_house") and info["map"] == "PALLET_TOWN"
    assert info["reward_parts"]["milestone"] == 5.0 and float(reward) > 5.0
    for _ in range(6):  # meet Oak, take a starter, then the rival's battle in the lab
        _, _, _, _, info = env.step(0)
        if info["in_battle"]:
            break
    assert info["in_battle"], info
    labels = info["options"]
    assert labels and all(label.startswith(("use ", "run")) for label in labels)
    _, _, _, _, info = env.step(0)
    assert info["chosen"] == labels[0] and "error" not in info
    _, _, _, _, info = env.step(15)  # masked out: the first option is played, and said so
    assert info["invalid_action"] is True
