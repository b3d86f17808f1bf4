"""Actor runtime overhead: the same battles from battle-start save states, in-process and on Ray.

    .venv/bin/python -m benchmarks.runtime --rom ROM [--rounds 5] [--scenarios wild_rattata,brock,misty]

Each scenario is played as `engine run --state S --max-battles 1` plays it: fresh roles per run, the
rule-based policy, no LLM. Rounds alternate local and Ray runs so that drift on a shared machine hits both
alike; medians over the rounds are printed. On Ray, one private instance (as `engine run` without
--address starts) serves every round, with a fresh set of eight actors per run.

Columns: the battle's own wall clock (first decision to the free overworld, as in the summary), its
decisions, the Ray/local ratio, the added time per decision ((Ray - local) / decisions), and the actors'
start-up per Ray run (outside the battle). Memory: every 50 ms during the Ray runs the driver and every
process descended from it are read from /proc (a private instance's GCS, raylet, agents, log monitor and
workers, including the eight actors); the peak of the sum is printed, by process group, as RSS (which
counts shared pages, such as libraries and the object store mapping, once per process) and as PSS (each
shared page split between its users: the better total). Linux only.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from engine.config import EngineConfig
from engine.emulator.session import EmulatorSession
from engine.layout import RunPaths
from engine.runtime.cluster import ray_connection
from engine.runtime.local import run_local
from engine.runtime.options import RunOptions
from engine.runtime.ray_run import run_on_ray
from engine.runtime.summary import RunSummary
from tests.support.scenarios import boot_to_overworld, set_party, start_battle

Setup = Callable[[EmulatorSession], None]


def _party_vs(party: list[tuple[str, int]], opponent: str, level_or_number: int) -> Setup:
    def setup(session: EmulatorSession) -> None:
        set_party(session, party)
        start_battle(session, opponent, level_or_number)

    return setup


SCENARIOS: dict[str, Setup] = {
    "wild_rattata": _party_vs([("SQUIRTLE", 8)], "RATTATA", 6),
    "brock": _party_vs([("SQUIRTLE", 13)], "BROCK", 1),
    "misty": _party_vs([("IVYSAUR", 24), ("PIKACHU", 22)], "MISTY", 1),
    "lt_surge": _party_vs([("DUGTRIO", 30), ("SANDSLASH", 28)], "LT_SURGE", 1),
}
SAMPLE_SECONDS = 0.05
RAY_AGENTS = ("ray::DashboardAgent", "ray::RuntimeEnvAgent")
PAGE = os.sysconf("SC_PAGE_SIZE")


# -- memory ----------------------------------------------------------------------------------------
def _children() -> dict[int, list[int]]:
    tree: dict[int, list[int]] = defaultdict(list)
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            parent = int(stat.rsplit(")", 1)[1].split()[1])
            tree[parent].append(int(entry))
    return tree


def _descendants(root: int) -> list[int]:
    tree, found, todo = _children(), [root], [root]
    while todo:
        for child in tree.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _group(pid: int) -> str:
    if pid == os.getpid():
        return "driver"
    command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    if command.startswith("ray::IDLE"):
        return "idle workers"
    if command.startswith("ray::") and not command.startswith(RAY_AGENTS):
        return "actors"  # a worker names itself after the actor it hosts: ray::EmulatorActor.call ...
    return "ray system"  # gcs_server, raylet, dashboard and runtime-env agents, log monitor


def _memory(pid: int) -> tuple[int, int]:
    """(RSS, PSS) in bytes."""
    rss = pss = 0
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if line.startswith("Rss:"):
            rss = int(line.split()[1]) * 1024
        elif line.startswith("Pss:"):
            pss = int(line.split()[1]) * 1024
    return rss, pss


@dataclass
class MemoryPeak:
    total_rss: int = 0
    total_pss: int = 0
    by_group: dict[str, tuple[int, int, int]] = field(default_factory=dict)  # processes, RSS, PSS

    def sample(self) -> None:
        groups: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
        for pid in _descendants(os.getpid()):
            try:
                rss, pss = _memory(pid)
                group = groups[_group(pid)]
            except OSError:
                continue  # ended between listing and reading
            group[0] += 1
            group[1] += rss
            group[2] += pss
        total_rss = sum(g[1] for g in groups.values())
        if total_rss > self.total_rss:
            self.total_rss = total_rss
            self.total_pss = sum(g[2] for g in groups.values())
            self.by_group = {name: (g[0], g[1], g[2]) for name, g in groups.items()}


class Sampler:
    def __init__(self, peak: MemoryPeak) -> None:
        self.peak = peak
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._loop, daemon=True)

    def _loop(self) -> None:
        while not self.stop.wait(SAMPLE_SECONDS):
            self.peak.sample()

    def __enter__(self) -> Sampler:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join()


# -- runs ------------------------------------------------------------------------------------------
def make_states(rom: Path, names: list[str], folder: Path) -> dict[str, Path]:
    states: dict[str, Path] = {}
    with EmulatorSession(rom) as session:
        boot_to_overworld(session)
        bedroom = session.save_state()
        for name in names:
            session.load_state(bedroom)
            SCENARIOS[name](session)
            states[name] = folder / f"{name}.state"
            states[name].write_bytes(session.save_state())
    return states


@dataclass
class Sample:
    battle_seconds: float
    decisions: int
    frames: int
    outcome: str
    startup_seconds: float = 0.0


def _settle(timeout: float = 15.0) -> None:
    """Wait until the previous run's actor processes have exited (ray.kill returns before they do)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            groups = [_group(pid) for pid in _descendants(os.getpid())]
        except OSError:
            continue
        if "actors" not in groups:
            return
        time.sleep(0.1)


