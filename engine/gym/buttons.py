"""The button action set: one step is one button pressed (or, with `noop`, none), for an exact number of
frames: held `hold_frames`, let go for the rest of `frames_per_step` but the last two, which the
environment renders for the observation (the first frame rendered after unrendered ones draws the window
a line too high: engine/mechanics/role.py `screens`)."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from engine.emulator.session import EmulatorSession
from engine.game.buttons import Button
from engine.gym.errors import GymError

BUTTONS = tuple(Button)  # a, b, start, select, up, down, left, right: action i presses BUTTONS[i]
RENDERED_FRAMES = 2  # the step's last frames, rendered for the screen


class ButtonActions:
    def __init__(self, session: EmulatorSession, frames_per_step: int, hold_frames: int, noop: bool) -> None:
        if frames_per_step < hold_frames + RENDERED_FRAMES:
            raise GymError(
                f"frames_per_step ({frames_per_step}) must leave {RENDERED_FRAMES} frames after the "
                f"button's hold_frames ({hold_frames})"
            )
        self.session = session
        self.frames_per_step = frames_per_step
        self.hold_frames = hold_frames
        self.labels = tuple(button.value for button in BUTTONS) + (("noop",) if noop else ())
        self.space = spaces.Discrete(len(self.labels))

    def begin(self, seed: int) -> None:
        """Nothing to set up: a button step depends on nothing but the game."""

    def play(self, action: int) -> dict[str, Any]:
        frames = self.frames_per_step - RENDERED_FRAMES
        if action < len(BUTTONS):
            self.session.press(BUTTONS[action], hold_frames=self.hold_frames,
                               release_frames=frames - self.hold_frames)  # fmt: skip
        else:
            self.session.tick(frames)
        return {"pressed": self.labels[action]}

    def mask(self) -> np.ndarray:
        return np.ones(self.space.n, dtype=np.int8)

    def info(self) -> dict[str, Any]:
        return {}
