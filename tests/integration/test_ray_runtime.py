"""The engine on a real local Ray instance, with a fixture-backed emulator: no ROM needed.

The roles come up as named actors with their class names, a scripted battle gives the summary the
in-process run gives, every actor is gone afterwards, typed errors keep their class across the boundary,
`engine status` reads a running engine, `engine watch` serves its live page, and Ctrl-C still ends with a
summary.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest
import ray
from ray.util.state import list_actors

from engine.actors.errors import RoleDiedError
from engine.actors.factory import EmulatorFactory, RoleBuild, actor_name, build_roles
from engine.actors.handles import screen_feed
from engine.actors.ray_handles import RayHandle, close_all
from engine.actors.roles import ROLE_NAMES
from engine.cli import main
from engine.commands.watch import serve_remote
from engine.config import EngineConfig, config_from_mapping
from engine.game.errors import RomError
from engine.game.models import DecisionPoint
from engine.layout import RunPaths
from engine.mechanics.errors import ExecutionError
from engine.runtime.local import run_local
from engine.runtime.options import RunOptions
from engine.runtime.ray_run import run_on_ray, start_conductor
from engine.runtime.summary import RunSummary
from engine.runtime.watch_remote import FETCH_SECONDS
from tests.conftest import GEN1_FIXTURES
from tests.support.fake_emulator import FAKE_CARTRIDGE_SHA256, WILD_BATTLE, BrokenCartridge, FakeEmulator

pytestmark = pytest.mark.ray
NAMESPACE = "engine-tests"
CLASS_NAMES = {
    "emulator": "EmulatorActor",
    "vision": "VisionActor",
    "observer": "ObserverActor",
    "strategist": "StrategistActor",
    "tactician": "TacticianActor",
    "reflection": "ReflectionActor",
    "checkpoint": "CheckpointActor",
    "gateway": "ModelGatewayActor",
    "memory": "LessonMemoryActor",
    "conductor": "ConductorActor",
}


def fake(**options: Any) -> EmulatorFactory:
    return partial(FakeEmulator, fixtures=GEN1_FIXTURES, **options)


@pytest.fixture
def config() -> EngineConfig:
    return config_from_mapping({"runtime": {"namespace": NAMESPACE}})


def run_paths(tmp_path: Path, run_id: str) -> RunPaths:
    paths = RunPaths(tmp_path / "data", run_id)
    paths.create()
    return paths


def comparable(summary: RunSummary) -> dict[str, Any]:
    """A summary without what differs between any two runs: the run id and the clocks."""
    data = summary.model_dump(mode="json", exclude={"run_id", "wall_seconds"})
    for battle in data["battles"]:
        battle.pop("wall_seconds")
        battle["battle_id"] = battle["battle_id"].removeprefix(summary.run_id)
    if "battle_ids" in data:
        data["battle_ids"] = [battle_id.removeprefix(summary.run_id) for battle_id in data["battle_ids"]]
    for split in data.get("milestones", []):
        split.pop("seconds")  # the frame and decision of each split must agree; its wall time cannot
    return data


def decisions(paths: RunPaths) -> list[dict[str, Any]]:
    entries = [json.loads(line) for line in paths.decisions.read_text(encoding="utf-8").splitlines()]
    for entry in entries:
        entry.pop("seconds", None)  # the run's wall-clock time at the decision: no two runs agree on it
        if "battle_id" in entry:
            entry["battle_id"] = entry["battle_id"].removeprefix(paths.run_id)
    return entries


def actors_of(context: Any, run_id: str) -> dict[str, tuple[str, str]]:
    """name -> (class name, state) for every actor of the run the state API knows, dead ones too."""
    found = list_actors(
        address=f"http://{context.dashboard_url}",
        filters=[("ray_namespace", "=", NAMESPACE)],
        detail=True,
        limit=1000,
    )
    return {a.name: (a.class_name, a.state) for a in found if a.name and a.name.startswith(f"{run_id}/")}


def wait_for(condition: Callable[[], bool], seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("condition not met in time")
        time.sleep(0.2)


def all_gone(context: Any, run_id: str) -> bool:
    named = {entry["name"] for entry in ray.util.list_named_actors(all_namespaces=True)}
    states = actors_of(context, run_id)
    return not any(name.startswith(f"{run_id}/") for name in named) and all(
        state == "DEAD" for _, state in states.values()
    )


@pytest.fixture
def started(ray_instance: Any, config: EngineConfig, tmp_path: Path) -> Iterator[tuple[Any, Any]]:
    """The seven roles and the conductor of run `t-up`, not yet playing; ended after the test."""
    options = RunOptions(rom=Path("scripted.gb"))
    roles = build_roles(config, RoleBuild(rom=options.rom, run_id="t-up"), "ray", fake())
    conductor = start_conductor(config, options, run_paths(tmp_path, "t-up"), roles)
    yield roles, conductor
    ray.kill(conductor)
    close_all(roles)


def test_every_role_comes_up_named_and_healthy(ray_instance: Any, started: tuple[Any, Any]) -> None:
    _, conductor = started
    status = ray.get(conductor.status.remote(), timeout=30)
    assert (status.run_id, status.state) == ("t-up", "starting")
    assert [report.role for report in status.roles] == list(ROLE_NAMES)
    assert all(report.healthy for report in status.roles)
    expected = {actor_name("t-up", role): (cls, "ALIVE") for role, cls in CLASS_NAMES.items()}
    wait_for(lambda: actors_of(ray_instance, "t-up") == expected)


def test_a_scripted_battle_gives_the_local_summary_and_leaves_no_actor(
    ray_instance: Any, config: EngineConfig, tmp_path: Path
) -> None:
    options = RunOptions(rom=Path("scripted.gb"), max_decisions=6)
    local_paths, ray_paths = run_paths(tmp_path, "t-local"), run_paths(tmp_path, "t-ray")
    local = run_local(config, options, local_paths, emulator_factory=fake())
    on_ray = run_on_ray(config, options, ray_paths, fake())
    assert on_ray.stopped == "max_decisions" and on_ray.error is None
    (battle,) = on_ray.battles
    assert (battle.outcome, battle.opponent, battle.decisions) == ("victory", "PIDGEY", 2)
    assert comparable(on_ray) == comparable(local)
    assert decisions(ray_paths) == decisions(local_paths)
    assert json.loads(ray_paths.summary.read_text(encoding="utf-8")) == on_ray.model_dump(mode="json")
    journey = (local_paths.run_dir / "journey.json").read_text(encoding="utf-8")
    assert (ray_paths.run_dir / "journey.json").read_text(encoding="utf-8") == journey
    assert "battle 1: victory vs PIDGEY" in ray_paths.log.read_text(encoding="utf-8")
    wait_for(lambda: all_gone(ray_instance, "t-ray"))
    assert set(actors_of(ray_instance, "t-ray")) == {actor_name("t-ray", r) for r in CLASS_NAMES}


def test_a_typed_error_in_an_actor_reaches_the_conductor(
    ray_instance: Any, config: EngineConfig, tmp_path: Path
) -> None:
    options = RunOptions(rom=Path("scripted.gb"), max_battles=1)
    local = run_local(config, options, run_paths(tmp_path, "t-err-local"),
                      emulator_factory=fake(fail_on="execute"))  # fmt: skip
    on_ray = run_on_ray(config, options, run_paths(tmp_path, "t-err"), fake(fail_on="execute"))
    assert on_ray.stopped == "error"
    assert on_ray.error is not None and "the scripted game refused execute" in on_ray.error
    assert on_ray.error == local.error
    wait_for(lambda: all_gone(ray_instance, "t-err"))


def test_errors_keep_their_class_and_fields_across_the_boundary(
    ray_instance: Any, config: EngineConfig
) -> None:
    roles = build_roles(
        config, RoleBuild(rom=Path("scripted.gb"), run_id="t-typed"), "ray", fake(fail_on="advance")
    )
    try:
        with pytest.raises(ExecutionError) as raised:
            roles.emulator.call.advance()
        assert type(raised.value) is ExecutionError
        assert (
            raised.value.point is DecisionPoint.BATTLE_MAIN_MENU and raised.value.frame_hash == "fake-frame"
        )
    finally:
        close_all(roles)


def test_a_role_that_cannot_start_raises_its_own_error(ray_instance: Any, config: EngineConfig) -> None:
    with pytest.raises(RomError, match="not a Game Boy cartridge image"):
        build_roles(config, RoleBuild(rom=Path("broken.gb"), run_id="t-broken"), "ray", BrokenCartridge)
    wait_for(lambda: all_gone(ray_instance, "t-broken"))


def test_a_dead_role_is_named(started: tuple[Any, Any]) -> None:
    roles, conductor = started
    tactician: RayHandle = roles.tactician
    ray.kill(tactician.actor)
    with pytest.raises(RoleDiedError, match="the tactician actor died"):
        wait_for(lambda: tactician.call.report() is None, seconds=10)
    status = ray.get(conductor.status.remote(), timeout=30)
    health = {report.role: report.healthy for report in status.roles}
    assert health == {role: role != "tactician" for role in ROLE_NAMES}


# -- a running engine ---------------------------------------------------------------------------------
SLOW_WALK = fake(script=WILD_BATTLE, delay=0.05)  # ~20 overworld steps a second after the battle


class Background:
    """`run_on_ray` in a thread, as `engine run` in another terminal."""

    def __init__(self, config: EngineConfig, paths: RunPaths) -> None:
        self.paths = paths
        self.summary: RunSummary | None = None
        options = RunOptions(rom=Path("scripted.gb"), max_decisions=2000)
        self.thread = threading.Thread(target=self._run, args=(config, options), daemon=True)
        self.thread.start()

    def _run(self, config: EngineConfig, options: RunOptions) -> None:
        self.summary = run_on_ray(config, options, self.paths, SLOW_WALK)

    def conductor(self) -> Any:
        return ray.get_actor(actor_name(self.paths.run_id, "conductor"), namespace=NAMESPACE)

    def running(self) -> bool:
        try:
            status = ray.get(self.conductor().status.remote(), timeout=10)
        except (ValueError, ray.exceptions.GetTimeoutError):  # not created yet, or busy: wait_for bounds it
            return False
        return status.state == "running" and status.decisions >= 4

    def stop(self) -> RunSummary:
        self.conductor().request_stop.remote()
        self.thread.join(timeout=60)
        assert self.summary is not None
        return self.summary


def test_engine_status_reads_a_running_engine(
    ray_instance: Any, config: EngineConfig, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    engine = Background(config, run_paths(tmp_path, "t-status"))
    try:
        wait_for(engine.running, seconds=60)
        assert main(["status", "--namespace", NAMESPACE, "--json"]) == 0
        (status,) = json.loads(capsys.readouterr().out)["runs"]
        assert (status["run_id"], status["game"], status["state"]) == ("t-status", "red", "running")
        assert status["battles"] == 1 and status["decisions"] >= 4 and status["frames"] > 0
        assert status["where"].startswith("PALLET_TOWN (")
        # The run checkpoints at its start and at the battle's end: seconds ago, not minutes.
        assert 0 <= status["seconds_since_checkpoint"] < 60
        assert {r["role"]: r["healthy"] for r in status["roles"]} == dict.fromkeys(ROLE_NAMES, True)

        assert main(["status", "--namespace", NAMESPACE]) == 0
        text = capsys.readouterr().out
        assert "run t-status (red): running" in text
        assert text.split("checkpoint   ")[1].splitlines()[0].endswith(" s ago")
        assert "emulator    ok" in text

        # From another process, as a user would ask: the token comes from the environment Ray set up.
        address = ray_instance.address_info["gcs_address"]
        command = [
            sys.executable,
            "-m",
            "engine.cli",
            "status",
            "--address",
            address,
            "--namespace",
            NAMESPACE,
        ]
        env = {**os.environ, "RAY_AUTH_MODE": "token"}
        answer = subprocess.run([*command, "--json"], capture_output=True, text=True, timeout=120, env=env)
        assert answer.returncode == 0, answer.stderr
        assert [run["run_id"] for run in json.loads(answer.stdout)["runs"]] == ["t-status"]
    finally:
        summary = engine.stop()
    assert summary.stopped == "interrupted" and summary.battles[0].outcome == "victory"
    assert main(["status", "--namespace", NAMESPACE]) == 1
    assert "no running engine in namespace 'engine-tests'" in capsys.readouterr().err


def test_ctrl_c_in_the_driver_still_writes_the_summary(
    ray_instance: Any, config: EngineConfig, tmp_path: Path
) -> None:
    paths = run_paths(tmp_path, "t-ctrl-c")
    name = actor_name(paths.run_id, "conductor")

    def press_ctrl_c() -> None:
        def playing() -> bool:
            try:
                conductor = ray.get_actor(name, namespace=NAMESPACE)
                return ray.get(conductor.status.remote(), timeout=10).decisions >= 4
            except (ValueError, ray.exceptions.GetTimeoutError):  # not there yet, or busy: wait_for bounds it
                return False

        wait_for(playing, seconds=120)
        os.kill(os.getpid(), signal.SIGINT)

    # Ctrl-C as at a terminal, even when the tests run in the background (where SIGINT starts ignored)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    presser = threading.Thread(target=press_ctrl_c, daemon=True)
    presser.start()
    options = RunOptions(rom=Path("scripted.gb"), max_decisions=2000)
    try:
        summary = run_on_ray(config, options, paths, SLOW_WALK)
    finally:
        presser.join()
        signal.signal(signal.SIGINT, previous)
    assert summary.stopped == "interrupted" and summary.decisions >= 4
    assert json.loads(paths.summary.read_text(encoding="utf-8"))["stopped"] == "interrupted"
    wait_for(lambda: all_gone(ray_instance, "t-ctrl-c"))


@ray.remote(num_cpus=0)
class NeverStarts:
    """An actor that dies before it can answer, as every actor does on a cluster whose token
    authentication differs from the client's."""

    def __init__(self) -> None:
        os._exit(1)

    def ping(self) -> bool:
        return True


