"""ROM tests: need a Pokémon Red or Blue cartridge image in POKEMON_ROM, and skip cleanly without one."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.emulator.session import EmulatorSession
from tests.support.scenarios import boot_to_overworld

ROM_VARIABLE = "POKEMON_ROM"


@pytest.fixture(scope="session")
def rom_path() -> Path:
    value = os.environ.get(ROM_VARIABLE)
    if not value:
        pytest.skip(f"{ROM_VARIABLE} is not set: no cartridge image to test against")
    path = Path(value)
    if not path.is_file():
        pytest.fail(f"{ROM_VARIABLE} points at {path}, which is not a file")
    return path


@pytest.fixture(scope="session")
def boot_record(rom_path: Path) -> tuple[bytes, list]:
    """Boot once per test session; each test starts from a copy of the bedroom state."""
    with EmulatorSession(rom_path) as session:
        seen = boot_to_overworld(session)
        return session.save_state(), seen


@pytest.fixture
def game(rom_path: Path, boot_record: tuple[bytes, list]) -> Iterator[EmulatorSession]:
    with EmulatorSession(rom_path) as session:
        session.load_state(boot_record[0])
        yield session
