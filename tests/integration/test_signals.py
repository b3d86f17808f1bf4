"""`engine run` stopped by signals, as real processes over the scripted game (tests.support.fake_run: the
real command line, FakeEmulator for the Emulator role; no ROM).

SIGTERM, SIGHUP and SIGINT (even with SIGINT ignored by the shell that started the run) stop it at a cycle
boundary: a final checkpoint, the summary naming the signal, no traceback, exit code 128 + the signal's
number. A cycle running past the grace is abandoned, so is one hit by a second signal; a signal during
start-up stops at once. Other commands end in one line. On Ray, the driver passes the signal on to the
conductor actor. Timings only bound waits against hanging: nothing here depends on the machine's speed.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO_ROOT
from tests.support.chaos import wait_for_decision_lines
from tests.support.romgen import write_rom, write_titled

FINISH_SECONDS = 120.0  # guards against hanging only
LONG_RUN = ["--max-decisions", "100000"]
NAMESPACE = "engine-tests"


class Run:
    """`engine run` over the scripted game in a process of its own, with its files under `tmp_path`."""

    def __init__(
        self,
        tmp_path: Path,
        fake: dict[str, Any],
        *args: str,
        config: dict[str, Any] | None = None,
        preexec: Callable[[], None] | None = None,
        env: dict[str, str] | None = None,
    ) -> None:
        self.data = tmp_path / "data"
        self.stderr_path = tmp_path / "stderr.txt"
        settings = {"runtime": {"namespace": NAMESPACE, **(config or {})}}
        config_path = tmp_path / "config.json"  # JSON is YAML
        config_path.write_text(json.dumps(settings), encoding="utf-8")
        rom = write_titled(tmp_path, "red")
        command = [sys.executable, "-m", "tests.support.fake_run", json.dumps(fake), "run", "--rom", str(rom),
                   "--data-dir", str(self.data), "--config", str(config_path), *args]  # fmt: skip

        def start() -> None:
            as_from_a_terminal()
            if preexec is not None:
                preexec()

        with self.stderr_path.open("wb") as stderr:
            self.process = subprocess.Popen(command, cwd=REPO_ROOT, stdout=subprocess.DEVNULL, stderr=stderr,
                                            preexec_fn=start, env=env)  # fmt: skip

    @property
    def run_dir(self) -> Path:
        (run,) = (self.data / "runs").iterdir()
        return run

    def wait_for_decisions(self, lines: int) -> None:
        deadline = time.monotonic() + FINISH_SECONDS
        while not (self.data / "runs").is_dir() or not any((self.data / "runs").iterdir()):
            self._check_alive(deadline)
        wait_for_decision_lines(self.run_dir / "decisions.jsonl", lines, timeout=FINISH_SECONDS)

    def wait_for_file(self, path: Path) -> None:
        deadline = time.monotonic() + FINISH_SECONDS
        while not path.exists():
            self._check_alive(deadline)

    def _check_alive(self, deadline: float) -> None:
        if self.process.poll() is not None:
            raise AssertionError(f"the run ended early:\n{self.stderr()}")
        if time.monotonic() > deadline:
            raise AssertionError(f"the run never got there:\n{self.stderr()}")
        time.sleep(0.05)

    def send(self, name: str) -> float:
        self.process.send_signal(signal.Signals[name])
        return time.monotonic()

    def finish(self) -> int:
        try:
            return self.process.wait(FINISH_SECONDS)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise AssertionError(f"the run did not stop:\n{self.stderr()}") from None

    def stderr(self) -> str:
        return self.stderr_path.read_text(encoding="utf-8", errors="replace")

    def summary(self) -> dict[str, Any]:
        summary: dict[str, Any] = json.loads((self.run_dir / "summary.json").read_text(encoding="utf-8"))
        return summary

    def checkpoints(self) -> list[str]:
        """The run's checkpoints, oldest first, by reason."""
        folder = self.data / "checkpoints" / self.run_dir.name
        if not folder.is_dir():
            return []
        names = sorted(path.name for path in folder.iterdir() if not path.name.startswith("."))
        return [name.split("-", 1)[1] for name in names]


