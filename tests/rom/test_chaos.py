"""Chaos on a real cartridge: a real battle of about forty decisions, on Ray, with actors killed in the
middle of it, the driver killed outright, broken newest checkpoints and a disk that fills up. After each,
the battle completes, and the run's files say what happened: the rollback or resume lines, the decisions
they undid, a battle log with every decision that counts once.

Also: a role re-created before the conductor's first cycle is noticed; `engine run --resume latest`
names the broken checkpoint it skipped in run.log; and a battle played on from a checkpoint is exactly the
battle the run would have played, so its log replays.

The measured times (rollbacks, resumes) and the decisions a killed driver lost are printed: `pytest -s`.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
import ray

from engine.actors.factory import actor_name, build_roles, checkpoint_sources
from engine.actors.handles import LocalHandle
from engine.actors.roles import ROLE_NAMES
from engine.checkpointer.role import Checkpointer
from engine.checkpoints.store import CheckpointStore
from engine.cli import main
from engine.config import EngineConfig, config_from_mapping, config_hash
from engine.emulator.session import EmulatorSession
from engine.layout import RunPaths
from engine.runtime.conductor import Conductor
from engine.runtime.decision_log import read_decisions
from engine.runtime.logs import attach_run_logs, detach_run_logs
from engine.runtime.options import RunOptions
from engine.runtime.ray_run import run_on_ray
from tests.support.chaos import break_newest_checkpoint, wait_for_decision_lines
from tests.support.rom_chaos import (
    EVERY_DECISIONS,
    FillingDisk,
    PlayedBattle,
    chaos_settings,
    end_session,
    kinds,
    log_line,
    log_time,
    played_battle,
    raylets,
    save_long_battle,
    session_processes,
    summary_of,
    wait_for_run_dir,
    write_config,
)

pytestmark = [pytest.mark.rom, pytest.mark.ray]
NAMESPACE = "engine-tests"
REPO = Path(__file__).resolve().parents[2]
RAY_AGENTS = ("ray::DashboardA", "ray::RuntimeEnv")  # process names as /proc shows them (15 characters)
RUN_SECONDS = 300.0
# decisions.jsonl lines before a kill: well into the battle.
KILL_AT_LINE = 12


@dataclass(frozen=True)
class LongBattle:
    state: Path
    undisturbed: PlayedBattle  # the same battle played in-process with nothing killed


@pytest.fixture(scope="module")
def long_battle(
    rom_path: Path, boot_record: tuple[bytes, list], tmp_path_factory: pytest.TempPathFactory
) -> LongBattle:
    folder = tmp_path_factory.mktemp("long-battle")
    with EmulatorSession(rom_path) as session:
        session.load_state(boot_record[0])
        state = save_long_battle(session, folder / "battle.state")
    config = write_config(folder / "chaos.yaml", NAMESPACE)
    args = ["run", "--local", "--rom", str(rom_path), "--state", str(state), "--max-battles", "1"]
    assert main([*args, "--data-dir", str(folder / "data"), "--config", str(config)]) == 0
    paths = wait_for_run_dir(folder / "data")
    undisturbed = played_battle(paths, summary_of(paths))
    print(f"\nthe long battle: {undisturbed.outcome} in {len(undisturbed.actions)} decisions")
    return LongBattle(state, undisturbed)


def chaos_config() -> EngineConfig:
    return config_from_mapping(chaos_settings(NAMESPACE))


def options(rom: Path, state: Path) -> RunOptions:
    config = chaos_config()
    return RunOptions(rom=rom, state=state, max_battles=1, checkpoint_every_decisions=EVERY_DECISIONS,
                      max_recoveries=config.runtime.max_recoveries,
                      recovery_timeout=config.runtime.recovery_timeout_seconds)  # fmt: skip


def run_in_background(paths: RunPaths, run_options: RunOptions) -> tuple[threading.Thread, dict[str, Any]]:
    result: dict[str, Any] = {}

    def play() -> None:
        # As `engine run` does: the driver's own lines go to run.log too (the conductor actor adds its own).
        handlers = attach_run_logs(paths.log, "INFO")
        try:
            result["summary"] = run_on_ray(chaos_config(), run_options, paths)
        except BaseException as exc:  # surfaced by the test's assertions
            result["error"] = exc
        finally:
            detach_run_logs(handlers)

    thread = threading.Thread(target=play, daemon=True)
    thread.start()
    return thread, result


def finish(thread: threading.Thread, result: dict[str, Any]) -> dict[str, Any]:
    thread.join(RUN_SECONDS)
    assert not thread.is_alive(), "the run did not finish"
    assert "error" not in result, result.get("error")
    summary: dict[str, Any] = result["summary"].model_dump(mode="json")
    return summary


def kill(run_id: str, role: str) -> datetime:
    """Kill one actor of the run as a crash would (Ray re-creates it); returns when, in run.log's clock."""
    ray.kill(ray.get_actor(actor_name(run_id, role), namespace=NAMESPACE), no_restart=False)
    return datetime.now()


