"""The boss fights a run keeps for the next: each fight's record, made as it ends, and the calibration read
once from the lesson memory that earlier runs wrote (engine/experience).

A run's own defeats raise its bars already (pilot.battle_ended); the calibration is read once, before the
first decision, and kept in checkpoints, so what this run learns is for the next run and a resumed run
plays on with the calibration it began with.
"""

from __future__ import annotations

import logging
import uuid

from pydantic import Field

from engine.experience.calibration import Calibration, calibrate
from engine.experience.outcomes import FightOutcome, clock_seconds
from engine.frozen import Frozen
from engine.game.models import GameState
from engine.memory.lessons import Lesson
from engine.memory.port import MemoryPort

log = logging.getLogger("engine.tactician")


class FightBookSnapshot(Frozen):
    # bar key -> (game clock seconds, strongest member's level) at the first look at its objective
    stretches: dict[str, tuple[int, int]] = Field(default_factory=dict)
    entered: dict[str, float] = Field(default_factory=dict)  # bar key -> forecast as its fight began
    calibration: Calibration | None = None  # None: not read from memory yet


class FightBook:
    def __init__(self) -> None:
        self.stretches: dict[str, tuple[int, int]] = {}
        self.entered: dict[str, float] = {}
        self.calibration: Calibration | None = None
        self.fought: FightOutcome | None = None  # the record of the fight that just ended, until kept

    def looked(self, key: str, state: GameState) -> None:
        """The plan has the boss's objective in hand: its stretch begins here if it has not already."""
        if key not in self.stretches:
            self.stretches[key] = (clock_seconds(state.progress.play_time), _top(state))

    def began(self, key: str, chance: float) -> None:
        self.entered[key] = chance

    def ended(self, key: str, won: bool, state: GameState) -> None:
        """The fight for `key` is over: its record waits in `fought`; a lost fight's next try is a new
        stretch, begun where this one ended."""
        chance = self.entered.pop(key, None)
        since, level = self.stretches.pop(key, (clock_seconds(state.progress.play_time), _top(state)))
        if chance is None:
            return  # not seen beginning (a run resumed inside it): no forecast to weigh the result by
        now = clock_seconds(state.progress.play_time)
        self.fought = FightOutcome(key=key, forecast=chance, won=won, level=max(1, _top(state)),
                                   stretch_seconds=max(0, now - since),
                                   levels_gained=max(0, _top(state) - level))  # fmt: skip

    def snapshot(self) -> FightBookSnapshot:
        return FightBookSnapshot(stretches=dict(self.stretches), entered=dict(self.entered),
                                 calibration=self.calibration)  # fmt: skip

    def restore(self, snapshot: FightBookSnapshot) -> None:
        self.stretches = dict(snapshot.stretches)
        self.entered = dict(snapshot.entered)
        self.calibration = snapshot.calibration
        self.fought = None


def read_calibration(memory: MemoryPort | None) -> Calibration:
    """What earlier fights kept in memory say about the bars (empty without memory, or when it fails: a
    broken memory costs the lessons, never the run)."""
    if memory is None:
        return Calibration()
    try:
        kept = memory.fights()
    except Exception as error:
        log.warning("lesson memory unavailable, bars as planned: %s", error)
        return Calibration()
    return calibrate([(lesson.fight, weight) for lesson, weight in kept if lesson.fight is not None])


def calibration_lines(calibration: Calibration) -> list[str]:
    """One line per boss read, for the run's log."""
    lines = []
    for found in calibration.keys:
        fights = "1 earlier fight" if found.fights == 1 else f"{found.fights} earlier fights"
        lines.append(
            f"{fights} of {found.key}: {found.won} won, gap {found.gap:+.2f} between forecast and result"
        )
    return lines


def keep_fight(memory: MemoryPort | None, fight: FightOutcome, battle_id: str | None) -> None:
    """The fight's record as an "outcome" lesson, for the runs after this one."""
    if memory is None:
        return
    lesson = Lesson(lesson_id=uuid.uuid4().hex, kind="outcome", text=fight.words(), opponent=fight.key,
                    confidence=1.0, evidence=1, provenance=(battle_id,) if battle_id else (),
                    created_play_hours=0.0, updated_play_hours=0.0, fight=fight)  # fmt: skip
    try:
        memory.learn([lesson])
    except Exception as error:
        log.warning("lesson memory unavailable, the fight's record is lost: %s", error)


def _top(state: GameState) -> int:
    return max((mon.level for mon in state.party), default=0)