def as_from_a_terminal() -> None:
    """The signal dispositions a run started from a terminal has. The tests themselves may run under nohup
    (SIGHUP ignored), which a run keeps on purpose; the run under test must not inherit that."""
    for number in (signal.SIGHUP, signal.SIGTERM, signal.SIGINT):
        signal.signal(number, signal.SIG_DFL)


def slow_walk() -> dict[str, Any]:
    return {"delay": 0.05}  # ~20 overworld steps a second after the scripted battle


def assert_stopped_cleanly(run: Run, code: int, stopped: str, name: str) -> dict[str, Any]:
    assert run.finish() == code, run.stderr()
    summary = run.summary()
    assert (summary["stopped"], summary["signal"], summary["error"]) == (stopped, name, None)
    assert "Traceback" not in run.stderr() and "Exception ignored" not in run.stderr()
    return summary


@pytest.mark.parametrize(
    ("name", "code", "stopped"), [("SIGTERM", 143, "terminated"), ("SIGHUP", 129, "hangup")]
)
def test_a_signal_stops_a_local_run_at_a_cycle_boundary(
    tmp_path: Path, name: str, code: int, stopped: str
) -> None:
    run = Run(tmp_path, slow_walk(), "--local", *LONG_RUN)
    run.wait_for_decisions(6)
    sent = run.send(name)
    summary = assert_stopped_cleanly(run, code, stopped, name)
    print(f"\n{name}: exit {code} {time.monotonic() - sent:.2f} s after the signal")
    assert summary["decisions"] >= 6 and summary["battles"][0]["outcome"] == "victory"
    assert run.checkpoints()[-1] == "stop"
    log = run.stderr()
    assert f"{name}: stopping after this cycle" in log and f"{stopped} ({name}): stopping at a cycle" in log
    assert f"stopped by {name}" in log


def test_ctrl_c_stops_a_run_whose_shell_ignored_it(tmp_path: Path) -> None:
    """A run started in the background by a non-interactive shell inherits SIGINT as ignored."""
    run = Run(tmp_path, slow_walk(), "--local", *LONG_RUN,
              preexec=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))  # fmt: skip
    run.wait_for_decisions(6)
    run.send("SIGINT")
    assert_stopped_cleanly(run, 130, "interrupted", "SIGINT")
    assert run.checkpoints()[-1] == "stop"


def stalled(tmp_path: Path, verb: str, after: int = 0) -> dict[str, Any]:
    """A game whose verb hangs for long (once): a cycle that would outlast any grace."""
    return {"delay": 0.05, "stall": {"verb": verb, "after": after, "seconds": 600.0,
                                     "once": str(tmp_path / f"stalled-{verb}")}}  # fmt: skip


def test_a_cycle_running_past_the_grace_is_abandoned(tmp_path: Path) -> None:
    run = Run(tmp_path, stalled(tmp_path, "travel", after=20), "--local", *LONG_RUN,
              config={"stop_grace_seconds": 1.0})  # fmt: skip
    run.wait_for_file(tmp_path / "stalled-travel")
    sent = run.send("SIGTERM")
    summary = assert_stopped_cleanly(run, 143, "terminated", "SIGTERM")
    print(f"\nabandoned after the 1 s grace: exit {time.monotonic() - sent:.2f} s after SIGTERM")
    assert summary["decisions"] >= 20
    assert run.checkpoints()[-1] == "interrupted"  # the last cycle boundary's progress
    assert "the cycle did not finish within 1 s: abandoning it" in run.stderr()


def test_a_second_signal_abandons_the_cycle_at_once(tmp_path: Path) -> None:
    run = Run(tmp_path, stalled(tmp_path, "travel", after=20), "--local", *LONG_RUN,
              config={"stop_grace_seconds": 600.0})  # fmt: skip
    run.wait_for_file(tmp_path / "stalled-travel")
    run.send("SIGTERM")
    time.sleep(0.5)
    run.send("SIGINT")
    assert_stopped_cleanly(run, 143, "terminated", "SIGTERM")  # the first signal names the stop
    assert "SIGINT again: stopping at once" in run.stderr()


