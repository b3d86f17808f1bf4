"""A real game crashed inside the emulator (the CPU sent into video RAM, where it stops on an illegal
opcode, as after a map script read past its table): `engine goto`, `engine run --state` and `engine
inspect` end in one line with exit code 1 within the freeze limit and a little; a run that freezes midway
rolls back to its newest checkpoint, keeps it as a `frozen` one, and `--resume latest` plays on from it.
The wall times are printed (`pytest -s`); the deadlines only guard against hanging."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from engine.config import EmulatorConfig, PlayerConfig, config_from_mapping
from engine.emulator.session import EmulatorSession
from engine.layout import RunPaths
from engine.mechanics.role import EmulatorRole
from engine.messages import LegReport
from engine.runtime.decision_log import read_decisions
from engine.runtime.local import run_local
from engine.runtime.options import LATEST, RunOptions
from engine.world.goals import Leg
from tests.conftest import REPO_ROOT

pytestmark = pytest.mark.rom
FREEZE_SECONDS = 2.0
DEADLINE = 300.0  # guards against hanging only
VRAM = 0x8000
ILLEGAL_OPCODE = 0xD3  # the CPU stops on it, as on the tile data it ran into in the crashes seen


def crash(session: EmulatorSession) -> None:
    """Send the CPU into video RAM, onto an illegal opcode: PyBoy's tick never returns from there."""
    session.write_u8(VRAM, ILLEGAL_OPCODE)
    session.pyboy.register_file.PC = VRAM


@pytest.fixture(scope="module")
def crashed(
    rom_path: Path, boot_record: tuple[bytes, list[Any]], tmp_path_factory: pytest.TempPathFactory
) -> Path:
    """A save state in the bedroom whose game has crashed."""
    folder = tmp_path_factory.mktemp("crashed")
    with EmulatorSession(rom_path) as session:
        session.load_state(boot_record[0])
        crash(session)
        path = folder / "crashed.state"
        path.write_bytes(session.export_state())
    (folder / "config.json").write_text(json.dumps({"emulator": {"freeze_seconds": FREEZE_SECONDS}}))
    return path


def engine(*args: str) -> tuple[subprocess.CompletedProcess[str], float]:
    started = time.monotonic()
    result = subprocess.run([sys.executable, "-m", "engine.cli", *args], cwd=REPO_ROOT, capture_output=True,
                            text=True, timeout=DEADLINE)  # fmt: skip
    return result, time.monotonic() - started


def assert_one_line(result: subprocess.CompletedProcess[str], prefix: str) -> str:
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    (line,) = [line for line in result.stderr.splitlines() if "the game froze inside the emulator" in line]
    assert line.startswith(f"{prefix}the game froze inside the emulator at frame ")
    assert line.endswith(f", PC=${VRAM:04X} (no new frame for {FREEZE_SECONDS:g} s)")
    return line


@pytest.mark.parametrize("command", ["goto", "inspect"])
def test_a_command_on_a_crashed_game_ends_in_one_line(rom_path: Path, crashed: Path, command: str) -> None:
    config = str(crashed.parent / "config.json")
    rest = ["--to", "PALLET_TOWN"] if command == "goto" else ["--frames", "600"]
    result, wall = engine(command, "--rom", str(rom_path), "--state", str(crashed), "--config", config, *rest)
    assert_one_line(result, "engine: error: ")
    assert result.stdout == ""
    print(
        f"\nengine {command} on a crashed game: exit 1 after {wall:.1f} s (freeze limit {FREEZE_SECONDS:g} s)"
    )


def test_a_run_from_a_crashed_state_ends_in_one_line(rom_path: Path, crashed: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    config = str(crashed.parent / "config.json")
    result, wall = engine("run", "--local", "--rom", str(rom_path), "--state", str(crashed),
                          "--config", config, "--data-dir", str(data))  # fmt: skip
    line = assert_one_line(result, "run failed: ")
    print(f"\nengine run --state on a crashed game: exit 1 after {wall:.1f} s")
    (run,) = (data / "runs").iterdir()
    summary = json.loads((run / "summary.json").read_text(encoding="utf-8"))
    assert (summary["stopped"], summary["error"]) == ("error", line.removeprefix("run failed: "))
    assert not (data / "checkpoints" / run.name).exists() or not any(
        (data / "checkpoints" / run.name).iterdir()
    )


class CrashingEmulator(EmulatorRole):
    """The real Emulator role, whose game crashes as its fourth walk begins."""

    CRASH_AT = 4

    def __init__(self, rom: Path, emulator: EmulatorConfig, player: PlayerConfig) -> None:
        super().__init__(rom, emulator, player)
        self.walks = 0

    def travel(self, leg: Leg) -> LegReport:
        self.walks += 1
        if self.walks == self.CRASH_AT:
            crash(self.session)
        return super().travel(leg)


def test_a_run_that_freezes_rolls_back_and_resumes(
    rom_path: Path, boot_record: tuple[bytes, list[Any]], tmp_path: Path
) -> None:
    bedroom = tmp_path / "bedroom.state"
    with EmulatorSession(rom_path) as session:
        session.load_state(boot_record[0])
        bedroom.write_bytes(session.export_state())
    config = config_from_mapping({"emulator": {"freeze_seconds": FREEZE_SECONDS}})
    paths = RunPaths(tmp_path / "data", "frozen-run")
    paths.create()
    options = RunOptions(rom=rom_path, state=bedroom, max_decisions=30, checkpoint_every_decisions=2)
    started = time.monotonic()
    frozen = run_local(config, options, paths, emulator_factory=CrashingEmulator)
    wall = time.monotonic() - started
    assert frozen.stopped == "error" and frozen.error is not None
    assert frozen.error.startswith("the game froze inside the emulator at frame ")
    newest = max(path.name for path in (paths.checkpoints / paths.run_id).iterdir() if path.name[0] != ".")
    assert newest.endswith("-frozen")
    (rollback,) = [entry for entry in read_decisions(paths.decisions) if entry.get("kind") == "rollback"]
    assert rollback["reason"] == frozen.error and rollback["decisions"] == frozen.decisions
    print(
        f"\na run frozen at its 4th walk: stopped after {wall:.1f} s with {frozen.decisions} decisions kept"
    )

    resumed = run_local(config, RunOptions(rom=rom_path, max_decisions=frozen.decisions + 4, resume=LATEST),
                        paths)  # fmt: skip
    assert (resumed.stopped, resumed.error, resumed.decisions) == (
        "max_decisions",
        None,
        frozen.decisions + 4,
    )
    (resume,) = [entry for entry in read_decisions(paths.decisions) if entry.get("kind") == "resume"]
    assert resume["checkpoint"] == f"{paths.run_id}/{newest}"
