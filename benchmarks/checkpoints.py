"""Checkpoints: how long one takes to write and how big it is, how long a restore takes, and how much work
a killed run loses.

    .venv/bin/python -m benchmarks.checkpoints --rom ROM [--rounds 50] [--restores 5] [--resumes 5]
        [--kills 5] [--kill-window 5] [--seed 0] [--parts writes,resume,kills]

1. Writes and restores in-process (`writes`). The real roles (`build_roles` with a data directory, so the
   Checkpoint role is the real one) play two decisions of the MISTY battle of benchmarks.runtime through
   the conductor, so every role holds a battle in progress. Then `--rounds` checkpoints are written as the
   conductor writes them (its state, its part, the Checkpoint role's `save`), with every role in this
   process and then as actors on a private Ray instance (this process plays the conductor). Columns:
   *call* is the conductor's side: the Checkpoint role's `save`, which returns once it has pulled the
   snapshots from every role (on Ray: every actor round trip included); *write* is the role's writer
   thread, which meanwhile packs the emulator's state, encodes the JSON parts, writes and fsyncs each
   file, renames the folder and prunes to `keep`; *flush* is the conductor asking for that write right
   after `save` (as it does before recording its next decision, `Supervisor.settle`): what it waits for
   if the next decision comes at once, an upper bound, since in a run the write overlaps the next cycle.
   *total* is the checkpoint's bytes on disk and *state* the emulator's save-state part of it.
   Then `Checkpointer.restore(None)` (the run's newest checkpoint that verifies, pushed into every role):
   into the live roles (`--rounds` times) and into roles built afresh, as after a crash (`--restores`
   times; building them is not timed).
2. End to end (`resume`). `engine run --state MISTY --max-decisions 2` leaves a mid-battle checkpoint;
   each round copies that data directory and starts `engine run --resume latest --max-decisions 3` in a
   new process, `--local` and on the default private Ray instance. Seconds from just before the process
   is started to: its first run.log line (Python start-up and imports, on Ray the private instance, then
   finding and verifying the checkpoint), on Ray the line saying the actors are up, the `resume` line in
   decisions.jsonl (roles built, every snapshot restored) and the first decision line after it (playing
   again), and the process's exit. decisions.jsonl is polled every 5 ms; run.log lines carry ms times.
3. Kills (`kills`). `engine run` from power-on (new game, Pallet Town, Oak's lab, the rival's battle)
   with `checkpoint.every_decisions` at 100 (the default) and at 10, `--local` and on Ray. Once its first
   decision line exists it is SIGKILLed after a seeded random delay in [0, `--kill-window`] s, with its
   whole process group (a private Ray instance's GCS, raylet and workers too); then `engine run --resume
   latest` carries the run on. *Lost decisions* is `decisions_rolled_back` of that `resume` line in
   decisions.jsonl; *lost s* the wall time from the checkpoint it resumed from (its manifest's
   `created_at`) to the kill. The bound: `every_decisions` decisions, `checkpoint.interval_seconds` of
   wall time (and a battle's start and end are checkpoints too).

Every engine process is started in a session of its own. Killing its process group is not enough on Ray:
the actors' workers have process groups of their own (in the same session) and end by themselves once
they notice that their raylet is gone. So after each process the session's members are looked up in
/proc: those that end within 15 s are counted as stragglers, any still alive then are killed by pid and
counted too. Linux only. Progress goes to stderr.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from benchmarks.runtime import make_states
from engine.actors.factory import Mode, actor_name, build_roles
from engine.actors.roles import ROLE_NAMES, Roles
from engine.config import EngineConfig
from engine.layout import RunPaths
from engine.runtime.cluster import ray_connection
from engine.runtime.conductor import Conductor
from engine.runtime.decision_log import log_size
from engine.runtime.options import RunOptions

SCENARIO = "misty"
PLAYED_DECISIONS = 2  # into the battle before the checkpoints are taken
WRITE_TARGET_MS = 100.0
RESTORE_TARGET_S = 3.0
EVERY_DECISIONS = (100, 10)
DECISION_KINDS = ("battle", "overworld")
POLL_SECONDS = 0.005
ENGINE_TIMEOUT = 300.0
NAMES_TIMEOUT = 60.0
STRAGGLER_GRACE_SECONDS = 15.0
REPO = Path(__file__).resolve().parents[1]
LOG_TIME = "%Y-%m-%d %H:%M:%S,%f"
MODES: tuple[Mode, ...] = ("local", "ray")


def progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


# -- figures ---------------------------------------------------------------------------------------
def percentile(values: list[float], q: float) -> float:
    """Nearest rank: the smallest value with at least a share q of the values at or below it."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def p50_p95_max(values: list[float], scale: float = 1.0, digits: int = 0) -> str:
    parts = (percentile(values, 0.5), percentile(values, 0.95), max(values))
    return " / ".join(f"{value * scale:,.{digits}f}" for value in parts)


