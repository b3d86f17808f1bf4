"""What a replay reports: the replayed battle against its log, and (with counterfactuals) what every
other legal action would have led to."""

from __future__ import annotations

from typing import Literal

from engine.battles.models import Outcome, SideView
from engine.frozen import Frozen
from engine.game.models import DecisionPoint
from engine.memory.lessons import Lesson
from engine.reflection.forensics import MoveMeasure


class Divergence(Frozen):
    """The first place where the replay differs from the log."""

    decision: int | None  # index of the decision; None when only the end differs (count or outcome)
    what: str


class DecisionCheck(Frozen):
    """One logged decision next to its replay: the point, and the HP bars both sides showed there."""

    index: int
    point: DecisionPoint
    action: str  # the logged action's label
    replayed_point: DecisionPoint | None  # None: the replay never got this far
    ours_hp: float | None  # logged, % of the active member's HP
    enemy_hp: float | None
    replayed_ours_hp: float | None
    replayed_enemy_hp: float | None
    frame: int | None  # frames since the battle's first decision, logged
    replayed_frame: int | None
    matches: bool
    difference: str | None = None


class RolloutResult(Frozen):
    """One battle played from a decision's state: `action` there, then the rule-based policy."""

    decision: int
    action: str
    baseline: bool  # the logged action (the comparison point for that decision's alternatives)
    outcome: Outcome | None  # None: unfinished (the decision cap, or an error)
    decisions: int
    party_hp_percent: float  # our whole party's HP left at the end, % of its total
    active_hp_percent: float | None  # our active member's, at the last look
    enemy_hp_percent: float | None  # the active enemy's HP bar at the last look
    enemies_left: int | None  # enemy members not beaten (a trainer's party; 0 or 1 in the wild)
    frames: int
    actions: tuple[str, ...] = ()
    unfinished: str | None = None  # why it did not reach the battle's end (outcome None)
    # What our moves were seen to do in this rollout (damage per use, hits), as reflection measures a log.
    measures: tuple[MoveMeasure, ...] = ()

    @property
    def deliberate_escape(self) -> bool:
        """It left on purpose: ran, or caught the enemy (the game books both as an escape)."""
        return self.outcome == "flee" and any(a == "run" or a.startswith("throw ") for a in self.actions)


class Counterfactual(Frozen):
    """One alternative at one decision, against that decision's baseline."""

    decision: int
    turn: int  # the battle's turn (main-menu choices so far, this one included)
    point: DecisionPoint
    ours: SideView | None
    enemy: SideView | None
    logged_action: str
    logged_move: str | None
    alternative: str
    alternative_move: str | None
    baseline_outcome: Outcome | None
    alternative_outcome: Outcome | None
    changed_outcome: bool
    better: bool
    regret: bool  # better, by outcome, than both the baseline and the logged battle
    baseline: RolloutResult
    result: RolloutResult


class RolloutRun(Frozen):
    mode: Literal["local", "ray"]
    workers: int
    rollouts: int
    max_decisions: int  # per rollout
    wall_seconds: float


class ReplayReport(Frozen):
    battle_id: str
    run_id: str
    opponent: str
    battle_type: Literal["wild", "trainer"]
    matches_log: bool  # same decisions, options, HP bars at every decision, count and outcome
    logged_outcome: Outcome
    replayed_outcome: Outcome | None  # None: the replay stopped before the battle ended
    logged_decisions: int
    replayed_decisions: int
    decisions_compared: int
    first_divergence: Divergence | None
    # Frame for frame: every decision on the same frame as logged (the strictest sign of a faithful
    # emulation; not part of matches_log, which is about the battle itself).
    frames_match: bool
    logged_frames: int
    replayed_frames: int
    wall_seconds: float
    decisions: tuple[DecisionCheck, ...]
    rollouts: RolloutRun | None = None
    counterfactuals: tuple[Counterfactual, ...] = ()
    regrets: tuple[Counterfactual, ...] = ()
    lessons: tuple[Lesson, ...] = ()  # regrets, and the measured numbers of every rollout
    learned: tuple[str, ...] = ()  # ids of the lessons memory stored or merged them into
