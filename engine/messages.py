"""Messages that cross a role boundary: frozen, kind-tagged pydantic models (extra fields refused).

The same models flow whether the roles are plain objects in one process (`--local`) or Ray actors, so a
test of the local path is a test of what the actors exchange.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import Field

from engine.config import Tier
from engine.frozen import Frozen
from engine.game.actions import BattleAction
from engine.game.models import GameState
from engine.world.goals import Purchase

Phase = Literal["starting", "running", "stopping", "stopped", "failed"]


class Frame(Frozen):
    """What the emulator hands to Vision: the RAM regions decoders read, and a fingerprint of them."""

    kind: Literal["frame"] = "frame"
    number: int
    digest: str  # of the regions below: equal digests mean nothing a decoder reads has changed
    regions: tuple[tuple[int, bytes], ...]


class Perception(Frozen):
    kind: Literal["perception"] = "perception"
    frame: int
    digest: str
    state: GameState
    reused: bool = False  # the differential gate saw an unchanged frame and reused the last decode


class EventName(StrEnum):
    BATTLE_START = "battle_start"
    NEW_ENEMY = "new_enemy"
    HP_LOW = "hp_low"
    STUCK = "stuck"
    HEARTBEAT = "heartbeat"
    BATTLE_END = "battle_end"
    NEW_MAP = "new_map"
    BADGE = "badge"
    OBJECTIVE_DONE = "objective_done"
    NEW_MEMBER = "new_member"
    WHITEOUT = "whiteout"


class GameEvent(Frozen):
    kind: Literal["event"] = "event"
    name: EventName
    frame: int
    detail: str


class Selection(Frozen):
    """The tier a decision was made on, the one wanted, and why. Estimates are made before the call; the
    actual cost, tokens and latency are what the provider reported for it (zero on the rule-based tier)."""

    kind: Literal["selection"] = "selection"
    tier: Tier
    wanted: Tier
    reason: str
    est_cost_usd: float = 0.0
    est_latency_s: float = 0.0
    steps: tuple[str, ...] = ()  # each step down from `wanted`, with its reason
    cost_usd: float = 0.0
    tokens_in: int = 0
    tokens_out: int = 0
    latency_s: float = 0.0
    calls: int = 0


RULE_BASED_DEFAULT = Selection(tier="rule_based", wanted="rule_based", reason="rule-based policy")


class Directive(Frozen):
    """The Strategist's standing orders, until its next trigger."""

    kind: Literal["directive"] = "directive"
    objective: str
    objective_id: str | None = None  # the story objective (story/data/objectives.json) it pursues
    plan: tuple[str, ...] = ()  # that objective's steps, in words
    priorities: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    trigger: EventName
    frame: int
    selection: Selection = RULE_BASED_DEFAULT

    @property
    def tier(self) -> Tier:
        return self.selection.tier


class BattleChoice(Frozen):
    kind: Literal["battle_choice"] = "battle_choice"
    action: BattleAction
    label: str  # what a person reads, e.g. "use BUBBLE"
    reason: str
    selection: Selection = RULE_BASED_DEFAULT
    observations: str = ""  # what a model noticed, for the logs
    confidence: float | None = None
    options: tuple[str, ...] = ()  # every legal action offered, as labels (for the battle log)
    lessons: tuple[str, ...] = ()  # the lessons from memory in use for this battle (what the page shows)

    @property
    def tier(self) -> Tier:
        return self.selection.tier


# How a leg of walking ended: at its goal; at a battle, a dialog or a script the game started (the
# conductor deals with it, then asks for the next leg); with the way shut, no way at all, or the leg's step
# budget spent.
LegOutcome = Literal["arrived", "battle", "dialog", "script", "blocked", "no_path", "max_steps"]


class LegReport(Frozen):
    """What the Emulator role did with one leg: every step was confirmed from RAM."""

    kind: Literal["leg_report"] = "leg_report"
    outcome: LegOutcome
    reason: str
    steps: int
    frames: int
    planned_steps: int | None  # the length of the first plan (None: there was none)
    replans: int = 0
    walked: tuple[tuple[int, int, int], ...] = ()  # the squares stood on, in order
    warps: tuple[tuple[int, int], ...] = ()  # (map id, warp index) taken
    text: tuple[str, ...] = ()  # what was read, when the leg ended by talking
    bought: tuple[Purchase, ...] = ()  # from a Mart clerk: what the bag and the money in RAM show bought
    sold: tuple[Purchase, ...] = ()  # to a Mart clerk: what the bag and the money in RAM show sold
    field_moves: tuple[str, ...] = ()  # field moves used on the way ("CUT at VERMILION_CITY (15, 18)")
    taught: tuple[str, ...] = ()  # TMs and HMs taught ("ODDISH learns CUT into a free slot")
    spins: int = 0  # spinner arrows stepped onto (the game walked the player on from each)
    pushes: int = 0  # boulders pushed a square with STRENGTH
    rides: tuple[str, ...] = ()  # elevators ridden ("rode the elevator to ROCKET_HIDEOUT_B4F")
    picked: tuple[str, ...] = ()  # item balls picked up because they stood in the way
    used: tuple[str, ...] = ()  # items used from the bag at the leg's end (POKE_FLUTE)
    state: GameState


class BattleStart(Frozen):
    """The emulator at a battle's first decision."""

    kind: Literal["battle_start"] = "battle_start"
    frame: int
    opening_text: tuple[str, ...]  # "Wild PIDGEY appeared!", shown before any decision
    state: bytes | None = None  # the game as a state file (it names its cartridge), when asked for


class Executed(Frozen):
    """One battle action carried out, up to the game's next question."""

    kind: Literal["executed"] = "executed"
    text: tuple[str, ...]  # the battle messages shown meanwhile, oldest first


class BattleEnd(Frozen):
    """What the emulator saw of a battle that is over."""

    kind: Literal["battle_end"] = "battle_end"
    final: GameState | None  # the last look inside the battle: both sides, for the outcome
    result: int  # wBattleResult afterwards
    frame: int
    caught: str | None = None  # the species caught with a ball, if one was (wCapturedMonSpecies)


class BattleRecord(Frozen):
    """One finished battle, as Reflection receives it."""

    kind: Literal["battle_record"] = "battle_record"
    battle_id: str
    outcome: str
    opponent: str
    log_path: str  # the battle log JSON under the run's data directory


class RoleReport(Frozen):
    """What any role says about itself when asked (health, counters)."""

    kind: Literal["role_report"] = "role_report"
    role: str
    healthy: bool
    counters: dict[str, float] = Field(default_factory=dict)
    detail: str = ""


class RunStatus(Frozen):
    kind: Literal["run_status"] = "run_status"
    run_id: str
    state: Phase
    game: str
    where: str  # the current battle, or the map and position
    battles: int
    decisions: int
    frames: int
    seconds_since_checkpoint: float | None
    roles: tuple[RoleReport, ...] = ()
