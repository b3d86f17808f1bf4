"""PyBoy's Pokémon game wrapper kept from working after every tick (engine.emulator.wrapper): the session
runs with the quiet one in the plugin manager, and plays the very same frames as a plain PyBoy."""

from __future__ import annotations

import io
import warnings
from pathlib import Path

import pytest

from engine.emulator.session import EmulatorSession
from engine.emulator.wrapper import quiet_game_wrapper

with warnings.catch_warnings():
    warnings.simplefilter("ignore", UserWarning)
    from pyboy import PyBoy
    from pyboy.plugins.game_wrapper_pokemon_gen1 import GameWrapperPokemonGen1
    from pyboy.utils import WindowEvent

pytestmark = pytest.mark.rom

FRAMES = 1500  # the intro: the title screen, then START, then Oak's speech
PRESSES = (600, 900, 1000, 1100, 1200, 1300)  # frames at which START is pressed (title, then the text)


def test_the_session_quiets_the_wrapper_and_keeps_pyboys_own(rom_path: Path) -> None:
    with EmulatorSession(rom_path) as session:
        manager = session.pyboy._plugin_manager
        assert type(manager.game_wrapper_pokemon_gen1) is not GameWrapperPokemonGen1
        assert isinstance(manager.game_wrapper_pokemon_gen1, GameWrapperPokemonGen1)
        assert type(session.pyboy.game_wrapper) is GameWrapperPokemonGen1  # what a tool would use


def test_quieting_changes_no_frame(rom_path: Path) -> None:
    def play(quiet: bool) -> bytes:
        pyboy = PyBoy(str(rom_path), window="null", sound_emulated=False, log_level="ERROR",
                      ram_file=io.BytesIO(bytes(0x8000)))  # fmt: skip
        try:
            if quiet:
                assert quiet_game_wrapper(pyboy)
            for frame in range(0, FRAMES, 2):  # two frames a tick, as the engine waits
                if frame in PRESSES:
                    pyboy.send_input(WindowEvent.PRESS_BUTTON_START)
                elif frame - 4 in PRESSES:
                    pyboy.send_input(WindowEvent.RELEASE_BUTTON_START)
                pyboy.tick(2, False, False)
            buffer = io.BytesIO()
            pyboy.save_state(buffer)
            return buffer.getvalue()
        finally:
            pyboy.stop(save=False)

    assert play(quiet=True) == play(quiet=False)


def test_a_pyboy_without_the_manager_is_left_alone() -> None:
    assert quiet_game_wrapper(object()) is False
