"""Chaos on a real local Ray instance, with the fixture-backed emulator (no ROM): actors killed in the middle
of a battle, the driver killed outright, broken newest checkpoints. After each, the scripted run
completes and its files say exactly what happened: the rollback lines, the decisions they undid, and a
battle log with every decision once.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import pytest
import ray
from ray.util.state import list_actors

from engine.actors.factory import actor_name
from engine.actors.roles import ROLE_NAMES
from engine.battles.models import BattleLog
from engine.config import EngineConfig, config_from_mapping
from engine.layout import RunPaths
from engine.runtime.decision_log import read_decisions
from engine.runtime.options import LATEST, RunOptions
from engine.runtime.ray_run import run_on_ray
from engine.runtime.summary import RunSummary
from tests.conftest import GEN1_FIXTURES
from tests.support.chaos import (
    CHAOS_SETTINGS,
    LONG_BATTLE,
    LONG_BATTLE_DECISIONS,
    break_newest_checkpoint,
    wait_for_decision_lines,
)
from tests.support.fake_emulator import FakeEmulator

pytestmark = pytest.mark.ray
NAMESPACE = "engine-tests"
RUN_SECONDS = 180.0


def chaos_config() -> EngineConfig:
    return config_from_mapping(
        {**CHAOS_SETTINGS, "runtime": {**CHAOS_SETTINGS["runtime"], "namespace": NAMESPACE}}
    )


def options(**changes: Any) -> RunOptions:
    base: dict[str, Any] = {"rom": Path("scripted.gb"), "max_battles": 1, "checkpoint_every_decisions": 2,
                            "recovery_timeout": 60.0}  # fmt: skip
    return RunOptions(**{**base, **changes})


def emulator() -> Callable[..., Any]:
    return partial(FakeEmulator, fixtures=GEN1_FIXTURES, script=LONG_BATTLE, delay=0.1)


def run_in_background(paths: RunPaths, run_options: RunOptions) -> tuple[threading.Thread, dict[str, Any]]:
    result: dict[str, Any] = {}

    def play() -> None:
        try:
            result["summary"] = run_on_ray(chaos_config(), run_options, paths, emulator())
        except BaseException as exc:  # surfaced by the test's assertions
            result["error"] = exc

    thread = threading.Thread(target=play, daemon=True)
    thread.start()
    return thread, result


def finish(thread: threading.Thread, result: dict[str, Any]) -> RunSummary:
    thread.join(RUN_SECONDS)
    assert not thread.is_alive(), "the run did not finish"
    assert "error" not in result, result.get("error")
    return result["summary"]


def kill(run_id: str, role: str) -> None:
    ray.kill(ray.get_actor(actor_name(run_id, role), namespace=NAMESPACE), no_restart=False)


def assert_battle_completed_once(paths: RunPaths, summary: RunSummary) -> list[dict[str, Any]]:
    """The battle ends in victory with every decision exactly once in what counts, and the battle log
    agrees; returns the decision log's entries."""
    assert (summary.stopped, summary.error) == ("max_battles", None)
    (battle,) = summary.battles
    assert (battle.outcome, battle.decisions) == ("victory", LONG_BATTLE_DECISIONS)
    entries = read_decisions(paths.decisions)
    live = [entry for entry in entries if entry.get("kind") == "battle" and not entry.get("rolled_back")]
    assert [entry["seq"] for entry in live] == list(range(1, LONG_BATTLE_DECISIONS + 1))
    log = BattleLog.model_validate_json(paths.battle_log(battle.battle_id).read_text(encoding="utf-8"))
    assert [record.action for record in log.decisions] == [entry["action"] for entry in live]
    return entries


@pytest.mark.parametrize("role", ROLE_NAMES)
def test_a_role_killed_mid_battle_is_restarted_and_the_run_rolls_back(
    ray_instance: Any, tmp_path: Path, role: str
) -> None:
    paths = RunPaths(tmp_path, f"chaos-{role}")
    paths.create()
    thread, result = run_in_background(paths, options())
    wait_for_decision_lines(paths.decisions, 4)
    kill(paths.run_id, role)
    summary = finish(thread, result)
    entries = assert_battle_completed_once(paths, summary)
    rollbacks = [entry for entry in entries if entry.get("kind") == "rollback"]
    assert len(rollbacks) == 1 and f"the {role} actor died" in rollbacks[0]["reason"]
    assert summary.recoveries == 1
    undone = [entry for entry in entries if entry.get("rolled_back")]
    assert len(undone) == rollbacks[0]["decisions_rolled_back"]
    log_text = paths.log.read_text(encoding="utf-8")
    assert f"the {role} actor died" in log_text and "rolled back to checkpoint" in log_text