def _sample(summary: RunSummary, total: float) -> Sample:
    (battle,) = summary.battles
    return Sample(battle.wall_seconds, battle.decisions, battle.frames, battle.outcome,
                  max(0.0, total - summary.wall_seconds))  # fmt: skip


def play(mode: str, config: EngineConfig, rom: Path, state: Path, data: Path, run_id: str) -> Sample:
    paths = RunPaths(data, run_id)
    paths.create()
    options = RunOptions(rom=rom, state=state, max_battles=1)
    started = time.perf_counter()
    summary = (run_local if mode == "local" else run_on_ray)(config, options, paths)
    return _sample(summary, time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rom", type=Path, required=True, help="Pokémon Red/Blue cartridge image")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds; medians reported")
    parser.add_argument("--scenarios", default=",".join(SCENARIOS), help="comma-separated scenario names")
    args = parser.parse_args()
    names = [name for name in args.scenarios.split(",") if name]
    config = EngineConfig()
    work = Path(tempfile.mkdtemp(prefix="engine-runtime-bench-"))
    states = make_states(args.rom, names, work)
    samples: dict[tuple[str, str], list[Sample]] = defaultdict(list)
    ray_peak, local_peak = MemoryPeak(), MemoryPeak()
    with ray_connection(None, "engine-benchmark"):
        for round_number in range(args.rounds):
            for name in names:
                for mode in ("local", "ray"):
                    _settle()
                    samples[(name, mode)].append(
                        play(mode, config, args.rom, states[name], work, f"{mode}-{name}-{round_number}")
                    )
        # Memory in a pass of its own: reading /proc every 50 ms costs CPU the timed runs should not share.
        for name in names:
            for mode, peak in (("local", local_peak), ("ray", ray_peak)):
                _settle()
                with Sampler(peak):
                    play(mode, config, args.rom, states[name], work, f"{mode}-{name}-memory")
    _report(names, samples, args.rounds, args.rom.name, ray_peak, local_peak)


def _report(
    names: list[str],
    samples: dict[tuple[str, str], list[Sample]],
    rounds: int,
    rom: str,
    ray_peak: MemoryPeak,
    local_peak: MemoryPeak,
) -> None:
    print(f"\nruntime overhead on {rom}: {rounds} rounds, medians; battle seconds from each run's summary")
    print(f"{'scenario':<14}{'outcome':<9}{'decisions':>9}{'frames':>8}{'local s':>9}{'ray s':>8}{'ratio':>7}"
          f"{'ms/decision':>13}{'actors up s':>13}")  # fmt: skip
    ratios = []
    differed = False
    for name in names:
        local, ray_ = samples[(name, "local")], samples[(name, "ray")]
        outcomes = {s.outcome for s in local + ray_}
        same = len(outcomes) == 1 and len({(s.decisions, s.frames) for s in local + ray_}) == 1
        local_s = statistics.median(s.battle_seconds for s in local)
        ray_s = statistics.median(s.battle_seconds for s in ray_)
        decisions = local[0].decisions
        ratios.append(ray_s / local_s)
        per_decision = (ray_s - local_s) / decisions * 1000
        startup = statistics.median(s.startup_seconds for s in ray_)
        outcome = "/".join(sorted(outcomes)) + ("" if same else "*")
        differed = differed or not same
        print(f"{name:<14}{outcome:<9}{decisions:>9}{local[0].frames:>8}{local_s:>9.3f}{ray_s:>8.3f}"
              f"{ray_s / local_s:>6.2f}x{per_decision:>13.1f}{startup:>13.1f}")  # fmt: skip
    print(f"geometric mean ratio {statistics.geometric_mean(ratios):.2f}x (aim: at most 1.30x)")
    if differed:
        print("* outcome, decisions or frames differed between runs")
    mib = 1024 * 1024
    print(f"\npeak memory during the Ray runs: RSS {ray_peak.total_rss / mib:,.0f} MiB, "
          f"PSS {ray_peak.total_pss / mib:,.0f} MiB (aim: under 2 GiB)")  # fmt: skip
    for group, (count, rss, pss) in sorted(ray_peak.by_group.items()):
        print(f"  {group:<13}{count:>3} processes  RSS {rss / mib:>6,.0f} MiB  PSS {pss / mib:>6,.0f} MiB")
    local_rss = local_peak.by_group.get("driver", (0, 0, 0))
    print(f"the driver alone (connected to Ray) during the local runs: RSS {local_rss[1] / mib:,.0f} MiB, "
          f"PSS {local_rss[2] / mib:,.0f} MiB")  # fmt: skip


if __name__ == "__main__":
    main()
