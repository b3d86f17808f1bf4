"""Shared test set-up: fixture locations and a guard that fails any test reaching beyond loopback."""

from __future__ import annotations

import ipaddress
import logging
import os
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
# RAM and tile-index captures kept with the tests (tests/fixtures/gen1/README.md says what is in them).
GEN1_FIXTURES = Path(os.environ.get("ENGINE_GEN1_FIXTURES", REPO_ROOT / "tests" / "fixtures" / "gen1"))
# Ray starts its workers, and so every actor, at niceness 15: beside another busy process on the machine
# they got a few percent of a core and a test's 10 s call to the conductor ran out. Every Ray instance the
# tests start (in this process or a `ray start` child) inherits this.
os.environ.setdefault("RAY_worker_niceness", "0")


def _is_local(address: object) -> bool:
    if not isinstance(address, tuple):
        return True  # AF_UNIX paths
    host = str(address[0])
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@pytest.fixture(autouse=True)
def no_internet(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    real_connect = socket.socket.connect
    real_connect_ex = socket.socket.connect_ex

    def guarded_connect(self: socket.socket, address: object) -> None:
        if not _is_local(address):
            raise AssertionError(f"test tried to reach the network: {address!r}")
        return real_connect(self, address)

    def guarded_connect_ex(self: socket.socket, address: object) -> int:
        if not _is_local(address):
            raise AssertionError(f"test tried to reach the network: {address!r}")
        return real_connect_ex(self, address)

    monkeypatch.setattr(socket.socket, "connect", guarded_connect)
    monkeypatch.setattr(socket.socket, "connect_ex", guarded_connect_ex)
    yield


def gen1_fixture_dirs() -> list[Path]:
    if not GEN1_FIXTURES.is_dir():
        raise RuntimeError(
            f"the Gen 1 fixtures are missing at {GEN1_FIXTURES}; set ENGINE_GEN1_FIXTURES to their folder"
        )
    return sorted(path for path in GEN1_FIXTURES.iterdir() if (path / "truth.json").is_file())


ROM_PATH = os.environ.get("POKEMON_ROM")
# Modules that start Ray instances of their own (a three-node cluster, a subprocess's): under pytest-xdist
# they join the `ray` tests on one worker, so that at most one Ray starts at a time beside the other worker.
OWN_RAY = {"test_arena_cluster", "test_telemetry_ray"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Ray's tests share one worker (`make test` runs pytest-xdist with --dist loadgroup): one session Ray
    instance for them all, as in a serial run, and two cores are not asked to run two clusters."""
    for item in items:
        module = item.module.__name__.rpartition(".")[2] if isinstance(item, pytest.Function) else ""
        uses_ray = "ray_instance" in getattr(item, "fixturenames", ())
        if item.get_closest_marker("ray") is not None or uses_ray or module in OWN_RAY:
            item.add_marker(pytest.mark.xdist_group("ray"))


@pytest.fixture(scope="session")
def ray_instance() -> Iterator[Any]:
    """One private Ray instance for the whole session: starting one costs seconds. With the dashboard,
    because `ray.util.state` answers through it; small, because the machine may have two cores."""
    import ray

    context = ray.init(
        address="local",
        num_cpus=2,
        include_dashboard=True,
        namespace="engine-tests",
        logging_level=logging.ERROR,
        log_to_driver=False,  # the conductor's progress lines would only clutter the test output
    )
    yield context
    ray.shutdown()
