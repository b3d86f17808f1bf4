"""The signal trap in this process: what SIGINT, SIGTERM and SIGHUP do in each stage of a run, the grace,
the exit codes, and an interrupt raised inside PyBoy's tick that reaches the caller instead of being
dropped. Signals are sent to this very process (pytest runs tests in the main thread)."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.emulator.session import EmulatorSession
from engine.game.cartridge import Game
from engine.runtime.launch import exit_code
from engine.runtime.signals import TRAP, StopRequest, StopSignal, signal_exit_code
from engine.runtime.summary import RunSummary
from tests.support.romgen import write_rom

DEADLINE = 30.0  # guards against hanging only


@pytest.fixture
def trap() -> Iterator[None]:
    # As at a terminal: under nohup the tests run with SIGHUP ignored, which the trap keeps on purpose.
    previous = signal.signal(signal.SIGHUP, signal.SIG_DFL)
    try:
        with TRAP.installed():
            yield
    finally:
        signal.signal(signal.SIGHUP, previous)


def send(name: str) -> None:
    os.kill(os.getpid(), signal.Signals[name])


def wait_until_raised(seconds: float = DEADLINE) -> None:
    """Sleep in small steps: a handler that raises interrupts the sleep."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        time.sleep(0.01)
    raise AssertionError("no StopSignal within the deadline")


@pytest.mark.parametrize(("name", "code"), [("SIGINT", 130), ("SIGTERM", 143), ("SIGHUP", 129)])
def test_outside_a_run_a_signal_stops_at_once(trap: None, name: str, code: int) -> None:
    with pytest.raises(StopSignal) as raised:
        send(name)
        wait_until_raised()
    assert raised.value.signal == name and isinstance(raised.value, KeyboardInterrupt)
    assert signal_exit_code(name) == code  # type: ignore[arg-type]


def test_a_running_cycle_is_finished_and_a_second_signal_stops_at_once(trap: None) -> None:
    with TRAP.running(StopRequest("running"), grace=60.0) as stop:
        send("SIGTERM")
        time.sleep(0.2)  # noted only: the cycle goes on
        assert stop.signal == "SIGTERM"
        with pytest.raises(StopSignal) as raised:
            send("SIGINT")
            wait_until_raised()
    assert raised.value.signal == "SIGTERM"  # the first signal names the stop


def test_a_cycle_still_running_after_the_grace_is_abandoned(trap: None) -> None:
    started = time.monotonic()
    with TRAP.running(StopRequest("running"), grace=0.3), pytest.raises(StopSignal) as raised:
        send("SIGHUP")
        wait_until_raised()
    assert raised.value.signal == "SIGHUP"
    assert time.monotonic() - started >= 0.3


def test_starting_stops_at_once_and_stopping_only_notes(trap: None) -> None:
    with TRAP.running(StopRequest("starting"), grace=60.0), pytest.raises(StopSignal):
        send("SIGTERM")
        wait_until_raised()
    with TRAP.running(StopRequest("stopping"), grace=0.0) as stop:
        send("SIGTERM")
        send("SIGTERM")
        time.sleep(0.3)
    assert stop.signal == "SIGTERM"


def test_connecting_notes_the_first_signal_and_stops_at_the_second(trap: None) -> None:
    with TRAP.running(StopRequest("connecting"), grace=0.0) as stop:
        send("SIGTERM")
        time.sleep(0.3)  # no grace while connecting: the run stops once Ray is up
        assert stop.signal == "SIGTERM"
        with pytest.raises(StopSignal):
            send("SIGTERM")
            wait_until_raised()


def test_an_ignored_sigint_is_trapped_but_an_ignored_sighup_stays_ignored() -> None:
    before = signal.signal(signal.SIGINT, signal.SIG_IGN), signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        with TRAP.installed():
            assert signal.getsignal(signal.SIGINT) not in (signal.SIG_IGN, signal.SIG_DFL)
            assert signal.getsignal(signal.SIGHUP) == signal.SIG_IGN  # nohup
        assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN  # put back as it was
    finally:
        signal.signal(signal.SIGINT, before[0])
        signal.signal(signal.SIGHUP, before[1])


def test_the_exit_code_names_the_signal() -> None:
    def summary(stopped: str, signal_name: str | None) -> RunSummary:
        return RunSummary.model_validate({
            "run_id": "r", "game": "red", "stopped": stopped, "signal": signal_name, "battles": (),
            "decisions": 0, "overworld_steps": 0, "llm_calls": 0, "cost_usd": 0.0, "frames": 0,
            "wall_seconds": 0.0,
        })  # fmt: skip

    assert exit_code(summary("terminated", "SIGTERM")) == 143
    assert exit_code(summary("hangup", "SIGHUP")) == 129
    assert exit_code(summary("interrupted", "SIGINT")) == 130
    assert exit_code(summary("interrupted", None)) == 130  # a summary written before the field existed
    assert exit_code(summary("max_battles", None)) == 0


def test_a_signal_inside_pyboys_tick_reaches_the_caller(
    trap: None, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """PyBoy runs Python code inside tick, where a raised exception would be printed and dropped: the
    session raises it as the tick returns."""
    with EmulatorSession(write_rom(tmp_path), game=Game.RED) as session:
        threading.Timer(0.3, send, args=("SIGTERM",)).start()
        started = time.monotonic()
        with pytest.raises(StopSignal):  # (a dropped one: FrameBudgetExceeded after ~20 s)
            session.run_until(lambda memory: False, 240_000, check_every=10_000)
        assert time.monotonic() - started < DEADLINE
    assert "Exception ignored" not in capfd.readouterr().err