@ray.remote(num_cpus=0)
class Starts:
    def ping(self) -> bool:
        return True


def test_a_cluster_that_cannot_start_actors_is_one_line_naming_the_auth_setting(ray_instance: Any) -> None:
    from engine.actors.errors import ClusterUnavailableError
    from engine.runtime.cluster import check_actors_start

    check_actors_start("auto", Starts)  # a healthy cluster passes
    with pytest.raises(ClusterUnavailableError) as raised:
        check_actors_start("auto", NeverStarts)
    message = str(raised.value)
    assert "\n" not in message and "cannot start the engine's actors" in message
    assert "RAY_AUTH_MODE" in message and "ray get-auth-token --generate" in message


def test_engine_watch_serves_the_page_of_a_running_engine(
    ray_instance: Any, config: EngineConfig, tmp_path: Path
) -> None:
    paths = run_paths(tmp_path, "t-watch")
    # An earlier run of the same (scripted) cartridge from power-on: the page's splits compare with it.
    left = {"name": "leave_house", "title": "leave the house", "number": 1, "frame": 10**6, "decision": 1,
            "seconds": 1.0}  # fmt: skip
    earlier = {"rom_sha256": FAKE_CARTRIDGE_SHA256, "start": {"kind": "power_on"}, "milestones": [left]}
    (paths.data_dir / "runs" / "t-earlier").mkdir()
    (paths.data_dir / "runs" / "t-earlier" / "summary.json").write_text(json.dumps(earlier), encoding="utf-8")
    engine = Background(config, paths)
    stop, urls = threading.Event(), []
    failures: list[BaseException] = []
    reasons: list[str] = []

    def watch() -> None:
        try:
            reasons.append(serve_remote("auto", NAMESPACE, None, ("127.0.0.1", 0), stop, urls.append))
        except BaseException as exc:  # shown by the test, not lost with the thread
            failures.append(exc)
            raise

    watcher = threading.Thread(target=watch, daemon=True)
    try:
        wait_for(engine.running, seconds=60)
        watcher.start()
        wait_for(lambda: bool(urls) or bool(failures), seconds=30)
        assert not failures, failures

        def state() -> dict[str, Any]:
            with urllib.request.urlopen(urls[0] + "api/state", timeout=10) as answer:
                return dict(json.load(answer))

        wait_for(lambda: state()["view"] is not None, seconds=30)
        first = state()
        assert (first["view"]["run_id"], first["view"]["game"]) == ("t-watch", "red")
        splits = first["view"]["splits"]  # made where the conductor runs, from the summaries read there
        assert splits["start"] == "power-on" and splits["comparison"] == "t-earlier", splits
        # The conductor keeps making views while the page is fed: decisions move on the page.
        wait_for(lambda: state()["view"]["decisions"] > first["view"]["decisions"], seconds=30)
        with urllib.request.urlopen(urls[0] + "screen.png", timeout=10) as answer:
            assert answer.read()[:8] == b"\x89PNG\r\n\x1a\n"
    finally:
        summary = engine.stop()
    # The run is over: the page keeps its last view, which says so.
    wait_for(lambda: state()["view"]["phase"] in ("stopped", "stopping"), seconds=30)
    assert summary.stopped == "interrupted"
    last_phase = state()["view"]["phase"]

    def conductor_gone() -> bool:
        try:
            engine.conductor()
        except ValueError:
            return True
        return False

    wait_for(conductor_gone, seconds=30)
    time.sleep(8 * FETCH_SECONDS)  # a few fetches: the page's side notices the conductor is gone
    stop.set()
    watcher.join(timeout=30)
    assert not watcher.is_alive() and len(reasons) == 1
    if last_phase == "stopped":  # the page saw the run's last view: the run's own word, not Ray's
        assert reasons[0] == "run t-watch has ended (stopped)"
    else:
        assert reasons[0].startswith("the run's conductor is gone")


