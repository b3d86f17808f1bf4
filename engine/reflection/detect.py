"""Phase 1, failure detection: how the battle went, as one class with the reasons for it.

- defeat: we lost (a draw counts: no win, and usually every one of ours fainted);
- pyrrhic: a victory that cost too much (half the members that fought fainted, or the one left standing
  is nearly out of HP);
- suboptimal: a victory or an escape that wasted turns (far more turns than our best measured move needed,
  moves that missed or could not touch the target, turns spent on moves that deal no damage, failed runs);
- clean: none of the above.

Reasons of every class found are kept; the class is the most severe one.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from typing import Literal

from engine.battles.models import BattleLog
from engine.frozen import Frozen
from engine.reflection.forensics import enemy_faints, measure, our_faints, participants
from engine.reflection.forensics import final_hp as final_hp_of
from engine.reflection.turns import TurnRead, read_turns

FailureKind = Literal["defeat", "pyrrhic", "suboptimal", "clean"]
SEVERITY: tuple[FailureKind, ...] = ("defeat", "pyrrhic", "suboptimal", "clean")

# A win that knocked out half of the Pokémon that fought leaves the team needing a Pokémon Center before
# the next trainer: it was bought too dearly. (The log shows who fought, not the whole party, so the share
# is of the members that took part.)
PYRRHIC_FAINTED_SHARE = 0.5
# Below a quarter of its HP the survivor loses the next battle's first exchange; the game itself turns
# the HP bar red at about a fifth, so a quarter is "in the red" with the bar's rounding.
PYRRHIC_LOW_HP_PERCENT = 25.0
# "Many more turns than needed": more than half as many again as our best measured move would have taken,
# plus two turns for a switch or a first blow to read the enemy (slack for ordinary play).
SLOW_FACTOR = 1.5
SLOW_MARGIN_TURNS = 2
# Accuracy in generation 1 is at most 255/256 and many moves miss 5-30% of the time: one miss is luck,
# two in a battle are worth a look (accuracy-lowering moves, or a less accurate move chosen).
REPEATED_MISSES = 2
# A move the type chart says cannot touch the target wastes the turn every time: one use is already a fault.
NO_EFFECT_USES = 1
# Status moves (GROWL, TAIL_WHIP...) can help once or twice; three turns of them in one battle gave the
# enemy three free hits.
NO_DAMAGE_MOVES = 3
# Running from a wild battle can fail; the second failure means the escape cost more than it saved.
FAILED_RUNS = 2


class Failure(Frozen):
    kind: FailureKind
    reasons: tuple[str, ...] = ()


def _defeat_reasons(log: BattleLog, fainted: Sequence[str]) -> list[str]:
    outcome = log.summary.outcome
    reasons = ["we lost" if outcome == "defeat" else "a draw: no win"]
    if fainted:
        reasons.append(f"fainted: {', '.join(fainted)}")
    return reasons


def _pyrrhic_reasons(reads: Sequence[TurnRead], fainted: Sequence[str]) -> list[str]:
    reasons = []
    fought = participants(reads)
    if fought and fainted and len(fainted) / len(fought) >= PYRRHIC_FAINTED_SHARE:
        reasons.append(
            f"{len(fainted)} of the {len(fought)} Pokémon that fought fainted ({', '.join(fainted)})"
        )
    left = final_hp_of(reads)
    if left is not None and 0 < left < PYRRHIC_LOW_HP_PERCENT:
        reasons.append(f"the survivor ended at {left:g}% HP")
    return reasons


def turns_needed(reads: Sequence[TurnRead]) -> int | None:
    """Turns our best measured move against each enemy Pokémon would have needed to empty its bar from
    where we first saw it; None when some enemy was never damaged (no measurement to go by)."""
    best: dict[str, float] = {}
    for measured in measure(reads):
        if measured.damage_percent:
            best[measured.species] = max(best.get(measured.species, 0.0), measured.damage_percent)
    needed = 0
    seen: set[tuple[str, int]] = set()
    for read in reads:
        enemy = read.enemy
        if enemy is None or (enemy.species, enemy.level) in seen or enemy.hp_percent <= 0:
            continue
        seen.add((enemy.species, enemy.level))
        if enemy.species not in best:
            return None
        needed += math.ceil(enemy.hp_percent / best[enemy.species])
    return needed if seen else None


def _suboptimal_reasons(log: BattleLog, reads: Sequence[TurnRead]) -> list[str]:
    reasons = []
    if log.summary.outcome == "victory":
        needed = turns_needed(reads)
        turns = log.summary.turns
        if needed is not None and turns > needed * SLOW_FACTOR + SLOW_MARGIN_TURNS:
            reasons.append(f"{turns} turns where our best measured moves needed about {needed}")
    misses: Counter[str] = Counter()
    useless: Counter[str] = Counter()
    idle: Counter[str] = Counter()
    for read in reads:
        if read.kind != "move" or read.move is None:
            continue
        if not read.damaging:
            idle[read.move] += 1
            continue
        if "no_effect" in (read.observed, read.chart):
            useless[read.move] += 1
            continue
        _, hit = read.use()
        if hit is False:
            misses[read.move] += 1
    if sum(misses.values()) >= REPEATED_MISSES:
        reasons.append(f"{sum(misses.values())} moves missed or moved no HP bar ({_counted(misses)})")
    if sum(useless.values()) >= NO_EFFECT_USES:
        reasons.append(f"used moves that cannot affect the target ({_counted(useless)})")
    if sum(idle.values()) >= NO_DAMAGE_MOVES:
        reasons.append(f"{sum(idle.values())} turns on moves that deal no damage ({_counted(idle)})")
    runs = sum(read.kind == "run" for read in reads)
    last_exit = next((read.kind for read in reversed(reads) if read.kind in ("run", "ball")), None)
    failed = runs - (1 if log.summary.outcome == "flee" and last_exit == "run" else 0)
    if failed >= FAILED_RUNS:
        reasons.append(f"{failed} attempts to run failed")
    return reasons


def _counted(counts: Counter[str]) -> str:
    return ", ".join(f"{name} x{n}" if n > 1 else name for name, n in counts.most_common())


def detect(log: BattleLog, reads: Sequence[TurnRead] | None = None) -> Failure:
    reads = read_turns(log) if reads is None else reads
    outcome = log.summary.outcome
    fainted = our_faints(reads)
    found: dict[FailureKind, list[str]] = {}
    if outcome in ("defeat", "draw"):
        found["defeat"] = _defeat_reasons(log, fainted)
    if outcome == "victory" and (pyrrhic := _pyrrhic_reasons(reads, fainted)):
        found["pyrrhic"] = pyrrhic
    if outcome in ("victory", "flee") and (slow := _suboptimal_reasons(log, reads)):
        found["suboptimal"] = slow
    if not found:
        knocked_out = len(enemy_faints(reads, log.summary.battle_type == "trainer"))
        what = {"victory": "won", "flee": "got away"}.get(outcome, outcome)
        return Failure(
            kind="clean", reasons=(f"{what} in {log.summary.turns} turns, {knocked_out} knocked out",)
        )
    kind = next(kind for kind in SEVERITY if kind in found)
    reasons = [reason for severity in SEVERITY for reason in found.get(severity, [])]
    return Failure(kind=kind, reasons=tuple(reasons))
