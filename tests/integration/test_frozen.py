"""A game frozen inside the emulator never hangs the engine.

The session's watchdog, on generated cartridges that crash as a broken save state crashes Red/Blue: one
whose tick never returns, one that runs on from video RAM. The conductor's handling, with the scripted
emulator raising GameFrozenError: the run ends in one line with exit code 1, rolled back to its newest
checkpoint, kept again as a `frozen` one (none when nothing was played). On Ray the error crosses as its
own class, and a role call that never answers is bounded: the actor is killed and re-created, the run
rolls back and finishes. Times only bound waits against hanging: nothing depends on the machine's speed.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from engine.actors.factory import RoleBuild, build_roles
from engine.actors.ray_handles import close_all
from engine.config import config_from_mapping
from engine.emulator.errors import FrameBudgetExceeded, GameFrozenError
from engine.emulator.session import EmulatorSession
from engine.game.cartridge import Game
from engine.layout import RunPaths
from engine.runtime.decision_log import read_decisions
from engine.runtime.local import run_local
from engine.runtime.options import RunOptions
from engine.runtime.ray_run import run_on_ray
from tests.conftest import GEN1_FIXTURES, REPO_ROOT
from tests.support.fake_emulator import FROZEN_PC, FakeEmulator, Stall
from tests.support.romgen import write_rom, write_titled

DEADLINE = 60.0  # guards against hanging only
FREEZE_SECONDS = 0.5
NAMESPACE = "engine-tests"


def watchdogs() -> list[threading.Thread]:
    return [thread for thread in threading.enumerate() if thread.name == "emulator-watchdog"]


def open_crashing(tmp_path: Path, program: str, **options: Any) -> EmulatorSession:
    rom = write_rom(tmp_path, f"{program}.gb", program=program)  # type: ignore[arg-type]
    return EmulatorSession(rom, game=Game.RED, freeze_seconds=FREEZE_SECONDS, **options)


# -- the session's watchdog ---------------------------------------------------------------------------------
def test_a_tick_that_never_returns_raises_game_frozen(tmp_path: Path) -> None:
    before = len(watchdogs())
    session = open_crashing(tmp_path, "frozen")
    session.tick(30)  # still in PyBoy's own boot: a good state to go back to
    good = session.save_state()
    started = time.monotonic()
    with pytest.raises(GameFrozenError) as raised:
        session.tick(600)
    waited = time.monotonic() - started
    error = raised.value
    print(f"\nfrozen: {error} ({waited:.2f} s after the tick began)")
    assert waited < DEADLINE
    assert str(error) == f"the game froze inside the emulator at frame {error.frame}, PC=${error.pc:04X} " \
                         f"(no new frame for {FREEZE_SECONDS:g} s)"  # fmt: skip
    assert 30 < error.frame < 630 and not 0 <= error.pc < 0x8000  # it ran away from the cartridge's code
    # The game is gone: every tick refuses, with the same line, until a state is loaded.
    for step in (lambda: session.tick(1), lambda: session.run_until(lambda memory: False, 100)):
        with pytest.raises(GameFrozenError) as again:
            step()
        assert str(again.value) == str(error)
    session.load_state(good)
    session.tick(10)  # plays on (into the same crash later, but not yet)
    session.close()
    assert len(watchdogs()) == before  # the thread is gone with the session


def test_code_running_outside_rom_and_ram_raises_game_frozen(tmp_path: Path) -> None:
    with open_crashing(tmp_path, "runaway") as session:
        started = time.monotonic()
        with pytest.raises(GameFrozenError) as raised:
            session.run_until(lambda memory: False, 10**9)  # frames go on: only the PC tells
        assert time.monotonic() - started < DEADLINE
    error = raised.value
    assert error.pc == 0x8000 and "the CPU ran outside ROM and RAM" in str(error)
    assert error.frame > 100  # frames went on being made


def test_a_healthy_game_never_trips_the_watchdog(tmp_path: Path) -> None:
    """Not ticking (waiting for a decision), ticking for long, or pacing slower than the freeze limit."""
    rom = write_rom(tmp_path)
    with EmulatorSession(rom, game=Game.RED, freeze_seconds=FREEZE_SECONDS) as session:
        time.sleep(FREEZE_SECONDS * 3)
        started = time.monotonic()
        while time.monotonic() - started < FREEZE_SECONDS * 4:
            with pytest.raises(FrameBudgetExceeded):
                session.run_until(lambda memory: False, 2_000)
    # A frame every 0.33 s, slower than the limit: the sleeps between frames are no tick.
    with EmulatorSession(rom, game=Game.RED, freeze_seconds=FREEZE_SECONDS, speed=0.05) as paced:
        paced.tick(5)
        assert paced.frame == 5


def test_the_watchdog_never_keeps_the_process_alive(tmp_path: Path) -> None:
    rom = write_rom(tmp_path)
    script = ("from pathlib import Path; from engine.emulator.session import EmulatorSession; "
              "from engine.game.cartridge import Game; "
              f"session = EmulatorSession(Path({str(rom)!r}), game=Game.RED); session.tick(10)")  # fmt: skip
    subprocess.run([sys.executable, "-c", script], cwd=REPO_ROOT, timeout=DEADLINE, check=True)


# -- the conductor ------------------------------------------------------------------------------------------
def engine_run(tmp_path: Path, fake: dict[str, Any], *args: str) -> subprocess.CompletedProcess[str]:
    """`engine run --local` over the scripted game, as a process (tests.support.fake_run)."""
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"checkpoint": {"every_decisions": 5}}), encoding="utf-8")
    rom = write_titled(tmp_path, "red")
    command = [sys.executable, "-m", "tests.support.fake_run", json.dumps(fake), "run", "--local", "--rom",
               str(rom), "--data-dir", str(tmp_path / "data"), "--config", str(config), *args]  # fmt: skip
    return subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True, timeout=DEADLINE * 3)


def run_dir(tmp_path: Path) -> Path:
    (run,) = (tmp_path / "data" / "runs").iterdir()
    return run


def checkpoint_reasons(tmp_path: Path) -> list[str]:
    folder = tmp_path / "data" / "checkpoints" / run_dir(tmp_path).name
    names = (
        sorted(path.name for path in folder.iterdir() if not path.name.startswith("."))
        if folder.is_dir()
        else []
    )
    return [name.split("-", 1)[1] for name in names]


def test_a_frozen_game_ends_the_run_rolled_back_to_its_newest_checkpoint(tmp_path: Path) -> None:
    result = engine_run(tmp_path, {"freeze_after": {"travel": 12}}, "--max-decisions", "100")
    assert result.returncode == 1, result.stderr
    froze = [line for line in result.stderr.splitlines() if "the game froze inside the emulator" in line]
    assert len(froze) == 1 and froze[0].startswith("run failed: the game froze inside the emulator at frame ")
    assert f"PC=${FROZEN_PC:04X} (no new frame for 10 s)" in froze[0] and "Traceback" not in result.stderr
    summary = json.loads((run_dir(tmp_path) / "summary.json").read_text(encoding="utf-8"))
    assert summary["stopped"] == "error" and summary["error"] == froze[0].removeprefix("run failed: ")
    reasons = checkpoint_reasons(tmp_path)
    assert reasons[-1] == "frozen" and reasons[-2] == "decisions"  # the newest, kept again
    entries = read_decisions(run_dir(tmp_path) / "decisions.jsonl")
    (rollback,) = [entry for entry in entries if entry.get("kind") == "rollback"]
    assert rollback["reason"] == summary["error"] and rollback["decisions"] == summary["decisions"]
    assert rollback["decisions_rolled_back"] >= 1  # made after the newest checkpoint: they no longer count
    assert summary["recoveries"] == 0  # not a recovery: the run ended


def test_a_game_frozen_before_any_checkpoint_ends_in_one_line(tmp_path: Path) -> None:
    result = engine_run(tmp_path, {"freeze_after": {"start": 0}})
    assert result.returncode == 1, result.stderr
    assert "run failed: the game froze inside the emulator at frame 0" in result.stderr
    assert "Traceback" not in result.stderr and checkpoint_reasons(tmp_path) == []
    summary = json.loads((run_dir(tmp_path) / "summary.json").read_text(encoding="utf-8"))
    assert (summary["stopped"], summary["decisions"]) == ("error", 0)


# -- on Ray -------------------------------------------------------------------------------------------------
def fake(**options: Any) -> Any:
    return partial(FakeEmulator, fixtures=GEN1_FIXTURES, **options)


def paths_of(tmp_path: Path, run_id: str) -> RunPaths:
    paths = RunPaths(tmp_path / "data", run_id)
    paths.create()
    return paths


@pytest.mark.ray
def test_a_frozen_game_on_ray_is_handled_as_in_process(ray_instance: Any, tmp_path: Path) -> None:
    config = config_from_mapping({"runtime": {"namespace": NAMESPACE}})
    roles = build_roles(config, RoleBuild(rom=Path("scripted.gb"), run_id="t-frozen-class"), "ray",
                        fake(freeze_after={"advance": 0}))  # fmt: skip
    try:
        with pytest.raises(GameFrozenError) as raised:
            roles.emulator.call.advance()
        assert type(raised.value) is GameFrozenError and raised.value.pc == FROZEN_PC
    finally:
        close_all(roles)
    options = RunOptions(rom=Path("scripted.gb"), max_decisions=100, checkpoint_every_decisions=5)
    frozen = fake(freeze_after={"travel": 12})
    local = run_local(config, options, paths_of(tmp_path, "t-frozen-local"), emulator_factory=frozen)
    paths = paths_of(tmp_path, "t-frozen-ray")
    on_ray = run_on_ray(config, options, paths, frozen)
    assert on_ray.stopped == "error" and on_ray.error is not None and "the game froze" in on_ray.error
    assert (on_ray.error, on_ray.decisions) == (local.error, local.decisions)
    newest = max(path.name for path in (paths.checkpoints / paths.run_id).iterdir())
    assert newest.endswith("-frozen")


@pytest.mark.ray
def test_a_role_call_that_never_answers_is_rolled_back(ray_instance: Any, tmp_path: Path) -> None:
    # Long enough for an actor's start-up on a busy machine: the first call waits for its constructor.
    config = config_from_mapping({"runtime": {"namespace": NAMESPACE, "call_timeout_seconds": 15.0}})
    options = RunOptions(rom=Path("scripted.gb"), max_decisions=40, checkpoint_every_decisions=5)
    hung = fake(delay=0.02, stall=Stall(verb="travel", after=20, seconds=600.0, once=tmp_path / "hung"))
    paths = paths_of(tmp_path, "t-hung")
    started = time.monotonic()
    summary = run_on_ray(config, options, paths, hung)
    print(f"\nrun with one hung call: {time.monotonic() - started:.1f} s")
    assert (summary.stopped, summary.error, summary.decisions, summary.recoveries) == (
        "max_decisions",
        None,
        40,
        1,
    )
    (rollback,) = [entry for entry in read_decisions(paths.decisions) if entry.get("kind") == "rollback"]
    assert "the emulator actor died: no answer to travel within 15 s" in rollback["reason"]
    assert (tmp_path / "hung").exists()


def test_a_paced_emulator_gets_a_longer_bound() -> None:
    from engine.actors.factory import call_timeout

    config = config_from_mapping({"runtime": {"call_timeout_seconds": 100.0}, "emulator": {"speed": 0.5}})
    assert (call_timeout(config, "emulator"), call_timeout(config, "tactician")) == (300.0, 100.0)
    assert call_timeout(config_from_mapping({}), "emulator") == 300.0
