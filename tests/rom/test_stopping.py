"""`engine run --local` from power-on, sent SIGTERM a few seconds in: it stops at a cycle boundary with
exit code 143, a summary saying so, a final checkpoint and no traceback, and `--resume latest` carries the
run on from that checkpoint. The time from the signal to the exit is printed (`pytest -s`)."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from engine.runtime.decision_log import read_decisions
from tests.conftest import REPO_ROOT
from tests.support.chaos import wait_for_decision_lines
from tests.support.rom_chaos import wait_for_run_dir

pytestmark = pytest.mark.rom
DEADLINE = 300.0  # guards against hanging only


def summary_of(run_dir: Path) -> dict[str, Any]:
    summary: dict[str, Any] = json.loads((run_dir / "summary.json").read_text(encoding="utf-8"))
    return summary


def test_sigterm_stops_a_run_from_power_on_and_resume_carries_on(rom_path: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    stderr_path = tmp_path / "stderr.txt"
    command = [sys.executable, "-m", "engine.cli", "run", "--local", "--rom", str(rom_path), "--data-dir",
               str(data)]  # fmt: skip
    with stderr_path.open("wb") as stderr:
        process = subprocess.Popen(command, cwd=REPO_ROOT, stdout=subprocess.DEVNULL, stderr=stderr)
    try:
        paths = wait_for_run_dir(data)
        wait_for_decision_lines(paths.decisions, 3, timeout=DEADLINE)  # past the intro, playing
        sent = time.monotonic()
        process.send_signal(signal.SIGTERM)
        code = process.wait(DEADLINE)
    finally:
        if process.poll() is None:
            process.kill()
    took = time.monotonic() - sent
    log = stderr_path.read_text(encoding="utf-8", errors="replace")
    assert code == 143, log
    assert "Traceback" not in log and "Exception ignored" not in log
    summary = summary_of(paths.run_dir)
    assert (summary["stopped"], summary["signal"], summary["error"]) == ("terminated", "SIGTERM", None)
    decisions = summary["decisions"]
    assert decisions >= 3
    checkpoints = sorted(p.name for p in (paths.checkpoints / paths.run_id).iterdir() if p.name[0] != ".")
    assert checkpoints[-1].endswith("-stop")
    print(f"\nSIGTERM after {decisions} decisions: exit 143 {took:.2f} s later ({checkpoints[-1]})")

    more = decisions + 5
    resumed = subprocess.run([*command, "--resume", "latest", "--max-decisions", str(more)], cwd=REPO_ROOT,
                             capture_output=True, text=True, timeout=DEADLINE)  # fmt: skip
    assert resumed.returncode == 0, resumed.stderr
    summary = summary_of(paths.run_dir)
    assert (summary["run_id"], summary["stopped"], summary["signal"]) == (paths.run_id, "max_decisions", None)
    assert summary["decisions"] == more
    (resume,) = [entry for entry in read_decisions(paths.decisions) if entry.get("kind") == "resume"]
    assert resume["checkpoint"] == f"{paths.run_id}/{checkpoints[-1]}" and resume["decisions"] == decisions