def rolled_back(played: PlayedBattle) -> list[dict[str, Any]]:
    return [entry for entry in played.entries if entry.get("rolled_back")]


# -- 1. every actor, killed mid-battle -----------------------------------------------------------------------
@pytest.mark.parametrize("role", ROLE_NAMES)
def test_a_role_killed_mid_battle_is_restarted_and_the_run_rolls_back(
    rom_path: Path, ray_instance: Any, long_battle: LongBattle, tmp_path: Path, role: str
) -> None:
    paths = RunPaths(tmp_path / "data", f"chaos-{role}")
    paths.create()
    thread, result = run_in_background(paths, options(rom_path, long_battle.state))
    wait_for_decision_lines(paths.decisions, KILL_AT_LINE)
    kill(paths.run_id, role)
    summary = finish(thread, result)
    played = played_battle(paths, summary)
    (rollback,) = kinds(list(played.entries), "rollback")
    assert f"the {role} actor died" in rollback["reason"]
    assert summary["recoveries"] == 1
    assert len(rolled_back(played)) == rollback["decisions_rolled_back"]
    log_text = paths.log.read_text(encoding="utf-8")
    died = log_line(log_text, f"the {role} actor died")
    assert "waiting for the actors, then rolling back to the latest checkpoint" in died
    rolled = log_line(log_text, f"rolled back to checkpoint {rollback['checkpoint']}")
    assert f"{rollback['decisions_rolled_back']} decisions after it are marked rolled back" in rolled
    seconds = (log_time(rolled) - log_time(died)).total_seconds()
    print(f"\n{role} killed: rolled back to {rollback['checkpoint']} ({rollback['decisions_rolled_back']} "
          f"decisions undone) {seconds:.2f} s after its death was seen; the battle: {played.outcome} in "
          f"{len(played.actions)} decisions")  # fmt: skip


def test_the_conductor_killed_mid_battle_resumes_from_the_latest_checkpoint(
    rom_path: Path, ray_instance: Any, long_battle: LongBattle, tmp_path: Path
) -> None:
    paths = RunPaths(tmp_path / "data", "chaos-conductor")
    paths.create()
    thread, result = run_in_background(paths, options(rom_path, long_battle.state))
    wait_for_decision_lines(paths.decisions, KILL_AT_LINE)
    killed = kill(paths.run_id, "conductor")
    summary = finish(thread, result)
    played = played_battle(paths, summary)
    (resume,) = kinds(list(played.entries), "resume")
    assert resume["reason"] == "the conductor actor was re-created"
    assert not kinds(list(played.entries), "rollback")
    assert len(rolled_back(played)) == resume["decisions_rolled_back"] <= EVERY_DECISIONS
    log_text = paths.log.read_text(encoding="utf-8")
    died = log_line(log_text, "the conductor actor died")
    assert " ERROR " in died and "it resumes from the run's latest checkpoint once restarted" in died
    why = "the conductor actor was re-created"
    resumed = log_line(log_text, f"resumed run {paths.run_id} ({why}) from checkpoint {resume['checkpoint']}")
    seconds = (log_time(resumed) - killed).total_seconds()
    print(f"\nconductor killed: resumed from {resume['checkpoint']} ({resume['decisions_rolled_back']} "
          f"decisions undone) {seconds:.2f} s after the kill; the battle: {played.outcome} in "
          f"{len(played.actions)} decisions")  # fmt: skip


