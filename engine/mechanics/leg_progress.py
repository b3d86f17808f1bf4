"""What a leg has done so far, and how it ends early: shared by the walk and its obstacle steps."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from engine.game.models import Direction
from engine.messages import LegOutcome
from engine.world.goals import Purchase
from engine.world.models import Square


@dataclass
class LegProgress:
    started_frame: int
    steps: int = 0
    replans: int = 0
    planned_steps: int | None = None
    walked: list[Square] = field(default_factory=list)
    warps: list[tuple[int, int]] = field(default_factory=list)
    text: list[str] = field(default_factory=list)
    # Presses that did nothing: a push on a warp square the game does not count as stood on (a state
    # loaded there), a square someone keeps standing on. The next plan goes another way.
    failed: set[tuple[Square, Direction]] = field(default_factory=set)
    bumps: Counter[tuple[Square, Direction]] = field(default_factory=Counter)
    bought: list[Purchase] = field(default_factory=list)  # at a Mart, as RAM confirmed each purchase
    sold: list[Purchase] = field(default_factory=list)  # at a Mart, as RAM confirmed each sale
    notes: list[str] = field(default_factory=list)  # sales and purchases skipped or cut short, and why
    field_moves: list[str] = field(default_factory=list)  # "CUT at VERMILION_CITY (15, 18)", as used
    lit: bool = False  # FLASH was tried in this leg's dark cave
    taught: list[str] = field(default_factory=list)  # "ODDISH learns CUT into a free slot", as RAM showed
    spins: int = 0  # spinner arrows stepped onto
    pushes: int = 0  # boulders pushed a square
    rides: list[str] = field(default_factory=list)  # "rode the elevator to ROCKET_HIDEOUT_B4F"
    items: frozenset[Square] = frozenset()  # item balls of the plan in hand: picked up when in the way
    unlockable: frozenset[Square] = frozenset()  # locked doors of the plan in hand the bag has a key to
    picked: list[str] = field(default_factory=list)  # "picked up the item at POKEMON_TOWER_6F (6, 8)"
    used: list[str] = field(default_factory=list)  # items used from the bag at the leg's end


class Stop(Exception):
    """The leg ends here (an interruption, or nothing left to try)."""

    def __init__(self, outcome: LegOutcome, reason: str) -> None:
        super().__init__(reason)
        self.outcome = outcome
        self.reason = reason


def keep_new(kept: list[str], lines: tuple[str, ...]) -> None:
    """Add the text box's lines not just read (a box is read several times as it prints)."""
    for line in lines:
        line = line.replace("▼", "").strip()
        if line and (not kept or kept[-1] != line) and line not in kept[-3:]:
            kept.append(line)
