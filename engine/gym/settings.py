"""The keywords `gymnasium.make` passes on to the environment, checked once: an unknown name or a value
out of range is a GymError naming it, before any emulator starts."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import Field, ValidationError

from engine.frozen import Frozen
from engine.gym.errors import GymError

ActionSetName = Literal["buttons", "decisions"]
# Episodes end (truncated) after this many steps unless `max_steps` says otherwise: a decision is a whole
# leg of walking or a battle turn, a button step two thirds of a second of play.
DEFAULT_MAX_STEPS: dict[ActionSetName, int] = {"buttons": 10_000, "decisions": 2_000}


class RewardWeights(Frozen):
    """What each kind of progress is worth. Each counts once an episode: only what goes past the best the
    episode has seen earns it, so nothing is earned twice by undoing and redoing it."""

    milestone: float = 5.0  # one of the twelve milestones done (on top of `objective`: it is one too)
    objective: float = 1.0  # a story objective done (engine/story/data/objectives.json)
    event: float = 0.1  # an event flag set (the game's own record of story progress)
    town: float = 1.0  # a town visited (its Pokémon Center or its FLY point counts it)
    level: float = 0.2  # a party level above the episode's highest sum of levels
    caught: float = 0.5  # a species owned in the Pokédex above the episode's highest count
    new_map: float = 0.1  # a map entered for the first time in the episode
    new_square: float = 0.0  # a square stood on for the first time in the episode
    step: float = 0.0  # every step (a negative value is a cost of time)


class EnvSettings(Frozen):
    actions: ActionSetName = "buttons"
    ram: bool = False  # the observation is a Dict of the screen and a vector of what RAM says
    grayscale: bool = False  # the screen as (144, 160, 1) luminance instead of (144, 160, 3) RGB
    # buttons: the frames one step emulates, the button held the first `hold_frames` of them (None: the
    # harness config's hold_frames + release_frames + settle_frames, and its hold_frames)
    frames_per_step: int | None = Field(None, ge=3, le=3600)
    hold_frames: int | None = Field(None, ge=1, le=60)
    noop: bool = False  # buttons: a ninth action that presses nothing and lets the frames pass
    max_options: int = Field(16, ge=2, le=64)  # decisions: the size of the action space
    leg_steps: int = Field(400, ge=1, le=5000)  # decisions: the most squares one leg walks
    max_steps: int | None = Field(None, ge=1)  # None: DEFAULT_MAX_STEPS of the action set
    # After loading the start the game idles a number of frames drawn from [0, draw_frames) with the env's
    # seeded generator: the game's random numbers follow the frame count, so each episode is another draw
    # of the same start (damage rolls, encounters) and reset(seed=s) repeats one. 0: every episode alike.
    draw_frames: int = Field(0, ge=0, le=3600)
    intro: bool = True  # without a state: play the intro to the bedroom (once; later resets load it)
    rewards: RewardWeights = RewardWeights()
    config: Path | None = None  # an engine YAML config overlaying the defaults (players' names, frames)
    info_text: bool = False  # info["text"]: what RAM says, as the buttons harness level's text

    @property
    def episode_steps(self) -> int:
        return self.max_steps if self.max_steps is not None else DEFAULT_MAX_STEPS[self.actions]


def env_settings(values: dict[str, Any]) -> EnvSettings:
    try:
        return EnvSettings.model_validate(values)
    except ValidationError as exc:
        raise GymError(f"invalid environment setting: {_first_problem(exc)}") from exc


def _first_problem(error: ValidationError) -> str:
    first = error.errors()[0]
    key = ".".join(str(part) for part in first["loc"]) or "settings"
    if first["type"] == "extra_forbidden":
        model = RewardWeights if first["loc"][0] == "rewards" else EnvSettings
        return f"{key}: unknown (the names are {', '.join(model.model_fields)})"
    return f"{key}: {first['msg']}"