def test_a_signal_during_start_up_stops_at_once(tmp_path: Path) -> None:
    run = Run(
        tmp_path, stalled(tmp_path, "start"), "--local", *LONG_RUN, config={"stop_grace_seconds": 600.0}
    )
    run.wait_for_file(tmp_path / "stalled-start")
    run.send("SIGTERM")
    summary = assert_stopped_cleanly(run, 143, "terminated", "SIGTERM")
    assert summary["decisions"] == 0 and run.checkpoints() == []  # nothing was played to keep


@pytest.mark.parametrize(("name", "code", "words"), [("SIGTERM", 143, "terminated (SIGTERM)"),
                                                     ("SIGHUP", 129, "hangup (SIGHUP)"),
                                                     ("SIGINT", 130, "interrupted")])  # fmt: skip
def test_other_commands_end_in_one_line(tmp_path: Path, name: str, code: int, words: str) -> None:
    """`engine inspect` stepping a very long way (hours of frames): stopped like Ctrl-C stops it."""
    rom = write_rom(tmp_path, title=b"POKEMON RED")
    command = [sys.executable, "-m", "engine.cli", "inspect", "--rom", str(rom), "--frames", "100000000"]
    process = subprocess.Popen(command, cwd=REPO_ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               preexec_fn=as_from_a_terminal)  # fmt: skip
    time.sleep(3.0)  # well into the frames (starting Python and PyBoy takes about a second)
    process.send_signal(signal.Signals[name])
    out, err = process.communicate(timeout=FINISH_SECONDS)
    assert process.returncode == code, err
    assert err.decode().strip().splitlines()[-1] == f"engine: {words}" and b"Traceback" not in err
    assert out == b""


@pytest.mark.ray
def test_sigterm_stops_a_run_on_ray(ray_instance: Any, tmp_path: Path) -> None:
    """The driver, attached to the tests' Ray instance, passes SIGTERM on to the conductor actor."""
    address = ray_instance.address_info["gcs_address"]
    env = {**os.environ, "RAY_AUTH_MODE": "token"}  # an explicit address needs the token said
    run = Run(tmp_path, slow_walk(), "--address", address, *LONG_RUN, env=env)
    run.wait_for_decisions(6)
    sent = run.send("SIGTERM")
    summary = assert_stopped_cleanly(run, 143, "terminated", "SIGTERM")
    print(f"\nRay: exit 143 {time.monotonic() - sent:.2f} s after SIGTERM")
    assert summary["decisions"] >= 6 and summary["game"] == "red"  # written by the conductor itself
    assert run.checkpoints()[-1] == "stop"
    assert "SIGTERM: stopping after this cycle" in run.stderr()


@pytest.mark.ray
@pytest.mark.parametrize("verb", ["init", "start"])
def test_a_signal_while_a_run_on_ray_starts_stops_it_promptly(
    ray_instance: Any, tmp_path: Path, verb: str
) -> None:
    """While the actors start (the emulator's constructor hangs) the driver stops at once; during the
    intro (the emulator's `start` hangs) the conductor cannot stop, and the driver gives up after the
    grace. Either way the summary is written."""
    address = ray_instance.address_info["gcs_address"]
    env = {**os.environ, "RAY_AUTH_MODE": "token"}
    run = Run(tmp_path, stalled(tmp_path, verb), "--address", address, *LONG_RUN, env=env,
              config={"stop_grace_seconds": 1.0})  # fmt: skip
    run.wait_for_file(tmp_path / f"stalled-{verb}")
    sent = run.send("SIGTERM")
    summary = assert_stopped_cleanly(run, 143, "terminated", "SIGTERM")
    print(f"\nRay, hung in {verb}: exit 143 {time.monotonic() - sent:.2f} s after SIGTERM")
    assert summary["decisions"] == 0
