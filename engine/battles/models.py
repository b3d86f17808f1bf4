"""A battle as the engine records it: each decision with both sides as the player saw them, what each
decision led to, and the battle's summary. `runs/<run id>/battles/<battle id>.json` holds a `BattleLog`."""

from __future__ import annotations

from typing import Literal

from engine.config import Tier
from engine.frozen import Frozen
from engine.game.models import DecisionPoint

Outcome = Literal["victory", "defeat", "flee", "draw"]
Effectiveness = Literal["super", "not_very", "no_effect"]


class SideView(Frozen):
    """One side's active Pokémon as the player sees it: our HP exactly, the enemy's as its HP bar (%);
    our moves and their PP too (the enemy's are hidden from the player: left empty)."""

    species: str
    level: int
    hp: int | None = None
    max_hp: int | None = None
    hp_percent: float
    status: str
    moves: tuple[str, ...] = ()
    pp: tuple[int, ...] = ()  # PP left, one per move


class DecisionRecord(Frozen):
    point: DecisionPoint
    action: str
    reason: str
    tier: Tier = "rule_based"
    cost_usd: float = 0.0
    frame: int | None = None
    options: tuple[str, ...] = ()  # the legal actions offered, as labels
    ours: SideView | None = None
    enemy: SideView | None = None
    move: str | None = None  # our move, when the action used one (STRUGGLE included)
    # The battle messages shown while the action was carried out, up to the next decision (see
    # BattleExecutor.take_battle_text), e.g. ("SQUIRTLE used BUBBLE!", "It's super effective!").
    text: tuple[str, ...] = ()


class BattleSummary(Frozen):
    battle_id: str
    outcome: Outcome
    battle_type: Literal["wild", "trainer"]
    opponent: str
    turns: int  # choices made at the battle's main menu: one per turn the player took
    decisions: int
    frames: int
    wall_seconds: float
    # The species caught with a ball: the outcome is then "flee", as the game records a catch.
    caught: str | None = None


class TurnOutcome(Frozen):
    """What one decision led to, seen at the next decision: HP lost on each side (percentage points of
    the HP bar; None when a different Pokémon was out afterwards), faints (also told by the messages:
    "Enemy GEODUDE fainted!" before ONIX comes out) and status changes; and, from the battle messages
    shown meanwhile (`text`), how each side's move went: effectiveness (None when the game said nothing:
    a plain hit, a status move, or no move) and whether it missed."""

    decision: int
    action: str
    hp_lost_percent: float | None
    enemy_hp_lost_percent: float | None
    fainted: bool = False
    enemy_fainted: bool = False
    status_change: str | None = None
    enemy_status_change: str | None = None
    move: str | None = None  # our move's name when the decision used one, e.g. "BUBBLE"
    text: tuple[str, ...] = ()  # the battle messages up to the next decision (at most 12)
    effectiveness: Effectiveness | None = None  # of our move
    enemy_effectiveness: Effectiveness | None = None  # of the enemy's move
    missed: bool = False  # "SQUIRTLE's attack missed!"
    enemy_missed: bool = False  # "Enemy ONIX's attack missed!"
    pp_used: int | None = None  # PP our move spent; None when unknown (no move, or another one out)


class BattleLog(Frozen):
    """One battle's record under runs/<run id>/battles/, beside its start state (`start_state`, a PyBoy
    save state file in the same folder)."""

    summary: BattleSummary
    run_id: str
    start_frame: int
    decisions: tuple[DecisionRecord, ...]
    turns: tuple[TurnOutcome, ...] = ()
    start_state: str | None = None  # None: the run did not keep it (checkpoint.keep_battle_states)


class TrackerState(Frozen):
    """A battle in progress, as a checkpoint keeps it."""

    battle_id: str
    start_frame: int
    wall_seconds: float  # played so far
    battle_type: Literal["wild", "trainer"]
    opponent: str
    records: tuple[DecisionRecord, ...]