def test_a_role_restarted_before_the_conductors_first_look_is_noticed(
    rom_path: Path, ray_instance: Any, long_battle: LongBattle, tmp_path: Path
) -> None:
    """Memory, which the conductor never calls in a battle, killed right after the start checkpoint."""
    paths = RunPaths(tmp_path / "data", "chaos-early")
    paths.create()
    thread, result = run_in_background(paths, options(rom_path, long_battle.state))
    wait_for_path(paths.checkpoints / paths.run_id / "000001-start")
    kill(paths.run_id, "memory")
    summary = finish(thread, result)
    played = played_battle(paths, summary)
    (rollback,) = kinds(list(played.entries), "rollback")
    assert "the memory actor died" in rollback["reason"]


def wait_for_path(path: Path, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while not path.exists():
        assert time.monotonic() < deadline, f"{path.name} never appeared"
        time.sleep(0.01)


# -- 2. the emulator, twice in one battle ---------------------------------------------------------------
def test_the_emulator_killed_twice_in_one_battle(
    rom_path: Path, ray_instance: Any, long_battle: LongBattle, tmp_path: Path
) -> None:
    paths = RunPaths(tmp_path / "data", "chaos-twice")
    paths.create()
    thread, result = run_in_background(paths, options(rom_path, long_battle.state))
    wait_for_decision_lines(paths.decisions, 4)
    kill(paths.run_id, "emulator")
    wait_for_decision_lines(paths.decisions, 14)  # rolled-back and rollback lines count too: it only grows
    kill(paths.run_id, "emulator")
    summary = finish(thread, result)
    played = played_battle(paths, summary)
    rollbacks = kinds(list(played.entries), "rollback")
    assert [("the emulator actor died" in entry["reason"]) for entry in rollbacks] == [True, True]
    assert summary["recoveries"] == 2
    assert len(rolled_back(played)) == sum(entry["decisions_rolled_back"] for entry in rollbacks)
    log_text = paths.log.read_text(encoding="utf-8")
    assert log_text.count("the emulator actor died") == 2
    assert log_text.count("rolled back to checkpoint") == 2


# -- 3. the driver, SIGKILLed ----------------------------------------------------------------------------
def driver_environment() -> dict[str, str]:
    """This environment without any Ray address: the driver starts a private instance of its own."""
    return {name: value for name, value in os.environ.items() if name != "RAY_ADDRESS"}


def start_driver(args: list[str], output: Path) -> subprocess.Popen[bytes]:
    """`engine run` in a session of its own: every process its private Ray instance starts stays in it."""
    with output.open("ab") as out:
        return subprocess.Popen([sys.executable, "-m", "engine.cli", "run", *args], cwd=REPO, stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True,
                                env=driver_environment())  # fmt: skip


def test_a_killed_driver_loses_only_the_work_since_the_last_checkpoint(
    rom_path: Path, long_battle: LongBattle, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    config = write_config(tmp_path / "chaos.yaml", NAMESPACE)
    common = ["--rom", str(rom_path), "--max-battles", "1", "--data-dir", str(data), "--config", str(config)]
    output = tmp_path / "driver.out"
    raylets_before = len(raylets())
    driver = start_driver([*common, "--state", str(long_battle.state)], output)
    try:
        paths = wait_for_run_dir(data)
        try:
            wait_for_decision_lines(paths.decisions, 8, process=driver)
        except AssertionError as exc:
            raise AssertionError(f"{exc}\n{output.read_text(errors='replace')}") from exc
        driver.send_signal(signal.SIGKILL)
        driver.wait(30)
        lines_at_kill = len(read_decisions(paths.decisions))
        # Ray's GCS and raylet die with the driver that started them (they share its fate), and the
        # actors' workers follow the raylet; only the raylet's two agents are orphaned and stay.
        deadline = time.monotonic() + 30
        while [process for process in session_processes(driver.pid) if process.name not in RAY_AGENTS]:
            assert time.monotonic() < deadline, f"Ray outlived its driver: {session_processes(driver.pid)}"
            time.sleep(0.1)
    finally:
        if driver.poll() is None:
            driver.kill()
            driver.wait(30)
        left = end_session(driver.pid)  # the orphaned agents, and anything left after a failure
    print(f"\nleft behind by the killed driver (killed here): {sorted({p.name for p in left}) or 'nothing'}")
    # What the killed run left: the lines it wrote before its processes were all gone.
    killed_at = len(read_decisions(paths.decisions))
    # At most the decisions under way while the conductor actor's worker goes down with the raylet (a
    # battle decision takes milliseconds, the teardown up to a second).
    assert killed_at - lines_at_kill <= 2
    time.sleep(1.0)
    assert len(read_decisions(paths.decisions)) == killed_at  # and nothing once its processes are gone

    summary_file = tmp_path / "resumed.json"
    started = time.monotonic()
    resumed = start_driver([*common, "--resume", "latest", "--summary", str(summary_file)], output)
    try:
        code = resumed.wait(RUN_SECONDS)
    finally:
        if resumed.poll() is None:
            resumed.kill()
            resumed.wait(30)
        left_after_resume = end_session(resumed.pid)
    wall = time.monotonic() - started
    assert code == 0, output.read_text(errors="replace")
    assert not left_after_resume, f"a finished run left {left_after_resume}"
    assert not [raylet for raylet in raylets() if raylet.session in (driver.pid, resumed.pid)]
    summary = json.loads(summary_file.read_text(encoding="utf-8"))
    assert summary["run_id"] == paths.run_id
    played = played_battle(paths, summary)
    (resume,) = kinds(list(played.entries), "resume")
    assert resume["reason"] == "engine run --resume"
    assert resume["decisions_rolled_back"] <= EVERY_DECISIONS  # only the work since the last checkpoint
    assert resume["decisions"] + resume["decisions_rolled_back"] == killed_at
    assert len(rolled_back(played)) == resume["decisions_rolled_back"]
    log_text = paths.log.read_text(encoding="utf-8")
    resumed_part = log_text[log_text.rindex("\n", 0, log_text.index("resumes from checkpoint")) + 1 :]
    chosen = log_time(log_line(resumed_part, "resumes from checkpoint"))
    actors_up = log_time(log_line(resumed_part, "actors started"))
    restored = log_time(log_line(resumed_part, f"resumed run {paths.run_id} (engine run --resume) from"))
    print(f"driver killed after {killed_at} decisions: {resume['decisions_rolled_back']} lost; resumed from "
          f"{resume['checkpoint']} by a new process: Ray and the actors up "
          f"{(actors_up - chosen).total_seconds():.2f} s after it chose the checkpoint, restored "
          f"{(restored - actors_up).total_seconds():.2f} s after that; the resumed run took {wall:.1f} s; "
          f"raylets on the machine: {raylets_before} before, {len(raylets())} after")  # fmt: skip


# -- 4. a broken newest checkpoint -------------------------------------------------------------------------
def stop_mid_battle(
    rom_path: Path, state: Path, tmp_path: Path, mode: list[str]
) -> tuple[RunPaths, list[str]]:
    """`engine run` stopped by --max-decisions 7 in the middle of the long battle: its newest checkpoint
    is the stop one, after the seventh decision, and the one before it was written after the sixth.
    Returns the run and the arguments that resume it."""
    data = tmp_path / "data"
    config = write_config(tmp_path / "chaos.yaml", NAMESPACE)
    common = ["run", *mode, "--rom", str(rom_path), "--data-dir", str(data), "--config", str(config)]
    assert main([*common, "--state", str(state), "--max-decisions", "7"]) == 0
    paths = wait_for_run_dir(data)
    stopped = summary_of(paths)
    assert (stopped["stopped"], stopped["decisions"], stopped["battles"]) == ("max_decisions", 7, [])
    return paths, [*common, "--resume", "latest", "--max-battles", "1"]


@pytest.mark.parametrize("damage", ["truncate a part", "flip a byte in the manifest"])
def test_a_broken_newest_checkpoint_is_skipped_on_resume(
    rom_path: Path,
    ray_instance: Any,
    long_battle: LongBattle,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    damage: str,
) -> None:
    paths, resume_args = stop_mid_battle(rom_path, long_battle.state, tmp_path, [])
    broken = break_newest_checkpoint(paths.checkpoints / paths.run_id, damage)
    with caplog.at_level(logging.WARNING, logger="engine"):
        assert main(resume_args) == 0
    played = played_battle(paths, summary_of(paths))
    (resume,) = kinds(list(played.entries), "resume")
    assert resume["checkpoint"] != f"{paths.run_id}/{broken.name}"
    assert resume["decisions"] == 6 and resume["decisions_rolled_back"] == 1
    assert len(rolled_back(played)) == 1
    # The terminal is told which checkpoint was skipped, and why: when it is skipped, and again once the
    # run's log is open (the second line also goes to run.log).
    warnings = [
        record.getMessage() for record in caplog.records if "failed verification" in record.getMessage()
    ]
    assert len(warnings) == 2 and all(f"{paths.run_id}/{broken.name}" in warning for warning in warnings)
    assert "trying the previous one" in warnings[0] and "using the previous one" in warnings[1]


def test_the_skipped_checkpoint_is_named_in_run_log(
    rom_path: Path, long_battle: LongBattle, tmp_path: Path
) -> None:
    paths, resume_args = stop_mid_battle(rom_path, long_battle.state, tmp_path, ["--local"])
    broken = break_newest_checkpoint(paths.checkpoints / paths.run_id, "truncate a part")
    assert main(resume_args) == 0
    (resume,) = kinds(read_decisions(paths.decisions), "resume")
    assert any(broken.name in skipped for skipped in resume.get("skipped_checkpoints", ()))
    warning = log_line(paths.log.read_text(encoding="utf-8"), "failed verification")
    assert " WARNING " in warning and broken.name in warning


# -- the battle after a checkpoint -------------------------------------------------------------------------
def test_a_battle_resumed_from_a_checkpoint_plays_on_as_it_would_have(
    rom_path: Path, long_battle: LongBattle, tmp_path: Path
) -> None:
    paths, resume_args = stop_mid_battle(rom_path, long_battle.state, tmp_path, ["--local"])
    assert main(resume_args) == 0
    played = played_battle(paths, summary_of(paths))
    undisturbed = long_battle.undisturbed
    assert (played.actions, played.frames) == (undisturbed.actions, undisturbed.frames)
    # And so the logged battle replays from its start state (engine replay exits 1 when it diverges).
    replay = ["replay", "--local", "--no-learn", "--battle", played.battle_id, "--rom", str(rom_path)]
    assert main([*replay, "--data-dir", str(paths.data_dir)]) == 0


# -- 5. a full disk --------------------------------------------------------------------------------------
def test_a_full_disk_stops_the_run_in_one_line_and_the_resume_plays_the_same_battle(
    rom_path: Path, long_battle: LongBattle, tmp_path: Path
) -> None:
    config = chaos_config()
    paths = RunPaths(tmp_path / "data", "chaos-full-disk")
    paths.create()
    run_options = options(rom_path, long_battle.state)
    roles = build_roles(config, run_options.role_build(paths), "local")
    built = roles.checkpoint
    # Room for two checkpoints of this battle, not three.
    disk = FillingDisk(checkpoints=2)
    store = CheckpointStore(paths.checkpoints, keep=config.checkpoint.keep, write_file=disk)
    sources = checkpoint_sources({handle.role: handle for handle in roles.all()})
    checkpointer = Checkpointer(config.checkpoint, paths.run_id, config_hash(config), store, sources)
    roles = replace(roles, checkpoint=LocalHandle("checkpoint", checkpointer))
    handlers = attach_run_logs(paths.log, "INFO")
    try:
        stopped = Conductor(roles, run_options, paths).run()
    finally:
        detach_run_logs(handlers)
        for handle in [*roles.all(), built]:
            handle.close()
    assert stopped.stopped == "error" and disk.failures == 1 and checkpointer.counts["written"] == 2
    log_text = paths.log.read_text(encoding="utf-8")
    assert [line for line in log_text.splitlines() if " ERROR " in line or " WARNING " in line] == [
        log_line(log_text, "run stopped")
    ]
    line = log_line(log_text, "run stopped")
    assert "No space left on device" in line and "Traceback" not in log_text
    folders = sorted((paths.checkpoints / paths.run_id).iterdir())
    assert [folder.name for folder in folders if folder.name.startswith(".")] == []  # no half-written one
    newest = folders[-1]
    assert f"newest intact checkpoint: {paths.run_id}/{newest.name}" in line
    assert CheckpointStore(paths.checkpoints).verify(newest) == ()
    # Room again: the same command with --resume latest plays the battle on, exactly as it would have gone.
    resume = ["run", "--rom", str(rom_path), "--local", "--resume", "latest", "--max-battles", "1",
              "--data-dir", str(paths.data_dir)]  # fmt: skip
    assert main(resume) == 0
    played = played_battle(paths, summary_of(paths))
    undisturbed = long_battle.undisturbed
    assert (played.outcome, played.actions) == (undisturbed.outcome, undisturbed.actions)
    written = checkpointer.counts["written"]
    print(f"\nfull disk: stopped in one line after {written} checkpoints; resumed from {newest.name} "
          f"to the same {played.outcome}")  # fmt: skip
