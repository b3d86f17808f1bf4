"""The Gymnasium environment's parts that need no emulator: the rewards from decoded RAM captures, the RAM
vector and the screen as observations, the settings and reset options refused in one line, the cartridge
looked up and checked, and both ids registered."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest

import engine.gym
from engine.game.capture import load_capture
from engine.game.cartridge import Game
from engine.game.models import GameState
from engine.game.ram import RED_BLUE
from engine.game.state import decode_state
from engine.gym.cartridge import ROM_VARIABLE, cartridge_for
from engine.gym.decisions import EXPLORE, HEAL, DecisionActions
from engine.gym.errors import GymError
from engine.gym.features import RAM_FEATURES, observation_space, ram_vector, screen_pixels
from engine.gym.rewards import RewardTracker
from engine.gym.settings import RewardWeights, env_settings
from engine.gym.starts import chosen_state
from engine.story.graph import story_graph
from tests.conftest import GEN1_FIXTURES
from tests.support.romgen import write_titled


def captured(name: str) -> GameState:
    return decode_state(load_capture(GEN1_FIXTURES / name), RED_BLUE)


# -- rewards -----------------------------------------------------------------------------------------------
def test_leaving_the_house_earns_its_milestone_once() -> None:
    tracker = RewardTracker(RewardWeights())
    tracker.begin(captured("red_bedroom_overworld"))
    parts = tracker.score(captured("red_pallet_town_overworld"))
    assert parts == {"objective": 1.0, "milestone": 5.0, "town": 1.0, "new_map": 0.1}
    assert tracker.milestones_done() == ("leave_house",)
    assert tracker.score(captured("red_bedroom_overworld")) == {}  # back indoors: nothing lost
    assert tracker.score(captured("red_pallet_town_overworld")) == {}  # and nothing earned twice


def test_what_the_start_shows_earns_nothing() -> None:
    tracker = RewardTracker(RewardWeights())
    tracker.begin(captured("red_wild_post_battle_overworld"))
    assert tracker.score(captured("red_wild_post_battle_overworld")) == {}
    assert len(tracker.best.done) == 9 and not tracker.finished


def test_the_weights_are_the_settings() -> None:
    weights = RewardWeights(milestone=0.0, objective=2.0, town=0.0, new_map=0.0, step=-0.01)
    tracker = RewardTracker(weights)
    tracker.begin(captured("red_bedroom_overworld"))
    assert tracker.score(captured("red_pallet_town_overworld")) == {"step": -0.01, "objective": 2.0}
    assert tracker.score(None) == {"step": -0.01}  # RAM that could not be decoded: only the step's cost


def test_in_a_battle_only_the_team_counts() -> None:
    tracker = RewardTracker(RewardWeights(new_square=0.5))
    tracker.begin(captured("red_bedroom_overworld"))
    assert tracker.score(captured("red_brock_main_menu")) == {"level": pytest.approx(13 * 0.2)}
    assert tracker.best.maps == {captured("red_bedroom_overworld").overworld.map_id}


# -- observations ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["red_bedroom_overworld", "red_wild_main_menu", "blue_misty_move_menu"])
def test_the_ram_vector_is_inside_its_space(name: str) -> None:
    space = observation_space(ram=True, grayscale=False)
    assert isinstance(space, gymnasium.spaces.Dict)
    vector = ram_vector(captured(name))
    assert vector.shape == (len(RAM_FEATURES),) and vector in space["ram"]


def test_the_ram_vector_clips_junk_and_is_zero_without_ram() -> None:
    state = captured("red_wild_main_menu")
    rich = state.model_copy(update={"progress": state.progress.model_copy(update={"money": 10**9})})
    names = [name for name, _ in RAM_FEATURES]
    assert ram_vector(rich)[names.index("money")] == 999_999
    assert ram_vector(rich)[names.index("battle")] == 1  # wild
    assert not ram_vector(None).any()


def test_the_screen_in_colour_or_grey_is_a_new_array() -> None:
    rgb = np.full((144, 160, 3), 200, dtype=np.uint8)
    colour, grey = screen_pixels(rgb, grayscale=False), screen_pixels(rgb, grayscale=True)
    assert colour.shape == (144, 160, 3) and not np.shares_memory(colour, rgb)
    assert grey.shape == (144, 160, 1) and grey.dtype == np.uint8 and int(grey[0, 0, 0]) == 200
    assert grey in observation_space(ram=False, grayscale=True)


# -- settings and options ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("settings", "words"),
    [
        ({"frames": 4}, "frames: unknown (the names are actions, ram, grayscale"),
        ({"rewards": {"badge": 1.0}}, "rewards.badge: unknown (the names are milestone, objective"),
        ({"actions": "keys"}, "actions: Input should be 'buttons' or 'decisions'"),
        ({"frames_per_step": 1}, "frames_per_step: Input should be greater than or equal to 3"),
        ({"max_options": 1}, "max_options"),
    ],
)
def test_bad_settings_are_refused_in_one_line(settings: dict[str, Any], words: str) -> None:
    with pytest.raises(GymError) as refused:
        env_settings(settings)
    assert words in str(refused.value) and "\n" not in str(refused.value)


def test_settings_have_defaults_per_action_set() -> None:
    assert env_settings({}).episode_steps == 10_000
    assert env_settings({"actions": "decisions"}).episode_steps == 2_000
    assert env_settings({"max_steps": 7, "rewards": {"step": -1}}).episode_steps == 7


def test_reset_options_name_a_state_by_bytes_or_path(tmp_path: Path) -> None:
    saved = tmp_path / "start.state"
    saved.write_bytes(b"state")
    assert chosen_state(None) is None and chosen_state({}) is None and chosen_state({"state": None}) is None
    assert chosen_state({"state": b"state"}) == b"state"
    assert chosen_state({"state": saved}) == b"state" and chosen_state({"state": str(saved)}) == b"state"


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"seed": 1}, "unknown reset option 'seed' (the options are state)"),
        ({"state": 3}, "options['state'] must be a save state's bytes or a file's path, not int"),
        ({"state": b""}, "options['state'] is empty"),
        ({"state": "/nowhere/start.state"}, "options['state']: no such file /nowhere/start.state"),
    ],
)
def test_bad_reset_options_are_refused_in_one_line(options: dict[str, Any], words: str) -> None:
    with pytest.raises(GymError) as refused:
        chosen_state(options)
    assert str(refused.value) == words


# -- the cartridge and the ids -----------------------------------------------------------------------------
def test_the_cartridge_is_the_keyword_else_the_variable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    red = write_titled(tmp_path, "red")
    monkeypatch.delenv(ROM_VARIABLE, raising=False)
    with pytest.raises(GymError, match=r"PokemonRed-v0 needs a cartridge image: .*rom=PATH.*POKEMON_ROM"):
        cartridge_for(Game.RED, None)
    assert cartridge_for(Game.RED, red) == red
    monkeypatch.setenv(ROM_VARIABLE, str(red))
    assert cartridge_for(Game.RED, None) == red


def test_the_cartridge_must_be_the_ids_game(tmp_path: Path) -> None:
    blue = write_titled(tmp_path, "blue")
    with pytest.raises(GymError) as refused:
        cartridge_for(Game.RED, blue)
    assert str(refused.value) == (
        f"PokemonRed-v0 plays Pokémon Red, but {blue} is Pokémon Blue (use PokemonBlue-v0)"
    )
    with pytest.raises(GymError, match="ROM file not found"):
        cartridge_for(Game.BLUE, tmp_path / "missing.gb")


def test_both_ids_are_registered_on_import() -> None:
    for env_id, game in (("PokemonRed-v0", "red"), ("PokemonBlue-v0", "blue")):
        spec = gymnasium.spec(env_id)
        assert spec.entry_point == engine.gym.ENTRY_POINT and spec.kwargs == {"game": game}


# -- the decisions' options --------------------------------------------------------------------------------
class OverworldOnly:
    """A game session's part the options are listed from: never in a battle, settled at `state`."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.role = self

    def in_battle(self) -> bool:
        return False

    def settle(self) -> GameState:
        return self.state

    def world(self) -> object:
        return object()