def test_engine_watch_without_a_running_engine_or_on_a_taken_port_is_one_line(
    ray_instance: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["watch", "--namespace", "nobody-runs-here", "--port", "0"]) == 2
    assert capsys.readouterr().err.strip() == (
        "engine: error: no engine is running in namespace 'nobody-runs-here' on that cluster"
    )
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["watch", "--namespace", "nobody-runs-here", "--port", str(port)]) == 2
    assert capsys.readouterr().err.startswith(
        f"engine: error: --port: cannot serve the live page on 127.0.0.1:{port}"
    )


def test_the_emulator_actor_shows_its_screen_while_a_long_verb_runs(
    ray_instance: Any, config: EngineConfig
) -> None:
    roles = build_roles(config, RoleBuild(rom=Path("scripted.gb"), run_id="t-screen"), "ray", fake(delay=3.0))
    try:
        roles.emulator.call.start(None)
        finished = threading.Event()

        def long_verb() -> None:
            roles.emulator.call.advance()  # three seconds in the emulator's one-at-a-time group
            finished.set()

        walker = threading.Thread(target=long_verb, daemon=True)
        walker.start()
        time.sleep(0.5)  # the verb has started
        screen = screen_feed(roles.emulator)()
        assert not finished.is_set()  # answered from the "live" group, not after the verb
        assert screen[:8] == b"\x89PNG\r\n\x1a\n"
        walker.join(timeout=30)
        assert finished.is_set()
    finally:
        close_all(roles)
