"""Wear: an enemy that keeps lowering our member's stats (GROWL, LEER, TAIL WHIP, SAND-ATTACK) through a
duel. Each use moves a stage, so our hits shrink, or theirs grow, turn after turn; a race run with the
paces of the first turn judges such a duel as if the stats stayed put. A rival's CHARMANDER alternating
SCRATCH and GROWL against a BULBASAUR with TACKLE was judged 85%, and played out in the turn model it
is won about two times in three (judged 56% with wear).

Here the paces are scaled by the mean stage multiplier over the turns the duel is expected to last, the
stages falling by the enemy's expected rate a turn (its chance of choosing the move, hitting, and getting
past the 25% the game adds to a computer's stat-lowering move) down to -6.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.combat.effects import COMPUTER_STAT_DOWN_MISS, STAT_DOWN
from engine.combat.fighter import ACCURACY, ATTACK, DEFENSE, SPECIAL, Action, Attack, Fighter, move_of
from engine.combat.hits import deals_damage, hit_chance
from engine.combat.memo import keep
from engine.game.damage import PHYSICAL_TYPES

if TYPE_CHECKING:
    from engine.combat.pace import Pace

LOWEST_STAGE = -6
_LONGEST = 60  # turns looked at (the race's horizon)
_ROUNDS = 2  # a worn pace makes the duel longer, which wears it more: worked out twice


def stage_multiplier(stage: float) -> float:
    """The Gen 1 stage table as a curve: 2/(2 - s) below zero (-1: 66%, -6: 25%), (2 + s)/2 above."""
    return 2 / (2 - stage) if stage < 0 else (2 + stage) / 2


def worn(
    me: Fighter, foe: Fighter, answers: list[tuple[float, Action]], ours: Pace, theirs: Pace
) -> tuple[Pace, Pace]:
    """Our pace and theirs over the duel, with the enemy's stat-lowering moves worked in. Remembered by
    everything it reads (the races of one search meet the same ones about every other time)."""
    if me.mist:
        return ours, theirs
    our_move = me.moves[ours.slot] if ours.slot >= 0 else -1
    key = (me.stages, foe.stages[ACCURACY], me.hp, foe.hp, foe.moves, our_move, tuple(answers), ours, theirs)
    found = _WORN.get(key)
    if found is None:
        found = keep(_WORN, key, _worn(me, foe, answers, ours, theirs), _WORN_KEPT)
    return found


_WORN: dict[tuple[object, ...], tuple[Pace, Pace]] = {}
_WORN_KEPT = 1 << 12  # ~0.7 KB an entry


def _worn(
    me: Fighter, foe: Fighter, answers: list[tuple[float, Action]], ours: Pace, theirs: Pace
) -> tuple[Pace, Pace]:
    rates = _rates(me, foe, answers, theirs.acts)
    if not any(rates.values()):
        return ours, theirs
    physical = ours.slot >= 0 and move_of(me, ours.slot).type in PHYSICAL_TYPES
    hitting = rates[ATTACK if physical else SPECIAL], rates[ACCURACY]
    guarding = rates[DEFENSE] * _physical_share(foe, answers)
    start = me.stages
    worn_ours, worn_theirs = ours, theirs
    for _ in range(_ROUNDS):
        turns = _duel_turns(me, foe, worn_ours, worn_theirs)
        ours_factor = _mean_ratio(start[ATTACK if physical else SPECIAL], hitting[0], turns)
        ours_factor *= _mean_ratio(start[ACCURACY], hitting[1], turns)
        theirs_factor = _mean_ratio(start[DEFENSE], guarding, turns, inverse=True)
        worn_ours = ours._replace(mean=ours.mean * ours_factor, variance=ours.variance * ours_factor**2)
        worn_theirs = theirs._replace(
            mean=theirs.mean * theirs_factor, variance=theirs.variance * theirs_factor**2
        )
    return worn_ours, worn_theirs


def _rates(me: Fighter, foe: Fighter, answers: list[tuple[float, Action]], acts: float) -> dict[int, float]:
    """Stages a turn the enemy is expected to take off each of our stats."""
    rates = {ATTACK: 0.0, DEFENSE: 0.0, SPECIAL: 0.0, ACCURACY: 0.0}
    for p, action in answers:
        if not isinstance(action, Attack) or action.slot < 0:
            continue
        move = move_of(foe, action.slot)
        lowered = STAT_DOWN.get(move.effect)
        if lowered is None or lowered[0] not in rates:
            continue
        stat, by = lowered
        rates[stat] += acts * p * hit_chance(move, foe, me) * (1 - COMPUTER_STAT_DOWN_MISS) * by
    return rates


def _physical_share(foe: Fighter, answers: list[tuple[float, Action]]) -> float:
    """The share of the enemy's damaging choices that are physical (our Defense is what they meet)."""
    physical = total = 0.0
    for p, action in answers:
        if (
            isinstance(action, Attack)
            and action.slot >= 0
            and deals_damage(move := move_of(foe, action.slot))
        ):
            total += p
            physical += p if move.type in PHYSICAL_TYPES else 0.0
    return physical / total if total else 0.0


def _duel_turns(me: Fighter, foe: Fighter, ours: Pace, theirs: Pace) -> int:
    """About how many turns the duel lasts: until either side's steady hitting would knock the other out."""
    ending = min(_turns_to_fell(foe.hp, ours), _turns_to_fell(me.hp, theirs))
    return max(1, min(_LONGEST, round(ending)))


def _turns_to_fell(hp: int, pace: Pace) -> float:
    per_turn = pace.acts * pace.mean
    return pace.lost + hp / per_turn if per_turn > 0 else float(_LONGEST)


def _mean_ratio(stage: int, rate: float, turns: int, *, inverse: bool = False) -> float:
    """The mean over `turns` turns of the stage multiplier after falling `rate` stages a turn, against
    the multiplier now (with `inverse`, of its reciprocal's: what a lowered Defense lets through)."""
    if rate <= 0 or stage <= LOWEST_STAGE:
        return 1.0
    now = stage_multiplier(stage)
    total = 0.0
    for turn in range(turns):
        ratio = stage_multiplier(max(LOWEST_STAGE, stage - rate * turn)) / now
        total += 1 / ratio if inverse else ratio
    return total / turns
