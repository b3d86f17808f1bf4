"""Playing at a chosen speed: the pacer sleeps until the frames played are due, never makes up for time
spent deciding, and the flags that set it (and PyBoy's window) are checked before anything runs."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from engine.commands.arguments import speed_factor
from engine.config import EmulatorConfig
from engine.emulator.errors import DisplayError
from engine.emulator.pacing import GAME_BOY_FPS, Pacer
from engine.emulator.session import open_session
from tests.support.romgen import write_titled


class FakeClock:
    def __init__(self, start: float) -> None:
        self.now = start
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


@pytest.mark.parametrize("start", [0.0, 5.0, 1e7])  # however long the machine has been up
def test_real_time_sleeps_until_the_frames_are_due(start: float) -> None:
    clock = FakeClock(start)
    pacer = Pacer(1.0, clock=clock, sleep=clock.sleep)
    for _ in range(60):
        pacer.wait(1)
    assert clock.now - start == pytest.approx(60 / GAME_BOY_FPS)
    double = FakeClock(start)
    fast = Pacer(2.0, clock=double, sleep=double.sleep)
    fast.wait(120)
    assert double.now - start == pytest.approx(60 / GAME_BOY_FPS)


def test_time_spent_deciding_is_not_made_up_by_racing() -> None:
    clock = FakeClock(100.0)
    pacer = Pacer(1.0, clock=clock, sleep=clock.sleep)
    pacer.wait(60)
    clock.now += 5.0  # a long decision: the game stood still
    slept = len(clock.slept)
    pacer.wait(1)  # not 5 seconds ahead of schedule: the pace starts again from here
    assert len(clock.slept) == slept
    pacer.wait(60)
    assert clock.slept[-1] == pytest.approx(60 / GAME_BOY_FPS, rel=0.05)


def test_speed_flags_are_checked() -> None:
    assert speed_factor("1") == 1.0 and speed_factor("2.5") == 2.5
    for bad in ("0", "-1", "101", "fast"):
        with pytest.raises(argparse.ArgumentTypeError):
            speed_factor(bad)


def test_a_window_without_a_display_is_refused_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    with pytest.raises(DisplayError, match="needs a display"):
        open_session(write_titled(tmp_path, "red"), EmulatorConfig(window=True))
