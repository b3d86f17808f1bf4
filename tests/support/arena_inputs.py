"""What an arena test plays: a generated cartridge that passes the cartridge check, save states of it,
config files, and FakeEmulator as the Emulator role (the scripted game of tests.support.fake_emulator)."""

from __future__ import annotations

import os
from functools import partial
from pathlib import Path
from typing import Any

from engine.emulator.session import EmulatorSession
from engine.game.cartridge import Game
from tests.conftest import GEN1_FIXTURES
from tests.support.fake_emulator import FakeEmulator
from tests.support.romgen import write_titled


def cartridge(folder: Path) -> Path:
    return write_titled(folder, "red")


def save_states(rom: Path, folder: Path, count: int) -> list[Path]:
    """States of the generated cartridge a few frames apart: accepted by the state check."""
    paths = []
    with EmulatorSession(rom, game=Game.RED) as session:
        for index in range(count):
            session.tick(30)
            path = folder / f"start{index}.state"
            path.write_bytes(session.save_state())
            paths.append(path)
    return paths


def config_file(folder: Path, name: str, text: str = "") -> Path:
    path = folder / f"{name}.yaml"
    path.write_text(text or "logging:\n  level: INFO\n", encoding="utf-8")
    return path


def _marked(marks: str, *args: Any, **options: Any) -> FakeEmulator:
    """FakeEmulator, after leaving a file named after this node and process: where each cell played."""
    import ray

    node = ray.get_runtime_context().get_node_id()
    Path(marks, f"{node}.{os.getpid()}").touch()
    return FakeEmulator(*args, **options)


def bedroom(rom: Path, folder: Path) -> Path:
    """The cartridge's bedroom at the start of a new game, played to here by the engine's intro."""
    from tests.support.scenarios import boot_to_overworld

    with EmulatorSession(rom) as session:
        boot_to_overworld(session)
        path = folder / "bedroom.state"
        path.write_bytes(session.save_state())
    return path


def _marked_role(marks: str, *args: Any, **options: Any) -> Any:
    import ray

    from engine.mechanics.role import EmulatorRole

    Path(marks, f"{ray.get_runtime_context().get_node_id()}.{os.getpid()}").touch()
    return EmulatorRole(*args, **options)


def marked_role(marks: Path) -> Any:
    """The real Emulator role, after marking where it plays, as `fake_factory(marks)` does."""
    return partial(_marked_role, str(marks))


def fake_factory(marks: Path | None = None, **options: Any) -> Any:
    if marks is None:
        return partial(FakeEmulator, fixtures=GEN1_FIXTURES, **options)
    return partial(_marked, str(marks), fixtures=GEN1_FIXTURES, **options)