def test_out_of_battle_the_options_are_the_open_objectives_then_exploring_and_healing() -> None:
    state = captured("red_wild_post_battle_overworld")
    hurt = state.model_copy(update={"party": (state.party[0].model_copy(update={"hp": 1}), *state.party[1:])})
    graph = story_graph()
    actions = DecisionActions(OverworldOnly(hurt), graph, max_options=3, leg_steps=50)  # type: ignore[arg-type]
    actions.decide()
    first = graph.open(hurt)[0]
    info = actions.info()
    assert info["options"][0].startswith(f"{first.name} ({first.title}): next ")
    assert info["options"][1:] == (EXPLORE.label, HEAL.label)  # one objective left room for both
    assert list(info["action_mask"]) == [1, 1, 1] and info["action_mask"].dtype == np.int8
    roomy = DecisionActions(OverworldOnly(state), graph, max_options=16, leg_steps=50)  # type: ignore[arg-type]
    roomy.decide()
    options = roomy.info()["options"]
    assert len(options) == len(graph.open(state)) + 1 and options[-1] == EXPLORE.label
    assert roomy.mask().sum() == len(options)


def test_the_decisions_need_the_cartridges_maps() -> None:
    class NoMaps(OverworldOnly):
        def world(self) -> None:
            return None

    with pytest.raises(GymError, match="the decisions action set walks on the cartridge's maps"):
        DecisionActions(NoMaps(captured("red_bedroom_overworld")), story_graph(), 16, 50)  # type: ignore[arg-type]
