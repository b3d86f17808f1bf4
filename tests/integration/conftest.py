from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.emulator.session import EmulatorSession
from engine.game.cartridge import Game
from tests.support.romgen import write_rom


@pytest.fixture
def test_rom(tmp_path: Path) -> Path:
    return write_rom(tmp_path)


@pytest.fixture
def session(test_rom: Path) -> Iterator[EmulatorSession]:
    with EmulatorSession(test_rom, game=Game.RED) as opened:
        opened.tick(120)  # past PyBoy's own boot sequence into the cartridge's loop
        yield opened
