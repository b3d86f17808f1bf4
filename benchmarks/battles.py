"""Battle speed: every scenario of the ROM test catalogue, played by the executor and the rule-based policy.

    .venv/bin/python -m benchmarks.battles --rom ROM [--rounds 3] [--options fast|default|both]

Per scenario: outcome, decisions, emulated frames, the executor's full looks at the game, wall seconds
(median over the rounds), and how that wall time splits between emulation and everything else. Emulation
is measured by replaying the battle's recorded button presses, frame for frame, on plain `PyBoy.tick`
from the same start state (same frames, no executor, no hooks); the rest is the executor's reading,
waiting and pressing, its input hooks, decoding and the policy. Run from the repository root: the
scenarios live in tests/support/battle_scenarios.py.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from engine.emulator.session import EmulatorSession
from engine.game.buttons import Button
from engine.mechanics.battle_driver import DriveOptions, by_policy, drive_battle
from engine.mechanics.intro import set_fast_options
from engine.mechanics.role import EmulatorRole
from tests.support.battle_scenarios import SCENARIOS, BattleScenario
from tests.support.scenarios import boot_to_overworld

InputEvent = tuple[int, str, Button]  # frame, "hold" or "release", button


@dataclass(frozen=True)
class Measured:
    name: str
    outcome: str
    decisions: int
    frames: int
    looks: int  # full decodes of the game state by the executor
    wall: float
    emulation: float  # the same frames and presses replayed on plain PyBoy.tick


class InputRecorder:
    """Notes every hold and release with its frame, so a battle can be replayed without the executor."""

    def __init__(self, session: EmulatorSession) -> None:
        self.session = session
        self.events: list[InputEvent] = []
        self._hold, self._release = session.hold, session.release
        session.hold = self.hold  # type: ignore[method-assign]
        session.release = self.release  # type: ignore[method-assign]

    def hold(self, button: Button) -> None:
        self.events.append((self.session.frame, "hold", button))
        self._hold(button)

    def release(self, button: Button) -> None:
        self.events.append((self.session.frame, "release", button))
        self._release(button)

    def stop(self) -> None:
        self.session.hold, self.session.release = self._hold, self._release  # type: ignore[method-assign]


def replay_seconds(session: EmulatorSession, start: bytes, events: list[InputEvent], frames: int) -> float:
    """Emulation alone: the same presses at the same frames, on a fresh session without hooks."""
    with EmulatorSession(session.rom_path) as plain:
        plain.load_state(start)
        first = plain.frame
        begin = time.perf_counter()
        for frame, kind, button in events:
            plain.tick(frame - plain.frame)
            (plain.hold if kind == "hold" else plain.release)(button)
        plain.tick(first + frames - plain.frame)
        return time.perf_counter() - begin


def measure(session: EmulatorSession, base: bytes, scenario: BattleScenario, rounds: int) -> Measured:
    walls, emulation, last, looks = [], [], None, 0
    for _ in range(rounds):
        session.load_state(base)
        scenario.setup(session)  # party and battle set-up is not part of the battle's time
        start_state, start_frame = session.save_state(), session.frame
        recorder = InputRecorder(session)
        start = time.perf_counter()
        emulator = EmulatorRole.on_session(session)
        options = DriveOptions(
            battle_id=scenario.name, run_id="benchmark", max_decisions=scenario.max_decisions
        )
        driven = drive_battle(emulator, by_policy(scenario.policy()), options)
        walls.append(time.perf_counter() - start)
        recorder.stop()
        events = [(frame - start_frame, kind, button) for frame, kind, button in recorder.events]
        emulation.append(replay_seconds(session, start_state, events, session.frame - start_frame))
        looks = emulator.executor.looks
        last = driven.log
    assert last is not None
    summary = last.summary
    return Measured(
        scenario.name,
        summary.outcome,
        summary.decisions,
        summary.frames,
        looks,
        statistics.median(walls),
        statistics.median(emulation),
    )


def print_table(title: str, rows: list[Measured]) -> None:
    print(f"\n{title}")
    header = ("scenario", "outcome", "decisions", "frames", "looks", "wall s", "emulation", "rest")
    print("".join(f"{name:<22}" if i == 0 else f"{name:>10}" for i, name in enumerate(header)))
    for row in rows:
        share = row.emulation / row.wall
        print(
            f"{row.name:<22}{row.outcome:>10}{row.decisions:>10}{row.frames:>10,}{row.looks:>10}"
            f"{row.wall:>10.3f}{share:>10.0%}{1 - share:>10.0%}"
        )
    walls = [row.wall for row in rows]
    share = sum(row.emulation for row in rows) / sum(walls)
    print(
        f"median battle {statistics.median(walls):.3f} s, slowest {max(walls):.3f} s; "
        f"emulation {share:.0%} of all battle time, the rest {1 - share:.0%}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rom", type=Path, required=True)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--options", choices=["fast", "default", "both"], default="both")
    args = parser.parse_args(argv)
    with EmulatorSession(args.rom) as session:
        boot_to_overworld(session)
        bases = {"default": session.save_state()}
        set_fast_options(session)
        bases["fast"] = session.save_state()
        modes = ["default", "fast"] if args.options == "both" else [args.options]
        for mode in modes:
            rows = []
            for scenario in SCENARIOS:
                rows.append(measure(session, bases[mode], scenario, args.rounds))
                print(f"  {mode}: {scenario.name} done", file=sys.stderr)
            label = "fast text, animations off" if mode == "fast" else "the game's default options"
            print_table(f"{session.game.value}, {label}", rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