def test_the_emulator_killed_twice_in_one_battle(ray_instance: Any, tmp_path: Path) -> None:
    paths = RunPaths(tmp_path, "chaos-twice")
    paths.create()
    thread, result = run_in_background(paths, options())
    wait_for_decision_lines(paths.decisions, 3)
    kill(paths.run_id, "emulator")
    wait_for_decision_lines(paths.decisions, 9)  # rolled-back lines count too: the file only grows
    kill(paths.run_id, "emulator")
    summary = finish(thread, result)
    entries = assert_battle_completed_once(paths, summary)
    rollbacks = [entry for entry in entries if entry.get("kind") == "rollback"]
    assert [("the emulator actor died" in entry["reason"]) for entry in rollbacks] == [True, True]
    assert summary.recoveries == 2


def test_the_conductor_killed_mid_battle_resumes_from_the_latest_checkpoint(
    ray_instance: Any, tmp_path: Path
) -> None:
    paths = RunPaths(tmp_path, "chaos-conductor")
    paths.create()
    thread, result = run_in_background(paths, options())
    wait_for_decision_lines(paths.decisions, 4)
    kill(paths.run_id, "conductor")
    summary = finish(thread, result)
    entries = assert_battle_completed_once(paths, summary)
    resumes = [entry for entry in entries if entry.get("kind") == "resume"]
    assert len(resumes) == 1 and resumes[0]["reason"] == "the conductor actor was re-created"


def test_a_killed_driver_loses_only_the_work_since_the_last_checkpoint(
    ray_instance: Any, tmp_path: Path
) -> None:
    paths = RunPaths(tmp_path, "chaos-driver")
    paths.create()
    driver = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tests.support.chaos",
            str(tmp_path),
            paths.run_id,
            ray_instance.address_info["address"],
            NAMESPACE,
        ],
        cwd=Path(__file__).resolve().parents[2],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        wait_for_decision_lines(paths.decisions, 5, process=driver)
        driver.send_signal(signal.SIGKILL)
        driver.wait(30)
    finally:
        if driver.poll() is None:
            driver.kill()
    wait_for_actors_gone(ray_instance, paths.run_id)
    killed_at = len(paths.decisions.read_text(encoding="utf-8").splitlines())
    thread, result = run_in_background(paths, options(resume=LATEST))
    summary = finish(thread, result)
    entries = assert_battle_completed_once(paths, summary)
    (resume,) = [entry for entry in entries if entry.get("kind") == "resume"]
    assert resume["decisions_rolled_back"] <= 2  # every_decisions: only the work since the last checkpoint
    assert resume["decisions"] + resume["decisions_rolled_back"] == killed_at


def wait_for_actors_gone(context: Any, run_id: str, timeout: float = 60.0) -> None:
    """Ray ends a killed driver's actors on its own; their names are free once the state API says DEAD
    (the GCS frees a name as it marks the actor dead). Asked through the state API, not `ray.get_actor`:
    while an actor is being removed, get_actor can fail inside Ray (its class name already gone) with an
    error that is neither "found" nor "not found"."""
    names = {actor_name(run_id, role) for role in (*ROLE_NAMES, "conductor")}
    deadline = time.monotonic() + timeout
    while alive := _alive(context, names):
        if time.monotonic() > deadline:
            raise AssertionError(f"{', '.join(sorted(alive))} outlived the driver")
        time.sleep(0.2)


def _alive(context: Any, names: set[str]) -> set[str]:
    address = f"http://{context.dashboard_url}"
    found = list_actors(address=address, filters=[("ray_namespace", "=", NAMESPACE)], limit=10_000)
    return {actor.name for actor in found if actor.name in names and actor.state != "DEAD"}


@pytest.mark.parametrize("damage", ["truncate a part", "flip a byte in the manifest"])
def test_a_broken_newest_checkpoint_is_skipped_on_resume(
    ray_instance: Any, tmp_path: Path, damage: str
) -> None:
    paths = RunPaths(tmp_path, "chaos-broken")
    paths.create()
    first = finish(*run_in_background(paths, options(max_battles=None, max_decisions=4)))
    assert first.decisions == 4
    broken = break_newest_checkpoint(paths.checkpoints / paths.run_id, damage)
    summary = finish(*run_in_background(paths, options(resume=LATEST)))
    entries = assert_battle_completed_once(paths, summary)
    (resume,) = [entry for entry in entries if entry.get("kind") == "resume"]
    assert resume["checkpoint"] != f"{paths.run_id}/{broken.name}"
    assert any(broken.name in skipped for skipped in resume["skipped_checkpoints"])
    log_text = paths.log.read_text(encoding="utf-8")
    assert f"{broken.name}" in log_text and "failed verification" in log_text
    assert json.loads(paths.summary.read_text(encoding="utf-8"))["stopped"] == "max_battles"
