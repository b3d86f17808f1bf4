"""Walking for an agent: a goto is legs of walking until the place is reached (as `engine goto` walks,
engine/mechanics/trip.py), with a wall-clock deadline looked at between legs, and battles on the way
either fought by the rule-based policy or left to the agent (the walk stops where one begins). A talk is
one leg that ends by pressing A at someone and reading the text to its end."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from engine.game.models import GameState
from engine.game.state import decode_state
from engine.mechanics.battle_driver import DriveOptions, Picker, drive_battle
from engine.mechanics.role import EmulatorRole
from engine.mechanics.trip import MAX_INTERRUPTIONS, UNFINISHED, WON
from engine.messages import LegReport
from engine.play.models import Talked, Walked
from engine.world.goals import Answer, Goal, Leg

TALK_STEPS = 200  # walking to the person talked to: a map's width and back, a few times over


@dataclass
class Deadline:
    """A verb's wall-clock bound, looked at where the game can stop cleanly (between legs, battles)."""

    seconds: float
    started: float = field(default_factory=time.monotonic)

    def passed(self) -> bool:
        return time.monotonic() - self.started >= self.seconds

    def spent(self) -> float:
        return time.monotonic() - self.started


@dataclass
class _Trip:
    place: str
    outcome: str = "blocked"
    reason: str = "not started"
    steps: int = 0
    stops: int = 0
    battles: list[str] = field(default_factory=list)


def walk(role: EmulatorRole, goal: Goal, place: str, max_steps: int, fight: Picker | None,
         deadline: Deadline) -> Walked:  # fmt: skip
    """Walk to `goal` in legs. A dialog or a scene on the way is read to its end and the walk goes on; a
    battle is fought by `fight`, or, without one, ends the walk (outcome "battle") for the agent to play."""
    trip = _Trip(place=place)
    first_frame = role.frame_count()
    leg = Leg(goal=goal, intent="travel", max_steps=max_steps, reason=f"goto {place}")
    while not _ended(role, leg, max_steps, trip, deadline):
        state = role.settle()  # the text that stopped the leg, read to its end
        if state.battle is None and not role.in_battle():
            continue
        if fight is None:
            trip.outcome, trip.reason = "battle", "a battle began: play it with legal_actions and act"
            break
        trip.battles.append(_fight(role, fight, len(trip.battles) + 1))
        if trip.battles[-1] in WON:
            trip.stops -= 1  # a battle won is progress, not a stop that counts against the walk
        role.settle()
    return _walked(role, trip, role.frame_count() - first_frame, deadline.spent())


def _ended(role: EmulatorRole, leg: Leg, max_steps: int, trip: _Trip, deadline: Deadline) -> bool:
    """One more leg, unless time is up; True when the walk is over (arrived, or the way lost)."""
    if deadline.passed():
        trip.outcome, trip.reason = "out_of_time", f"stopped after {deadline.seconds:.0f} s"
        return True
    report: LegReport = role.travel(leg.model_copy(update={"max_steps": max(1, max_steps - trip.steps)}))
    trip.steps += report.steps
    trip.outcome, trip.reason = report.outcome, report.reason
    if report.outcome == "arrived" or report.outcome in UNFINISHED:
        return True
    trip.stops += 1
    if trip.stops > MAX_INTERRUPTIONS:
        trip.outcome, trip.reason = "blocked", f"stopped {MAX_INTERRUPTIONS} times on the way"
        return True
    return False


def _fight(role: EmulatorRole, fight: Picker, number: int) -> str:
    driven = drive_battle(role, fight, DriveOptions(battle_id=f"play-b{number:03d}", run_id="play"))
    return driven.log.summary.outcome if driven.log is not None else f"halted: {driven.halted}"


def _walked(role: EmulatorRole, trip: _Trip, frames: int, seconds: float) -> Walked:
    where = current(role).overworld
    return Walked(
        place=trip.place, arrived=trip.outcome == "arrived", outcome=trip.outcome, reason=trip.reason,
        map=where.map_name or f"map {where.map_id}", x=where.x, y=where.y, steps=trip.steps, frames=frames,
        battles=tuple(trip.battles), seconds=round(seconds, 3),
    )  # fmt: skip


def talk(role: EmulatorRole, goal: Goal, answer: Answer) -> Talked:
    """Walk next to what `goal` names (nowhere for a `HereGoal`), press A at it and read the text to its
    end, a YES/NO question answered with `answer`."""
    report = role.travel(Leg(goal=goal, interact=True, answer=answer, max_steps=TALK_STEPS, reason="talk"))
    return Talked(outcome=report.outcome, reason=report.reason, text=report.text, in_battle=role.in_battle())


def current(role: EmulatorRole) -> GameState:
    """The game now, decoded from RAM."""
    return decode_state(role.session.memory_image(), role.session.ram_map)
