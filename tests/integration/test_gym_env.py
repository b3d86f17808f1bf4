"""PokemonRed-v0 on a generated cartridge (tests.support.romgen: it passes the cartridge check and PyBoy
runs it; its RAM is junk): Gymnasium's own checker passes, the spaces are the settings', a step emulates
exactly its frames, the same start and actions give the same game, what the environment cannot use is
refused in one line, and two environments run in Gymnasium's async vector env."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import engine.gym  # noqa: F401  (registers the ids)
from engine.gym.env import PokemonEnv
from engine.gym.errors import GymError
from engine.gym.features import RAM_FEATURES
from tests.support.gym_envs import env_maker
from tests.support.romgen import FRAME_COUNTER_AT, write_titled

WRAM = (0xC000, 0x2000)


@pytest.fixture
def rom(tmp_path: Path) -> Path:
    return write_titled(tmp_path, "red")


@pytest.fixture
def make(rom: Path) -> Iterator[Any]:
    with env_maker("PokemonRed-v0", rom=rom, intro=False) as build:
        yield build


def machine(env: PokemonEnv) -> bytes:
    """The game's work RAM and the generated program's frame counter."""
    session = env.game.role.session
    return session.read(*WRAM) + bytes([session.read_u8(FRAME_COUNTER_AT)])


@pytest.mark.parametrize(
    "settings",
    [{}, {"ram": True, "grayscale": True, "noop": True}, {"frames_per_step": 8, "hold_frames": 2}],
)
def test_gymnasiums_checker_passes(make: Any, settings: dict[str, Any]) -> None:
    check_env(make(**settings))


def test_the_spaces_follow_the_settings(make: Any) -> None:
    plain = make()
    assert plain.action_space == gymnasium.spaces.Discrete(8)
    assert plain.observation_space.shape == (144, 160, 3)
    rich = make(ram=True, grayscale=True, noop=True)
    assert rich.action_space == gymnasium.spaces.Discrete(9)
    observation, _ = rich.reset(seed=1)
    assert observation["screen"].shape == (144, 160, 1) and observation["ram"].shape == (len(RAM_FEATURES),)
    assert observation in rich.observation_space
    assert (rich.action_masks() == 1).all()


def test_a_step_emulates_exactly_its_frames(make: Any) -> None:
    env = make(frames_per_step=10, hold_frames=3, noop=True)
    env.reset(seed=0)
    for count, action in enumerate([0, 8, 5], start=1):
        *_, info = env.step(action)
        assert info["frames"] == 10 * count and info["steps"] == count
    assert info["pressed"] == "down"
    for _ in range(20):  # past PyBoy's boot sequence, into the cartridge's loop
        env.step(8)
    before = machine(env)[-1]
    for action in (0, 8, 5):
        env.step(action)
    assert (machine(env)[-1] - before) % 256 == 30  # the cartridge counts its VBlanks: one a frame


def test_the_harness_frames_are_the_default(make: Any) -> None:
    env = make()
    env.reset()
    *_, info = env.step(0)
    assert info["frames"] == 8 + 8 + 24  # harness: hold, release, settle


def test_the_same_start_and_actions_give_the_same_game(make: Any) -> None:
    env = make(ram=True)
    env.reset(seed=7)
    for action in (0, 3, 4, 5, 6):  # past PyBoy's boot sequence
        env.step(action)
    middle = env.game.save_state()

    def play() -> list[Any]:
        first, _ = env.reset(seed=7, options={"state": middle})
        seen = [first["ram"], machine(env)]
        for action in (0, 1, 2, 7, 7):
            observation, reward, _, _, info = env.step(action)
            seen += [observation["ram"], reward, info["frames"], machine(env)]
        return seen

    seen = play()
    assert seen[1] != seen[-1]  # the game moved on
    assert all(np.array_equal(a, b) for a, b in zip(seen, play(), strict=True))


def test_draw_frames_make_each_seed_another_draw_of_one_start(make: Any) -> None:
    env = make(draw_frames=600)
    env.reset(seed=0)
    start = env.game.save_state()

    def frame_after_reset(seed: int) -> int:
        """Frames the reset emulated (the session's counter runs on across loaded states)."""
        before = int(env.game.role.session.frame)
        env.reset(seed=seed, options={"state": start})
        return int(env.game.role.session.frame) - before

    frames = [frame_after_reset(seed) for seed in (1, 1, 2, 3, 4)]
    assert frames[0] == frames[1], "one seed, one draw"
    assert len(set(frames[1:])) > 1, "other seeds idle other frame counts"


def test_a_state_named_at_make_or_at_reset_is_where_episodes_start(make: Any, tmp_path: Path) -> None:
    env = make()
    env.reset()
    for _ in range(3):
        env.step(0)
    saved = tmp_path / "later.state"
    saved.write_bytes(env.game.save_state())
    later = machine(env)
    env.reset()
    assert machine(env) != later
    env.reset(options={"state": saved})
    assert machine(env)[:-1] == later[:-1]  # the two rendered frames moved the counter on
    starting_there = make(state=str(saved))
    starting_there.reset()
    assert machine(starting_there) == machine(env)


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"slot": 1}, "unknown reset option 'slot' (the options are state)"),
        ({"state": b"not a state"}, "options['state']: the save state is unreadable"),
        ({"state": 1.5}, "options['state'] must be a save state's bytes or a file's path, not float"),
    ],
)
def test_bad_reset_options_are_refused_in_one_line(make: Any, options: dict[str, Any], words: str) -> None:
    env = make()
    env.reset()
    with pytest.raises(GymError) as refused:
        env.reset(options=options)
    assert str(refused.value).startswith(words) and "\n" not in str(refused.value)
    env.reset()  # the environment plays on
    env.step(0)


