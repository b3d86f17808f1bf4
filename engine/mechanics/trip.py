"""A trip: legs of walking until a goal is reached, with whatever the game puts in the way dealt with:
battles played by a chooser, dialogs and scripted scenes read to their end. `engine goto` and the trip
benchmark drive it; it reaches the Emulator role through its port, so it runs the same in-process and on
Ray (one call per leg, per battle decision, per cleared dialog)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from engine.game.models import GameState
from engine.mechanics.battle_driver import DriveOptions, Picker, drive_battle
from engine.mechanics.port import EmulatorPort
from engine.messages import LegOutcome, LegReport
from engine.world.goals import Leg

MAX_INTERRUPTIONS = 60
UNFINISHED: tuple[LegOutcome, ...] = ("blocked", "no_path", "max_steps")


@dataclass
class TripReport:
    arrived: bool
    outcome: LegOutcome
    reason: str
    steps: int = 0
    frames: int = 0
    planned_steps: int | None = None  # the first leg's plan: the shortest walk as the trip began
    legs: int = 0
    battles: list[str] = field(default_factory=list)  # each battle's outcome
    interruptions: list[str] = field(default_factory=list)  # what stopped a leg before its goal
    field_moves: list[str] = field(default_factory=list)  # "CUT at VERMILION_CITY (15, 18)", in order
    spins: int = 0  # spinner arrows stepped onto
    pushes: int = 0  # boulders pushed a square
    rides: list[str] = field(default_factory=list)  # elevators ridden, in order
    wall_seconds: float = 0.0
    state: GameState | None = None

    def as_json(self) -> dict[str, object]:
        where = self.state.overworld if self.state is not None else None
        return {
            "arrived": self.arrived, "outcome": self.outcome, "reason": self.reason,
            "map": where.map_name if where else None, "x": where.x if where else None,
            "y": where.y if where else None, "steps": self.steps, "planned_steps": self.planned_steps,
            "frames": self.frames, "legs": self.legs, "battles": len(self.battles),
            "battle_outcomes": self.battles, "interruptions": len(self.interruptions),
            "field_moves": self.field_moves, "spins": self.spins, "pushes": self.pushes,
            "rides": self.rides,
            "wall_seconds": round(self.wall_seconds, 3),
        }  # fmt: skip


Progress = Callable[[str], None]


def take_trip(
    emulator: EmulatorPort, leg: Leg, choose: Picker, progress: Progress | None = None
) -> TripReport:
    """Walk `leg` to its goal, leg after leg: after a battle or a dialog, the walk goes on from where it
    stopped. Ends at the goal, or where the way is lost (blocked, no path, step budget, too many stops)."""
    say = progress or (lambda line: None)
    started, first_frame = time.perf_counter(), emulator.frame_count()
    report = TripReport(arrived=False, outcome="blocked", reason="not started")
    budget = leg.max_steps
    while True:
        leg_report = emulator.travel(leg.model_copy(update={"max_steps": max(1, budget - report.steps)}))
        _count(report, leg_report)
        say(_describe(leg_report))
        if leg_report.outcome == "arrived" or leg_report.outcome in UNFINISHED:
            break
        report.interruptions.append(f"{leg_report.outcome}: {leg_report.reason}")
        if len(report.interruptions) > MAX_INTERRUPTIONS:
            report.outcome, report.reason = "blocked", f"stopped {MAX_INTERRUPTIONS} times on the way"
            break
        _clear(emulator, leg_report, choose, report, say)
    report.frames = emulator.frame_count() - first_frame
    report.wall_seconds = time.perf_counter() - started
    return report


def _count(report: TripReport, leg: LegReport) -> None:
    report.legs += 1
    report.steps += leg.steps
    report.field_moves.extend(leg.field_moves)
    report.spins += leg.spins
    report.pushes += leg.pushes
    report.rides.extend(leg.rides)
    report.outcome, report.reason, report.state = leg.outcome, leg.reason, leg.state
    report.arrived = leg.outcome == "arrived"
    if report.planned_steps is None:
        report.planned_steps = leg.planned_steps


def _clear(emulator: EmulatorPort, leg: LegReport, choose: Picker, report: TripReport, say: Progress) -> None:
    """Whatever stopped the leg: text is read to its end; a battle (begun, or begun by the text) is
    played by `choose`."""
    state = emulator.settle()
    if state.battle is None and not emulator.in_battle():
        return
    number = len(report.battles) + 1
    driven = drive_battle(emulator, choose, DriveOptions(battle_id=f"trip-b{number:03d}", run_id="trip"))
    outcome = driven.log.summary.outcome if driven.log is not None else f"halted: {driven.halted}"
    report.battles.append(outcome)
    say(f"  battle {number}: {outcome} in {len(driven.steps)} decisions")
    emulator.settle()


def _describe(leg: LegReport) -> str:
    where = leg.state.overworld
    place = f"{where.map_name or where.map_id} ({where.x}, {where.y})"
    planned = f" of {leg.planned_steps} planned" if leg.planned_steps is not None else ""
    used = "".join(f", {move}" for move in leg.field_moves)
    return f"  {leg.outcome}: {leg.steps} steps{planned}{used}, now at {place} ({leg.reason})"
