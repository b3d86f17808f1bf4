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

MAX_INTERRUPTIONS = 60  # stops on the way that were no battle won (dialogs, scenes, lost battles)
UNFINISHED: tuple[LegOutcome, ...] = ("blocked", "no_path", "max_steps")
# A whiteout puts the team, healed, at the last Pokémon Center: the trip goes on from there, but a team
# beaten this often is too weak for the way, and going on would only repeat it.
MAX_DEFEATS = 2
HEAL_BELOW = 0.35  # party HP share under which a trip with a nurse in reach sees her first
MAX_HEALS = 4  # nurse visits in one trip (each sets out again from her counter)
NURSE_LEGS = 30  # legs a walk to the nurse may take (battles and words on the way stop a leg)
WON = ("victory", "flee")  # a battle that let the trip go on with the team standing


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
# The leg to the nearest nurse from where the team stands; None when none is in reach.
Healer = Callable[[GameState], Leg | None]


def take_trip(
    emulator: EmulatorPort,
    leg: Leg,
    choose: Picker,
    progress: Progress | None = None,
    heal: Healer | None = None,
) -> TripReport:
    """Walk `leg` to its goal, leg after leg: after a battle or a dialog, the walk goes on from where it
    stopped; after a whiteout, from the Pokémon Center it woke up at. With `heal`, a team under HEAL_BELOW
    of its HP sees the nearest nurse first. Ends at the goal, or where the way is lost (blocked, no path,
    step budget, too many stops, or a team beaten MAX_DEFEATS times: one line names what beat it)."""
    say = progress or (lambda line: None)
    started, first_frame = time.perf_counter(), emulator.frame_count()
    report = TripReport(arrived=False, outcome="blocked", reason="not started")
    trip = _TripState(heal=heal)
    while True:
        if heal is not None:
            _heal_if_weak(emulator, emulator.settle(), trip, report, choose, say)
        if trip.too_weak() is not None:  # beaten again on the way to the nurse
            report.outcome, report.reason = "blocked", str(trip.too_weak())
            break
        budget = max(1, leg.max_steps - report.steps)
        leg_report = emulator.travel(leg.model_copy(update={"max_steps": budget}))
        _count(report, leg_report)
        say(_describe(leg_report))
        if leg_report.outcome == "arrived" or leg_report.outcome in UNFINISHED:
            break
        report.interruptions.append(f"{leg_report.outcome}: {leg_report.reason}")
        why = _after_stop(emulator, choose, trip, report, say)
        if why is not None:
            report.outcome, report.reason = "blocked", why
            break
    report.frames = emulator.frame_count() - first_frame
    report.wall_seconds = time.perf_counter() - started
    return report


def _after_stop(emulator: EmulatorPort, choose: Picker, trip: _TripState, report: TripReport,
                say: Progress) -> str | None:  # fmt: skip
    """What stopped the leg dealt with; why the trip ends here, or None to go on. A battle won is
    progress; a dialog, a scene or a lost battle counts towards MAX_INTERRUPTIONS."""
    battle = _clear(emulator, choose, report, say)
    if battle is not None and battle[0] == "defeat":
        trip.defeats.append(battle[1])
        if trip.too_weak() is not None:
            return trip.too_weak()
        say(f"  whited out: going on from {_where(emulator.settle())}")
    if battle is None or battle[0] not in WON:
        trip.stops += 1
    return f"stopped {MAX_INTERRUPTIONS} times on the way" if trip.stops > MAX_INTERRUPTIONS else None


@dataclass
class _TripState:
    heal: Healer | None
    stops: int = 0  # interruptions that were no battle won
    heals: int = 0
    defeats: list[str] = field(default_factory=list)  # who beat the team, in order

    def too_weak(self) -> str | None:
        """Why the trip ends once the team was beaten MAX_DEFEATS times, naming who beat it."""
        if len(self.defeats) < MAX_DEFEATS:
            return None
        return "the team is too weak for the way: lost to " + " and ".join(self.defeats)


def _heal_if_weak(emulator: EmulatorPort, state: GameState, trip: _TripState, report: TripReport,
                  choose: Picker, say: Progress) -> None:  # fmt: skip
    """A team under HEAL_BELOW of its HP walks to the nearest nurse first (at most MAX_HEALS times), the
    battles and words on the way dealt with as on the trip itself (a whiteout heals as well)."""
    if trip.heal is None or trip.heals >= MAX_HEALS or _hp_share(state) >= HEAL_BELOW:
        return
    nurse = trip.heal(state)
    if nurse is None:
        return
    trip.heals += 1
    for _ in range(NURSE_LEGS):
        leg = emulator.travel(nurse)
        report.steps += leg.steps
        if leg.outcome == "arrived":
            emulator.settle()
            say(f"  healed at {_where(leg.state)} (the team was at {_hp_share(state):.0%})")
            return
        if leg.outcome in UNFINISHED:
            break
        battle = _clear(emulator, choose, report, say)
        if battle is not None and battle[0] == "defeat":
            trip.defeats.append(battle[1])
            return
    say(f"  no nurse reached (the team at {_hp_share(state):.0%}): going on")


def _hp_share(state: GameState) -> float:
    most = sum(mon.max_hp for mon in state.party)
    return sum(mon.hp for mon in state.party) / most if most else 1.0


def _where(state: GameState) -> str:
    where = state.overworld
    return f"{where.map_name or where.map_id} ({where.x}, {where.y})"


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


def _clear(
    emulator: EmulatorPort, choose: Picker, report: TripReport, say: Progress
) -> tuple[str, str] | None:
    """Whatever stopped the leg: text is read to its end; a battle (begun, or begun by the text) is
    played by `choose`: its (outcome, opponent), None when there was none."""
    state = emulator.settle()
    if state.battle is None and not emulator.in_battle():
        return None
    number = len(report.battles) + 1
    driven = drive_battle(emulator, choose, DriveOptions(battle_id=f"trip-b{number:03d}", run_id="trip"))
    outcome = driven.log.summary.outcome if driven.log is not None else f"halted: {driven.halted}"
    opponent = driven.log.summary.opponent if driven.log is not None else "?"
    report.battles.append(outcome)
    say(f"  battle {number}: {outcome} against {opponent} in {len(driven.steps)} decisions")
    emulator.settle()
    return outcome, opponent


def _describe(leg: LegReport) -> str:
    where = leg.state.overworld
    place = f"{where.map_name or where.map_id} ({where.x}, {where.y})"
    planned = f" of {leg.planned_steps} planned" if leg.planned_steps is not None else ""
    used = "".join(f", {move}" for move in leg.field_moves)
    return f"  {leg.outcome}: {leg.steps} steps{planned}{used}, now at {place} ({leg.reason})"
