"""PokemonRed-v0 and PokemonBlue-v0: one game of Pokémon Red or Blue on PyBoy as a Gymnasium environment.

The observation is the screen (and, with `ram=True`, a vector of what RAM says: features.py); the actions
are the eight buttons (buttons.py) or the engine's decisions (decisions.py); the reward is the story's
progress (rewards.py). Every step is bounded: a button step emulates exactly `frames_per_step` frames, a
decision one leg of at most `leg_steps` squares or one battle action, each closed loop within its own frame
budget, and a game that freezes inside the emulator is stopped by the session's watchdog (the episode is
then truncated, with the error in `info["error"]`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, SupportsFloat

import gymnasium
import numpy as np

from engine.config import EngineConfig, load_config
from engine.emulator.errors import GameFrozenError
from engine.errors import EngineError
from engine.game.models import GameState
from engine.gym.buttons import RENDERED_FRAMES, ButtonActions
from engine.gym.cartridge import cartridge_for, game_named
from engine.gym.decisions import DecisionActions
from engine.gym.errors import GymError
from engine.gym.features import SCREEN_SHAPE, observation_space, ram_vector, screen_pixels
from engine.gym.rewards import RewardTracker
from engine.gym.settings import EnvSettings, env_settings
from engine.gym.starts import Starts, StateSource, chosen_state, read_state
from engine.harness.ram_text import describe_state
from engine.play.session import GameSession
from engine.story.graph import StoryGraph, story_graph

Observation = np.ndarray | dict[str, np.ndarray]
GAME_BOY_FPS = 60
RENDER_MODES = ("rgb_array",)


class PokemonEnv(gymnasium.Env[Observation, np.int64]):
    metadata = {"render_modes": list(RENDER_MODES), "render_fps": GAME_BOY_FPS}  # noqa: RUF012 (Gymnasium's)

    def __init__(
        self,
        game: str = "red",
        rom: str | Path | None = None,
        state: StateSource | None = None,
        render_mode: str | None = None,
        **settings: Any,
    ) -> None:
        """`rom`: the cartridge (else the POKEMON_ROM variable); `state`: where every episode starts unless
        `reset`'s options say otherwise (else power-on, the intro played); `settings`: settings.py."""
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise GymError(
                f"render_mode must be one of {', '.join(RENDER_MODES)} or None, not {render_mode!r}"
            )
        self._closed = True  # nothing to close until the game is open
        self.settings = env_settings(settings)
        path = cartridge_for(game_named(game), rom)
        config = _config(self.settings)
        default = read_state(state, "state") if state is not None else None
        graph = story_graph()
        self.game = _open(path, config)
        self._closed = False
        try:
            self.starts = Starts(self.game, default, self.settings.intro)
            self.actions = self._action_set(config, graph)
        except BaseException:
            self.close()
            raise
        self.render_mode = render_mode
        self.action_space = self.actions.space
        self.observation_space = observation_space(self.settings.ram, self.settings.grayscale)
        self.metadata = {**self.metadata, "render_fps": max(1, round(GAME_BOY_FPS / self._frames_a_step()))}
        self.tracker = RewardTracker(self.settings.rewards, graph)
        self._screen = np.zeros((*SCREEN_SHAPE, 3), dtype=np.uint8)
        self._state: GameState | None = None
        self._steps = 0
        self._first_frame = 0

    def _action_set(self, config: EngineConfig, graph: StoryGraph) -> ButtonActions | DecisionActions:
        settings = self.settings
        if settings.actions == "decisions":
            return DecisionActions(self.game, graph, settings.max_options, settings.leg_steps)
        harness = config.harness
        hold = harness.hold_frames if settings.hold_frames is None else settings.hold_frames
        frames = settings.frames_per_step
        if frames is None:
            frames = harness.hold_frames + harness.release_frames + harness.settle_frames
        return ButtonActions(self.game.role.session, frames, hold, settings.noop)

    def _frames_a_step(self) -> int:
        actions = self.actions
        return actions.frames_per_step if isinstance(actions, ButtonActions) else GAME_BOY_FPS

    # -- the Gymnasium API -------------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """A new episode from `options["state"]` (a save state's bytes or path), else the environment's
        start. `seed` seeds the env's generator: the decisions' explorer, and with `draw_frames` the frames
        idled after loading the start (another draw of the game's random numbers)."""
        self._check_open()
        super().reset(seed=seed)
        self.starts.begin(chosen_state(options))
        if self.settings.draw_frames:
            self.game.role.session.tick(int(self.np_random.integers(self.settings.draw_frames)))
        self._steps = 0
        explorer_seed = int(self.np_random.integers(2**31))
        error, _ = _guarded(lambda: self.actions.begin(explorer_seed))
        self._look()
        self._first_frame = self.game.role.session.frame
        self.tracker.begin(self._state)
        return self._observation(), self._info({}, error, {})

    def step(self, action: np.int64 | int) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        self._check_open()
        chosen = int(action)
        count = int(self.actions.space.n)
        if not 0 <= chosen < count:
            raise GymError(f"action must be 0 to {count - 1}, not {chosen}")
        self._steps += 1
        extra: dict[str, Any] = {}
        error, frozen = _guarded(lambda: extra.update(self.actions.play(chosen)))
        frozen = self._look() or frozen
        parts = self.tracker.score(self._state)
        terminated = self.tracker.finished
        truncated = not terminated and (frozen or self._steps >= self.settings.episode_steps)
        return (
            self._observation(),
            float(sum(parts.values())),
            terminated,
            truncated,
            self._info(extra, error, parts),
        )

    def render(self) -> np.ndarray | None:
        """The screen as RGB (144, 160, 3), as the last step left it; None without render_mode."""
        return self._screen.copy() if self.render_mode == "rgb_array" else None

    def action_masks(self) -> np.ndarray:
        """The actions that mean something now (1) as int8, the name masked policies look for (sb3-contrib's
        MaskablePPO): all of them for buttons, the options there are for decisions."""
        return self.actions.mask()

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self.game.close()

    def _check_open(self) -> None:
        if self._closed:
            raise GymError("the environment is closed: make a new one")

    # -- looking -----------------------------------------------------------------------------------
    def _look(self) -> bool:
        """Render the screen and decode RAM; True when the game has frozen (the screen stays the last)."""
        session = self.game.role.session

        def render() -> None:
            for _ in range(RENDERED_FRAMES):
                self._screen = session.render_frame()

        _, frozen = _guarded(render)
        try:
            self._state = self.game.state()
        except EngineError:
            self._state = None
        return frozen

    def _observation(self) -> Observation:
        screen = screen_pixels(self._screen, self.settings.grayscale)
        if not self.settings.ram:
            return screen
        return {"screen": screen, "ram": ram_vector(self._state)}

    def _info(self, extra: dict[str, Any], error: str | None, parts: dict[str, float]) -> dict[str, Any]:
        state = self._state
        info: dict[str, Any] = {
            "frames": self.game.role.session.frame - self._first_frame,
            "steps": self._steps,
            "map": (state.overworld.map_name or "") if state is not None else "",
            "in_battle": state is not None and state.battle is not None,
            "reward_parts": dict(parts),
            "milestones": self.tracker.milestones_done(),
            "objectives_done": len(self.tracker.best.done),
            **self.actions.info(),
            **extra,
        }
        if error is not None:
            info["error"] = error
        if self.settings.info_text and state is not None:
            info["text"] = describe_state(state)
        return info


def _guarded(work: Callable[[], object]) -> tuple[str | None, bool]:
    """Run `work`; an engine error is the step's to report, not the training loop's to die of: (its one
    line or None, whether the game froze)."""
    try:
        work()
    except EngineError as exc:
        return str(exc), _froze(exc)
    return None, False


def _froze(error: BaseException) -> bool:
    found: BaseException | None = error
    while found is not None:
        if isinstance(found, GameFrozenError):
            return True
        found = found.__cause__
    return False


def _config(settings: EnvSettings) -> EngineConfig:
    try:
        return load_config(settings.config)
    except EngineError as exc:
        raise GymError(str(exc)) from exc


def _open(rom: Path, config: EngineConfig) -> GameSession:
    try:
        return GameSession.open(rom, None, config, start=False)
    except EngineError as exc:
        raise GymError(str(exc)) from exc
