"""Helpers of the chaos tests on a real cartridge: the long battle they play, their settings, a disk that
fills up, what a run's files say happened, and the processes a killed driver leaves behind."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import signal
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import yaml

from engine.battles.models import BattleLog
from engine.checkpoints.disk import write_synced
from engine.checkpoints.models import SEAL
from engine.emulator.session import EmulatorSession
from engine.layout import RunPaths
from engine.runtime.decision_log import read_decisions
from tests.support.scenarios import set_party, start_battle

# Two level-6 starters against BUG_CATCHER #5's four level-9 bugs (WEEDLE, KAKUNA, CATERPIE, METAPOD):
# about forty decisions with the rule-based policy (42 on Red, 41 on Blue), five or six seconds on Ray, so
# an actor killed after the twelfth decision dies in the middle of the battle.
LONG_BATTLE_PARTY = [("SQUIRTLE", 6), ("BULBASAUR", 6)]
LONG_BATTLE_OPPONENT = ("BUG_CATCHER", 5)
MIN_DECISIONS = 8
EVERY_DECISIONS = 2


def chaos_settings(namespace: str) -> dict[str, Any]:
    """A checkpoint every two decisions, restartable actors, and no model tiers: every decision is
    rule-based (an API key in the environment must not make a chaos test call a model)."""
    return {
        "checkpoint": {"every_decisions": EVERY_DECISIONS},
        "runtime": {"namespace": namespace, "max_restarts": 3, "recovery_timeout_seconds": 60.0},
        "models": {"acting": None, "thinking": None},
    }


def write_config(path: Path, namespace: str) -> Path:
    path.write_text(yaml.safe_dump(chaos_settings(namespace)), encoding="utf-8")
    return path


def save_long_battle(session: EmulatorSession, path: Path) -> Path:
    """The long battle's first frames, as a save state for `engine run --state`."""
    set_party(session, LONG_BATTLE_PARTY)
    start_battle(session, *LONG_BATTLE_OPPONENT)
    path.write_bytes(session.save_state())
    return path


# -- what the files say -----------------------------------------------------------------------------
def kinds(entries: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [entry for entry in entries if entry.get("kind") == kind]


def live_battle_decisions(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The battle decisions that still count (not undone by a rollback or a resume)."""
    return [entry for entry in kinds(entries, "battle") if not entry.get("rolled_back")]


@dataclass(frozen=True)
class PlayedBattle:
    battle_id: str
    outcome: str
    actions: tuple[str, ...]  # the decisions that count, in order
    frames: tuple[int, ...]  # the frame of each, as the battle log has it
    entries: tuple[dict[str, Any], ...]  # every line of decisions.jsonl, rolled-back ones marked


def played_battle(paths: RunPaths, summary: dict[str, Any]) -> PlayedBattle:
    """The run stopped after its one battle, whose live decisions are numbered 1..n without a gap and are
    exactly the battle log's decisions."""
    assert (summary["stopped"], summary["error"]) == ("max_battles", None), summary
    (battle,) = summary["battles"]
    entries = read_decisions(paths.decisions)
    live = live_battle_decisions(entries)
    assert [entry["seq"] for entry in live] == list(range(1, len(live) + 1))
    assert len(live) == battle["decisions"] >= MIN_DECISIONS
    assert {entry["battle_id"] for entry in live} == {battle["battle_id"]}
    log = BattleLog.model_validate_json(paths.battle_log(battle["battle_id"]).read_text(encoding="utf-8"))
    actions = tuple(entry["action"] for entry in live)
    assert tuple(record.action for record in log.decisions) == actions
    frames = tuple(record.frame for record in log.decisions)
    return PlayedBattle(battle["battle_id"], battle["outcome"], actions, frames, tuple(entries))


def summary_of(paths: RunPaths) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(paths.summary.read_text(encoding="utf-8"))
    return data


def log_line(text: str, needle: str) -> str:
    """The first line of run.log holding `needle`."""
    for line in text.splitlines():
        if needle in line:
            return line
    raise AssertionError(f"no line of run.log says {needle!r}")


def log_time(line: str) -> datetime:
    """The time stamp a run.log line starts with (`2026-11-22 13:19:18,822 INFO ...`)."""
    return datetime.strptime(" ".join(line.split()[:2]), "%Y-%m-%d %H:%M:%S,%f")


# -- a disk that fills up -----------------------------------------------------------------------------
class FillingDisk:
    """`write_file` for a CheckpointStore on a disk with `free` bytes left, or (`checkpoints`) with room
    for that many whole checkpoints and not a byte more, whatever their size: the write that does not fit
    puts what fits on the disk, then fails with ENOSPC, as write(2) does on a full file system; so does
    every write after it."""

    def __init__(self, free: int = 1 << 62, checkpoints: int | None = None) -> None:
        self.free = free
        self.room = checkpoints
        self.failures = 0

    def __call__(self, path: Path, data: bytes) -> None:
        if len(data) <= self.free:
            write_synced(path, data)
            self.free -= len(data)
            if path.name == SEAL and self.room is not None:  # a checkpoint's last file
                self.room -= 1
                self.free = self.free if self.room > 0 else 0
            return
        write_synced(path, data[: self.free])
        self.free = 0
        self.failures += 1
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))


# -- processes -------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Process:
    pid: int
    name: str
    session: int


def processes() -> list[Process]:
    """Every process of the machine, from /proc (comm and session id of each)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue  # gone meanwhile
        name, _, rest = stat[stat.index("(") + 1 :].rpartition(")")
        fields = rest.split()
        if fields[0] == "Z":
            continue  # a zombie: already dead, waiting for its parent to collect it
        found.append(Process(int(entry.name), name, int(fields[3])))
    return found


def raylets() -> list[Process]:
    return [process for process in processes() if process.name == "raylet"]


def session_processes(session: int) -> list[Process]:
    """The processes of a session: a driver started with start_new_session=True leads one, and every
    process Ray starts for it (GCS, raylet, agents, workers) stays in it."""
    return [process for process in processes() if process.session == session]


def end_session(session: int, timeout: float = 30.0) -> list[Process]:
    """SIGKILL whatever is left of a session; returns what was left."""
    left = session_processes(session)
    for process in left:
        with contextlib.suppress(ProcessLookupError):
            os.kill(process.pid, signal.SIGKILL)
    deadline = time.monotonic() + timeout
    while session_processes(session):
        if time.monotonic() > deadline:
            raise AssertionError(f"still running after SIGKILL: {session_processes(session)}")
        time.sleep(0.1)
    return left


def wait_for_run_dir(data_dir: Path, timeout: float = 120.0) -> RunPaths:
    """The one run a driver started under `data_dir`, once its folder exists."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        runs = data_dir / "runs"
        found = sorted(runs.iterdir()) if runs.is_dir() else []
        if found:
            (run_dir,) = found
            return RunPaths(data_dir, run_dir.name)
        time.sleep(0.05)
    raise AssertionError(f"no run started under {data_dir}")