def test_a_state_of_another_cartridge_is_refused(make: Any, tmp_path: Path) -> None:
    other = gymnasium.make("PokemonBlue-v0", rom=write_titled(tmp_path, "blue"), intro=False)
    other.reset()
    state = other.unwrapped.game.save_state()  # type: ignore[attr-defined]
    other.close()
    with pytest.raises(GymError, match=r"options\['state'\]: the save state was made with another cartridge"):
        make().reset(options={"state": state})


@pytest.mark.parametrize(
    ("settings", "words"),
    [
        ({"actions": "decisions"}, "the decisions action set walks on the cartridge's maps"),
        ({"frames_per_step": 5, "hold_frames": 4}, "frames_per_step (5) must leave 2 frames after"),
        ({"speed": 2}, "invalid environment setting: speed: unknown"),
        ({"state": "/nowhere/start.state"}, "state: no such file /nowhere/start.state"),
        ({"config": "/nowhere/config.yaml"}, "config file not found: /nowhere/config.yaml"),
    ],
)
def test_what_the_environment_cannot_use_is_refused_at_make(
    rom: Path, settings: dict[str, Any], words: str
) -> None:
    with pytest.raises(GymError) as refused:
        gymnasium.make("PokemonRed-v0", rom=rom, intro=False, **settings)
    assert str(refused.value).startswith(words) and "\n" not in str(refused.value)


def test_the_wrong_game_and_other_render_modes_are_refused(rom: Path) -> None:
    with pytest.raises(GymError, match=r"PokemonBlue-v0 plays Pokémon Blue, but .* is Pokémon Red"):
        gymnasium.make("PokemonBlue-v0", rom=rom)
    with pytest.raises(GymError, match="render_mode must be one of rgb_array or None, not 'ansi'"):
        PokemonEnv(rom=rom, render_mode="ansi")


def test_the_intro_needs_a_game_that_plays_it(rom: Path) -> None:
    env = gymnasium.make("PokemonRed-v0", rom=rom)
    with pytest.raises(GymError, match=r"the intro could not be played on this cartridge .*intro=False"):
        env.reset()
    env.close()


def test_an_action_outside_the_space_is_refused(make: Any) -> None:
    env = make()
    env.reset()
    with pytest.raises(GymError, match="action must be 0 to 7, not 8"):
        env.step(8)


def test_a_closed_environment_says_so(rom: Path) -> None:
    env = PokemonEnv(rom=rom, intro=False)
    env.reset()
    env.close()
    env.close()  # twice is fine
    with pytest.raises(GymError, match="the environment is closed"):
        env.step(0)


def test_episodes_are_truncated_after_max_steps(make: Any) -> None:
    env = make(max_steps=2)
    env.reset()
    assert env.step(0)[3] is False
    assert env.step(0)[3] is True


def test_render_gives_the_screen_in_colour(rom: Path, make: Any) -> None:
    env = make(grayscale=True, render_mode="rgb_array")
    env.reset()
    frame = env.render()
    assert frame is not None and frame.shape == (144, 160, 3) and frame.dtype == np.uint8
    assert make().render() is None


def test_two_environments_in_the_async_vector_env(rom: Path) -> None:
    envs = gymnasium.vector.AsyncVectorEnv(
        [lambda: gymnasium.make("PokemonRed-v0", rom=rom, intro=False, ram=True)] * 2
    )
    try:
        observations, _ = envs.reset(seed=[3, 3])
        assert observations["screen"].shape == (2, 144, 160, 3)
        assert np.array_equal(observations["ram"][0], observations["ram"][1])
        for _ in range(3):
            observations, rewards, _, _, infos = envs.step(np.array([0, 4]))
        assert observations["ram"].shape == (2, len(RAM_FEATURES)) and rewards.shape == (2,)
        assert list(infos["frames"]) == [120, 120] and list(infos["pressed"]) == ["a", "up"]
    finally:
        envs.close()


def test_make_vec_builds_them_too(rom: Path) -> None:
    envs = gymnasium.make_vec("PokemonRed-v0", num_envs=2, vectorization_mode="sync", rom=rom, intro=False)
    try:
        observations, _ = envs.reset(seed=0)
        assert observations.shape == (2, 144, 160, 3)
    finally:
        envs.close()
