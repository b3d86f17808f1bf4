"""Where an episode begins: the save state `reset`'s options name, else the one the environment was made
with, else power-on (with the intro played by the engine's own automation, once: later resets load the
bedroom it reached, so every episode without a state starts from the same frame)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from engine.errors import EngineError
from engine.gym.errors import GymError
from engine.play.session import GameSession

StateSource = bytes | str | os.PathLike[str]
RESET_OPTIONS = ("state",)


def read_state(source: object, what: str) -> bytes:
    """A save state's bytes, from bytes or from a file's path (exported by the engine or plain PyBoy)."""
    if isinstance(source, bytes | bytearray | memoryview):
        data = bytes(source)
    elif isinstance(source, str | os.PathLike):
        data = _read_file(Path(source), what)
    else:
        raise GymError(f"{what} must be a save state's bytes or a file's path, not {type(source).__name__}")
    if not data:
        raise GymError(f"{what} is empty")
    return data


def _read_file(path: Path, what: str) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise GymError(f"{what}: no such file {path}") from None
    except IsADirectoryError:
        raise GymError(f"{what}: {path} is a directory, not a save state") from None
    except OSError as exc:
        raise GymError(f"{what}: cannot read {path}: {exc.strerror}") from exc


def chosen_state(options: Mapping[str, Any] | None) -> bytes | None:
    """The state `reset(options=...)` asks for; None: the environment's own start."""
    if not options:
        return None
    if not isinstance(options, Mapping):
        raise GymError(f"reset's options must be a dict, not {type(options).__name__}")
    unknown = sorted(str(key) for key in options if key not in RESET_OPTIONS)
    if unknown:
        raise GymError(f"unknown reset option {unknown[0]!r} (the options are {', '.join(RESET_OPTIONS)})")
    source = options.get("state")
    return None if source is None else read_state(source, "options['state']")


class Starts:
    """Loads an episode's start into the game. Built right after the game opened: that is power-on."""

    def __init__(self, game: GameSession, default: bytes | None, intro: bool) -> None:
        self.game = game
        self.power_on = game.role.session.save_state()
        self.default = default
        self.intro = intro
        self._bedroom: bytes | None = None
        if default is not None:
            self.load(default, "the environment's state")  # a bad one fails at make, not at a reset

    def begin(self, chosen: bytes | None) -> None:
        if chosen is not None:
            self.load(chosen, "options['state']")
        elif self.default is not None:
            self.load(self.default, "the environment's state")
        elif not self.intro:
            self.load(self.power_on, "power-on")
        else:
            self.load(self._bedroom or self._play_intro(), "the bedroom")

    def load(self, state: bytes, what: str) -> None:
        try:
            self.game.load_state(state)
        except EngineError as exc:
            raise GymError(f"{what}: {exc}") from exc

    def _play_intro(self) -> bytes:
        self.load(self.power_on, "power-on")
        try:
            self.game.role.start(None)
        except EngineError as exc:
            raise GymError(f"the intro could not be played on this cartridge ({exc}): give a state, "
                           "or intro=False to start at power-on") from exc  # fmt: skip
        self.game.role.take_intro_lines()
        self._bedroom = self.game.role.session.save_state()
        return self._bedroom