def p50_max(values: list[float], scale: float = 1.0, digits: int = 0) -> str:
    return f"{percentile(values, 0.5) * scale:,.{digits}f} / {max(values) * scale:,.{digits}f}"


def mean_max(values: list[float], digits: int = 0) -> str:
    return f"{statistics.mean(values):,.{digits}f} / {max(values):,.{digits}f}"


def verdict(met: bool) -> str:
    return "met" if met else "NOT met"


# -- processes -------------------------------------------------------------------------------------
def session_members(sid: int) -> list[int]:
    """Every live process of session `sid` (field 6 of /proc/PID/stat)."""
    members = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[3]) == sid and fields[0] != "Z":
            members.append(int(entry))
    return members


def wait_until_empty(sid: int, timeout: float) -> list[int]:
    """The session's members still alive after `timeout` s (none: it emptied in time)."""
    deadline = time.monotonic() + timeout
    while (members := session_members(sid)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return members


@dataclass
class Leftovers:
    """A SIGKILLed process group does not take every Ray process with it: the workers (the actors) have
    process groups of their own in the same session, and end once they notice their raylet is gone."""

    stragglers: int = 0  # outlived the process, ended by themselves within the grace period
    straggle_s: float = 0.0  # the longest of those waits
    killed: int = 0  # still there after the grace period: killed by pid

    def reap(self, process: subprocess.Popen[bytes]) -> None:
        sid, started = process.pid, time.monotonic()
        found = session_members(sid)
        left = wait_until_empty(sid, STRAGGLER_GRACE_SECONDS)
        if len(found) > len(left):
            self.stragglers += len(found) - len(left)
            self.straggle_s = max(self.straggle_s, time.monotonic() - started)
        for pid in left:
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        if left:
            progress(f"  {len(left)} processes of session {sid} still alive after "
                     f"{STRAGGLER_GRACE_SECONDS:.0f} s: killed")  # fmt: skip
            self.killed += len(left)
            wait_until_empty(sid, STRAGGLER_GRACE_SECONDS)


LEFTOVERS = Leftovers()


def engine_command(rom: Path, data: Path, mode: Mode, *extra: str) -> list[str]:
    where = ["--local"] if mode == "local" else []
    return [sys.executable, "-m", "engine.cli", "run", "--rom", str(rom), "--data-dir", str(data),
            *where, *extra]  # fmt: skip


@contextmanager
def engine_process(command: list[str], output: Path) -> Iterator[subprocess.Popen[bytes]]:
    """`engine run` in a session of its own (with its private Ray instance, if any): nothing of it
    outlives the block."""
    with output.open("wb") as sink:
        process = subprocess.Popen(command, cwd=REPO, stdout=sink, stderr=subprocess.STDOUT,
                                   start_new_session=True)  # fmt: skip
        try:
            yield process
        finally:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            LEFTOVERS.reap(process)


def run_engine(command: list[str], output: Path) -> None:
    with engine_process(command, output) as process:
        if process.wait(ENGINE_TIMEOUT) != 0:
            raise RuntimeError(f"`engine {' '.join(command[3:])}` failed: see {output}")


def decision_entries(path: Path, start: int = 0, end: int | None = None) -> list[dict[str, Any]]:
    """The readable lines of decisions.jsonl (or of its bytes start:end)."""
    entries = []
    for line in path.read_bytes()[start:end].splitlines():
        try:
            entries.append(json.loads(line))
        except ValueError:
            continue  # a line torn by the kill
    return entries


def only_run_dir(data: Path) -> Path:
    (run_dir,) = (data / "runs").iterdir()
    return run_dir


# -- 1. writes and in-process restores -------------------------------------------------------------
@dataclass(frozen=True)
class Write:
    call_s: float
    flush_s: float
    role_s: float
    total_bytes: int
    state_bytes: int


@dataclass(frozen=True)
class InProcess:
    writes: list[Write]
    live_restores: list[float]
    fresh_restores: list[float]


def timed(action: Callable[[], object]) -> float:
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


def state_part_bytes(checkpoint: Path) -> int:
    manifest = json.loads((checkpoint / "manifest.json").read_text(encoding="utf-8"))
    return int(manifest["parts"]["emulator.state"]["bytes"])


def write_once(conductor: Conductor) -> Write:
    """One checkpoint as the supervisor takes it (the progress, the part, the role's `save`), then its
    write, waited for."""
    started = time.perf_counter()
    taken = conductor.supervisor.checkpoint("decisions")
    call_s = time.perf_counter() - started
    assert taken is not None
    started = time.perf_counter()
    (saved,) = conductor.roles.checkpoint.call.flush().saved
    flush_s = time.perf_counter() - started
    return Write(call_s, flush_s, saved.write_seconds, saved.bytes, state_part_bytes(Path(saved.path)))


def wait_for_names_free(run_id: str, namespace: str) -> None:
    """ray.kill returns before an actor's name is free, and rebuilt roles take the same names."""
    import ray

    deadline = time.monotonic() + NAMES_TIMEOUT
    for role in ROLE_NAMES:
        while time.monotonic() < deadline:
            try:
                ray.get_actor(actor_name(run_id, role), namespace=namespace)
            except ValueError:
                break
            time.sleep(0.1)


def close_roles(mode: Mode, roles: Roles, run_id: str, namespace: str) -> None:
    if mode == "local":
        for handle in roles.all():
            handle.close()
        return
    from engine.actors.ray_handles import close_all

    close_all(roles)
    wait_for_names_free(run_id, namespace)


def fresh_restore(mode: Mode, config: EngineConfig, options: RunOptions, paths: RunPaths) -> float:
    """The crash case: roles built afresh (not timed), then the newest checkpoint pushed into them."""
    roles = build_roles(config, options.role_build(paths), mode)
    try:
        return timed(lambda: roles.checkpoint.call.restore(None))
    finally:
        close_roles(mode, roles, paths.run_id, config.runtime.namespace)


def writes_and_live_restores(
    mode: Mode, config: EngineConfig, options: RunOptions, paths: RunPaths, rounds: int
) -> tuple[list[Write], list[float]]:
    roles = build_roles(config, options.role_build(paths), mode)
    try:
        conductor = Conductor(roles, options, paths)
        summary = conductor.run()  # two decisions into the battle: every role holds its state
        if summary.error or summary.decisions != PLAYED_DECISIONS:
            raise RuntimeError(f"the set-up battle went wrong: {summary.error or summary.decisions}")
        writes = []
        for index in range(rounds):
            writes.append(write_once(conductor))
            if (index + 1) % 10 == 0 or index + 1 == rounds:
                progress(f"  {mode}: {index + 1}/{rounds} checkpoints written")
        live = [timed(lambda: roles.checkpoint.call.restore(None)) for _ in range(rounds)]
        progress(f"  {mode}: {rounds} restores into the live roles")
        return writes, live
    finally:
        close_roles(mode, roles, paths.run_id, config.runtime.namespace)


def in_process(mode: Mode, rom: Path, state: Path, work: Path, rounds: int, restores: int) -> InProcess:
    config = EngineConfig()
    paths = RunPaths(work / f"writes-{mode}", f"bench-{mode}")
    paths.create()
    options = RunOptions(rom=rom, state=state, max_decisions=PLAYED_DECISIONS)
    writes, live = writes_and_live_restores(mode, config, options, paths, rounds)
    fresh = []
    for index in range(restores):
        fresh.append(fresh_restore(mode, config, options, paths))
        progress(f"  {mode}: restore into fresh roles {index + 1}/{restores}")
    return InProcess(writes, live, fresh)


def measure_in_process(
    rom: Path, state: Path, work: Path, rounds: int, restores: int
) -> dict[str, InProcess]:
    progress("writes and in-process restores")
    results = {"local": in_process("local", rom, state, work, rounds, restores)}
    with ray_connection(None, EngineConfig().runtime.namespace, log_to_driver=False):
        results["ray"] = in_process("ray", rom, state, work, rounds, restores)
    return results


# -- 2. end to end: a new process resumes ----------------------------------------------------------
@dataclass(frozen=True)
class Resume:
    log_s: float  # the first run.log line of the new process
    actors_s: float | None  # Ray: "actors started"
    restored_s: float  # the `resume` line in decisions.jsonl
    decision_s: float  # the first decision line after it
    exit_s: float


@dataclass
class Watch:
    """Reads decisions.jsonl as it grows, noting when the resume line and the next decision appear."""

    path: Path
    started: float
    offset: int
    pending: bytes = b""
    restored: float | None = None
    decided: float | None = None

    def poll(self) -> None:
        if not self.path.exists():
            return
        with self.path.open("rb") as handle:
            handle.seek(self.offset)
            chunk = handle.read()
        self.offset += len(chunk)
        *lines, self.pending = (self.pending + chunk).split(b"\n")
        now = time.perf_counter() - self.started
        for line in lines:
            kind = json.loads(line).get("kind") if line.strip() else None
            if kind == "resume" and self.restored is None:
                self.restored = now
            elif kind in DECISION_KINDS and self.restored is not None and self.decided is None:
                self.decided = now


def log_lines_after(path: Path, offset: int) -> list[tuple[float, str]]:
    """(time.time() of the line, its text) for run.log lines written after byte `offset`."""
    with path.open("rb") as handle:
        handle.seek(offset)
        text = handle.read().decode("utf-8", errors="replace")
    lines = []
    for line in text.splitlines():
        try:
            stamp = datetime.strptime(line[:23], LOG_TIME).timestamp()
        except ValueError:
            continue  # a traceback's continuation
        lines.append((stamp, line[24:]))
    return lines


def resume_once(rom: Path, pristine: Path, data: Path, mode: Mode, output: Path) -> Resume:
    shutil.copytree(pristine, data)
    run_dir = only_run_dir(data)
    log_path, decisions = run_dir / "run.log", run_dir / "decisions.jsonl"
    log_offset = log_size(log_path)
    command = engine_command(
        rom, data, mode, "--resume", "latest", "--max-decisions", str(PLAYED_DECISIONS + 1)
    )
    wall, started = time.time(), time.perf_counter()
    watch = Watch(decisions, started, log_size(decisions))
    with engine_process(command, output) as process:
        while process.poll() is None:
            watch.poll()
            time.sleep(POLL_SECONDS)
        exit_s = time.perf_counter() - started
        watch.poll()
        if process.returncode != 0 or watch.restored is None or watch.decided is None:
            raise RuntimeError(f"the resumed run did not play on: see {output}")
    lines = log_lines_after(log_path, log_offset)
    actors = [stamp for stamp, text in lines if "actors started" in text]
    return Resume(
        lines[0][0] - wall, actors[0] - wall if actors else None, watch.restored, watch.decided, exit_s
    )


def measure_resumes(rom: Path, state: Path, work: Path, rounds: int) -> dict[str, list[Resume]]:
    progress("end to end: engine run --resume latest in a new process")
    results: dict[str, list[Resume]] = {mode: [] for mode in MODES}
    pristine: dict[str, Path] = {}
    for mode in MODES:
        pristine[mode] = work / f"resume-{mode}"
        command = engine_command(rom, pristine[mode], mode, "--state", str(state),
                                 "--max-decisions", str(PLAYED_DECISIONS))  # fmt: skip
        run_engine(command, work / f"resume-{mode}.out")
    for index in range(rounds):  # alternating, so drift on a shared machine hits both alike
        for mode in MODES:
            data = work / f"resume-{mode}-{index}"
            results[mode].append(resume_once(rom, pristine[mode], data, mode, work / f"{data.name}.out"))
        progress(f"  round {index + 1}/{rounds}")
    return results


# -- 3. kills --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Kill:
    delay_s: float
    decisions_at_kill: int  # decision lines in the log when the signal was sent
    written_after: int  # decision lines the run's surviving workers added after it (Ray)
    checkpoints_after: int  # checkpoints they wrote after it
    lost_decisions: int  # decisions_rolled_back of the resume line
    lost_before_kill: int  # of those, the ones written before the kill
    lost_s: float  # from the checkpoint resumed from to the kill (negative: written after the kill)
    reason: str  # of the checkpoint resumed from


def config_file(work: Path, every: int) -> Path:
    path = work / f"every-{every}.yaml"
    path.write_text(f"checkpoint:\n  every_decisions: {every}\n", encoding="utf-8")
    return path


def wait_for_first_decision(data: Path, process: subprocess.Popen[bytes]) -> Path:
    deadline = time.monotonic() + ENGINE_TIMEOUT
    while time.monotonic() < deadline:
        found = list((data / "runs").glob("*/decisions.jsonl"))
        if found and b"\n" in found[0].read_bytes():
            return found[0]
        if process.poll() is not None:
            break
        time.sleep(0.02)
    raise RuntimeError(f"no decision from the run in {data}")


def count_decisions(path: Path, start: int = 0, end: int | None = None) -> int:
    """Decision lines in decisions.jsonl (or in its bytes start:end)."""
    return sum(entry.get("kind") in DECISION_KINDS for entry in decision_entries(path, start, end))


def checkpoint_times(data: Path) -> list[float]:
    times = []
    for manifest in (data / "checkpoints").glob("*/*/manifest.json"):
        with suppress(OSError, ValueError, KeyError):
            created = json.loads(manifest.read_text(encoding="utf-8"))["created_at"]
            times.append(datetime.fromisoformat(created).timestamp())
    return times


@dataclass(frozen=True)
class Killed:
    at: float  # time.time() of the signal
    decisions: Path
    size: int  # of decisions.jsonl right after the signal


def killed_run(rom: Path, data: Path, mode: Mode, settings: Path, delay: float, output: Path) -> Killed:
    """Start a run and SIGKILL its process group `delay` s after its first decision line; returns once
    every process of it is gone."""
    command = engine_command(rom, data, mode, "--config", str(settings), "--max-decisions", "1000000")
    with engine_process(command, output) as process:
        decisions = wait_for_first_decision(data, process)
        time.sleep(delay)
        if process.poll() is not None:
            raise RuntimeError(f"the run ended before the kill: see {output}")
        killed_at = time.time()
        os.killpg(process.pid, signal.SIGKILL)
        size = log_size(decisions)  # a stat, microseconds after the signal: what was written before it
    return Killed(killed_at, decisions, size)


def kill_once(rom: Path, data: Path, mode: Mode, settings: Path, delay: float) -> Kill:
    killed = killed_run(rom, data, mode, settings, delay, data.with_suffix(".out"))
    at_kill = count_decisions(killed.decisions, end=killed.size)
    written_after = count_decisions(killed.decisions, start=killed.size)
    checkpoints_after = sum(created > killed.at for created in checkpoint_times(data))
    command = engine_command(rom, data, mode, "--config", str(settings), "--resume", "latest",
                             "--max-decisions", "1")  # fmt: skip
    run_engine(command, data.with_suffix(".resume.out"))
    (resume,) = [entry for entry in decision_entries(killed.decisions) if entry.get("kind") == "resume"]
    manifest_path = data / "checkpoints" / resume["checkpoint"] / "manifest.json"
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    lost_s = killed.at - datetime.fromisoformat(manifest["created_at"]).timestamp()
    before_kill = count_decisions(killed.decisions, start=int(resume["after_offset"]), end=killed.size)
    return Kill(delay, at_kill, written_after, checkpoints_after, int(resume["decisions_rolled_back"]),
                before_kill, lost_s, manifest["reason"])  # fmt: skip


@dataclass
class Kills:
    window: float
    by_setting: dict[tuple[str, int], list[Kill]] = field(default_factory=dict)


def measure_kills(rom: Path, work: Path, rounds: int, window: float, seed: int) -> Kills:
    progress("kills: SIGKILL at a random moment, then --resume latest")
    rng = random.Random(seed)
    settings = {every: config_file(work, every) for every in EVERY_DECISIONS}
    kills = Kills(window, {(mode, every): [] for mode in MODES for every in EVERY_DECISIONS})
    for index in range(rounds):  # interleaved, so drift on a shared machine hits every setting alike
        for (mode, every), found in kills.by_setting.items():
            data = work / f"kill-{mode}-{every}-{index}"
            found.append(kill_once(rom, data, mode, settings[every], rng.uniform(0.0, window)))
            last = found[-1]
            progress(f"  {mode} every {every}: killed after {last.delay_s:.2f} s at {last.decisions_at_kill} "
                     f"decisions (+{last.written_after} and {last.checkpoints_after} checkpoints after the "
                     f"kill), {last.lost_decisions} rolled back, {last.lost_s:.2f} s lost")  # fmt: skip
    return kills


# -- report ----------------------------------------------------------------------------------------
def report_in_process(results: dict[str, InProcess], rounds: int) -> None:
    config = EngineConfig().checkpoint
    print(f"\ncheckpoint writes: {rounds} per mode, {PLAYED_DECISIONS} decisions into the {SCENARIO} battle, "
          f"keep {config.keep}; ms p50 / p95 / max, sizes median")  # fmt: skip
    print(f"{'mode':<7}{'call ms':>22}{'flush ms':>22}{'write ms':>22}{'total KB':>10}{'state KB':>10}")
    for mode, result in results.items():
        writes = result.writes
        total = statistics.median(w.total_bytes for w in writes) / 1024
        state = statistics.median(w.state_bytes for w in writes) / 1024
        call, flush, role = (
            p50_p95_max([w.call_s for w in writes], 1000),
            p50_p95_max([w.flush_s for w in writes], 1000),
            p50_p95_max([w.role_s for w in writes], 1000),
        )
        print(f"{mode:<7}{call:>22}{flush:>22}{role:>22}{total:>10,.0f}{state:>10,.0f}")
    worst = max(percentile([w.call_s for w in r.writes], 0.5) for r in results.values()) * 1000
    print(f"target: write p50 <= {WRITE_TARGET_MS:.0f} ms: {verdict(worst <= WRITE_TARGET_MS)} "
          f"(slowest p50 {worst:.0f} ms, conductor's side)")  # fmt: skip
    print("\nCheckpointer.restore(None): ms p50 / max")
    print(f"{'mode':<7}{'live roles':>18}{'fresh roles':>18}")
    for mode, result in results.items():
        print(f"{mode:<7}{p50_max(result.live_restores, 1000):>18}{p50_max(result.fresh_restores, 1000):>18}")
    worst_s = max(max(r.live_restores + r.fresh_restores) for r in results.values())
    print(f"target: restore <= {RESTORE_TARGET_S:.0f} s: {verdict(worst_s <= RESTORE_TARGET_S)} "
          f"(slowest {worst_s * 1000:.0f} ms)")  # fmt: skip


def report_resumes(results: dict[str, list[Resume]]) -> None:
    rounds = len(next(iter(results.values())))
    print(f"\nengine run --resume latest in a new process: s from its start, median / max of {rounds}")
    header = ("run.log opens", "actors up", "restored", "first decision", "exit")
    print(f"{'mode':<7}" + "".join(f"{name:>17}" for name in header))
    for mode, samples in results.items():
        actors = [s.actors_s for s in samples if s.actors_s is not None]
        columns = [p50_max([s.log_s for s in samples], digits=2),
                   p50_max(actors, digits=2) if actors else "-",
                   p50_max([s.restored_s for s in samples], digits=2),
                   p50_max([s.decision_s for s in samples], digits=2),
                   p50_max([s.exit_s for s in samples], digits=2)]  # fmt: skip
        print(f"{mode:<7}" + "".join(f"{column:>17}" for column in columns))
    for mode, samples in results.items():
        first = percentile([s.decision_s for s in samples], 0.5)
        print(f"target: {mode} process start to first decision <= {RESTORE_TARGET_S:.0f} s: "
              f"{verdict(first <= RESTORE_TARGET_S)} (median {first:.2f} s)")  # fmt: skip


def report_kills(kills: Kills) -> None:
    config = EngineConfig().checkpoint
    rounds = len(next(iter(kills.by_setting.values())))
    print(f"\nwork lost to a SIGKILL, {rounds} per row at a random moment 0-{kills.window:g} s after the "
          f"first decision, then --resume latest; mean / max")  # fmt: skip
    header = ("at kill", "after kill", "rolled back", "before kill", "lost s", "bound")
    print(f"{'mode':<7}{'every':>6}" + "".join(f"{name:>15}" for name in header))
    for (mode, every), found in kills.by_setting.items():
        columns = [mean_max([float(k.decisions_at_kill) for k in found]),
                   mean_max([float(k.written_after) for k in found], 1),
                   mean_max([float(k.lost_decisions) for k in found], 1),
                   mean_max([float(k.lost_before_kill) for k in found], 1),
                   mean_max([k.lost_s for k in found], 2),
                   f"{every} / {config.interval_seconds:g} s"]  # fmt: skip
        print(f"{mode:<7}{every:>6}" + "".join(f"{column:>15}" for column in columns))
        over = [k for k in found if k.lost_decisions > every]
        if over:
            print(f"  over the bound {len(over)} times (resumed from: {', '.join(k.reason for k in over)})")
        late = sum(k.checkpoints_after for k in found)
        if late:
            print(f"  {late} checkpoints were written after the kill")
    print(
        "at kill: decision lines when the signal was sent; after kill: lines the run's surviving actor "
        "workers still wrote; rolled back: the resume line's decisions_rolled_back, and how many of "
        "them were written before the kill; lost s: from the checkpoint resumed from to the kill"
    )


def load() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rom", type=Path, required=True, help="Pokémon Red/Blue cartridge image")
    parser.add_argument("--rounds", type=int, default=50, help="checkpoints written (and live restores)")
    parser.add_argument("--restores", type=int, default=5, help="restores into freshly built roles")
    parser.add_argument("--resumes", type=int, default=5, help="`engine run --resume` processes per mode")
    parser.add_argument("--kills", type=int, default=5, help="kills per mode and every_decisions")
    parser.add_argument("--kill-window", type=float, default=5.0, help="kill within this many s")
    parser.add_argument("--seed", type=int, default=0, help="seed of the kill moments")
    parser.add_argument("--parts", default="writes,resume,kills", help="comma-separated parts to run")
    args = parser.parse_args()
    parts = set(args.parts.split(","))
    work = Path(tempfile.mkdtemp(prefix="engine-checkpoint-bench-"))
    progress(f"load average at start: {load()}")
    state = make_states(args.rom, [SCENARIO], work)[SCENARIO]
    try:
        if "writes" in parts:
            report_in_process(
                measure_in_process(args.rom, state, work, args.rounds, args.restores), args.rounds
            )
        if "resume" in parts:
            report_resumes(measure_resumes(args.rom, state, work, args.resumes))
        if "kills" in parts:
            report_kills(measure_kills(args.rom, work, args.kills, args.kill_window, args.seed))
    except BaseException:
        progress(f"the runs' files are kept in {work}")
        raise
    shutil.rmtree(work, ignore_errors=True)
    print(f"\n{args.rom.name}; load average at the end {load()}")
    print(f"engine processes that outlived their process: {LEFTOVERS.stragglers}, all gone by themselves "
          f"within {LEFTOVERS.straggle_s:.1f} s; still alive after {STRAGGLER_GRACE_SECONDS:.0f} s (killed): "
          f"{LEFTOVERS.killed}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
