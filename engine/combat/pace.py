"""How hard each side of a duel hits a turn: the paces the race (engine/combat/race.py) runs.

A pace is the mean and variance of one turn's damage, the chance of acting in a turn and the turns lost
before acting at all. Our side uses its best move while the PP lasts; the enemy's pace mixes its move
choices over their chances. What one use of a move does is remembered by everything it depends on except
the target's HP, which the search's branches mostly differ in.
"""

from __future__ import annotations

import itertools
from bisect import bisect_right
from functools import lru_cache
from typing import NamedTuple, TypeVar

from engine.combat import enemy
from engine.combat.effects import CONFUSION_SELF_HIT, FULL_PARALYSIS, locked_slot
from engine.combat.fighter import STRUGGLE_SLOT, Action, Attack, Duel, Fighter, move_of
from engine.combat.hits import hit_chance, may_deal_damage, strike_outcomes
from engine.combat.memo import keep
from engine.game.damage import TWO_TURN_EFFECTS
from engine.game.tables import Move, game_data

HORIZON = 60  # turns a race looks at (a side that cannot finish by then stalls)
TRAPPED_TURNS = 2.1  # turns a trapping move hits on after it is chosen
HP_MOVES = frozenset({"SUPER_FANG_EFFECT", "OHKO_EFFECT"})  # damage set by the target's HP or level
_DETAIL = 4  # damage groups per roll when sizing up a move
_ROLLS_EXACT = 39  # every damage roll (217..255 of 255) on its own: whether one hit knocks out

_Kept = TypeVar("_Kept")
Tail = tuple[tuple[int, ...], tuple[float, ...]]  # a move's damages, negated, and the chance of at least each
_PACES: dict[tuple[object, ...], tuple[float, float]] = {}
_PACES_KEPT = 1 << 13  # paces remembered (~0.4 KB an entry)
_TAILS: dict[tuple[object, ...], Tail] = {}  # as many, ~1 KB each


class Pace(NamedTuple):
    """How hard a side hits per turn and how long before it starts."""

    mean: float  # expected damage per turn it acts
    variance: float
    acts: float  # chance it acts in a turn
    lost: float  # turns lost before it acts at all
    slot: int  # the move that gives this pace (-1: none)
    now: float = 0.0  # the chance its move this turn knocks our member out (worked out only for a bag)
    recoil: float = 0.0  # HP a turn the side loses to its own STRUGGLE, over the turns its knock-out takes
    hurt: float = 0.0  # HP a turn the side is expected to lose hitting itself in its confusion


Paces = list[tuple[tuple[float, float], int]]  # (mean, variance) of each usable move, with its slot


def move_pace(user: Fighter, target: Fighter, slot: int) -> tuple[float, float]:
    """(mean, variance) of one use's damage; not capped at the target's HP (the race does that)."""
    move = move_of(user, slot)
    if not may_deal_damage(move):
        return 0.0, 0.0
    key = _strike_key(move, user, target, slot)
    found = _PACES.get(key)
    if found is None:
        found = _remember(_PACES, key, _pace_of(move, user, target, user.scale(slot)))
    return found


def one_hit(user: Fighter, target: Fighter, slot: int) -> float:
    """The mean damage of one use of a move, a two-turn move's hit counted whole (move_pace spreads it
    over its two turns)."""
    move = move_of(user, slot)
    mean, _variance = move_pace(user, target, slot)
    return 2 * mean if move.effect in TWO_TURN_EFFECTS else mean


def _remember(memo: dict[tuple[object, ...], _Kept], key: tuple[object, ...], value: _Kept) -> _Kept:
    """Keep `value` under `key`, at most _PACES_KEPT entries (engine/combat/memo.py)."""
    return keep(memo, key, value, _PACES_KEPT)


def _strike_key(move: Move, user: Fighter, target: Fighter, slot: int) -> tuple[object, ...]:
    """Everything one use's damage depends on, the target's HP only where the damage does."""
    hp = target.hp if move.effect in HP_MOVES else 0
    return (
        move.id, hp, user.scale(slot), user.level, user.battle, user.stats, user.types, user.base_speed,
        user.focus_energy, user.x_accuracy, user.stages, target.battle, target.stats, target.types,
        target.stages, target.reflect, target.light_screen,
    )  # fmt: skip


def tail(user: Fighter, target: Fighter, slot: int) -> Tail:
    """The move's damages, largest first with the chance of at least each: all but the target's HP, which
    picks the place (chance_at_least)."""
    move = move_of(user, slot)
    key = _strike_key(move, user, target, slot)
    found = _TAILS.get(key)
    if found is None:
        found = _remember(_TAILS, key, _tail_of(move, user, target, user.scale(slot)))
    return found


def chance_at_least(found: Tail, hp: int) -> float:
    damages, at_least = found
    reached = bisect_right(damages, -hp)  # damages are stored negated: largest first, ascending
    return at_least[reached - 1] if reached else 0.0


def _tail_of(move: Move, user: Fighter, target: Fighter, scale: float) -> Tail:
    hit = hit_chance(move, user, target)
    merged: dict[int, float] = {}
    for p, damage in strike_outcomes(move, user, target, _ROLLS_EXACT, scale):
        merged[-damage] = merged.get(-damage, 0.0) + hit * p
    damages = tuple(sorted(merged))
    at_least = tuple(itertools.accumulate(merged[d] for d in damages))
    return damages, at_least


def _pace_of(move: Move, user: Fighter, target: Fighter, scale: float) -> tuple[float, float]:
    hit = hit_chance(move, user, target)
    outcomes = [(hit * p, d) for p, d in strike_outcomes(move, user, target, _DETAIL, scale)]
    mean = sum(p * d for p, d in outcomes)
    second = sum(p * d * d for p, d in outcomes)
    if move.effect in TWO_TURN_EFFECTS:
        mean, second = mean / 2, second / 2  # one hit every two turns
    return mean, max(0.0, second - mean * mean)


def _stopped(fighter: Fighter, foe: Fighter) -> tuple[float, float]:
    """(chance of acting in a turn, turns lost first)."""
    if fighter.status == "FRZ":
        return 0.0, 0.0
    acts = 1 - FULL_PARALYSIS if fighter.status == "PAR" else 1.0
    lost = float(fighter.sleep_turns if fighter.status == "SLP" else 0)
    lost += fighter.recharging + foe.trapping + fighter.bide
    if fighter.confused > 1:
        lost += CONFUSION_SELF_HIT * (fighter.confused - 1)
    return acts, lost


def best_pace(user: Fighter, target: Fighter) -> Pace:
    """Our side: the move with the highest expected damage, for as long as its PP lasts (see _rationed)."""
    return ration(*strongest(user, target), user, target)


def strongest(user: Fighter, target: Fighter) -> tuple[Pace, Paces]:
    """Our best move's pace before its PP is counted, and the paces of every usable move (what `ration`
    needs): all but the target's HP, so a race at another HP reuses them."""
    acts, lost = _stopped(user, target)
    locked = locked_slot(user) if user.raging else None  # RAGE once used is all it does
    slots = [locked] if locked is not None else [i for i, pp in enumerate(user.pp) if pp > 0] or [-1]
    paces = [(move_pace(user, target, s), s) for s in slots]
    (mean, variance), slot = max(paces, key=lambda item: item[0][0])
    return Pace(mean=mean, variance=variance, acts=acts, lost=lost, slot=slot), paces


def ration(best: Pace, paces: Paces, user: Fighter, target: Fighter) -> Pace:
    """`best` as the PP allow against the target's HP."""
    mean, variance, slot = best.mean, best.variance, best.slot
    if slot == STRUGGLE_SLOT and mean > 0:
        return best._replace(recoil=max(mean / 2, 1.0))  # nothing but STRUGGLE left: its recoil every hit
    if slot >= 0 and user.pp[slot] * mean < target.hp:
        recoil = 0.0
        if mean > 0:
            mean, variance, recoil = _rationed(user, target, paces, mean, variance)
        elif (struggle := move_pace(user, target, STRUGGLE_SLOT))[0] > 0:
            # Nothing but status moves: their PP first, then STRUGGLE.
            mean, variance, recoil = _rationed(user, target, paces, *struggle)
        return best._replace(mean=mean, variance=variance, recoil=recoil)
    return best


def _rationed(
    user: Fighter, target: Fighter, paces: Paces, mean: float, variance: float
) -> tuple[float, float, float]:
    """A pace for a best move whose PP runs out before the target is down: the moves are used best first,
    each while its PP lasts; then the moves that deal nothing use theirs up, and only then comes STRUGGLE
    (the game offers it only once every move is out of PP). The mean is the target's HP over those turns,
    so a member with one VINE WHIP left and three status moves is seen to stall, not to win. The third
    number is the recoil a turn: STRUGGLE hurts its user by half the damage it deals (pret
    engine/battle/move_effects/recoil.asm, at least 1 a hit), so a member that must STRUGGLE a long way
    can fall to itself (an ODDISH out of ABSORB against a VICTREEBEL that only uses POISONPOWDER on it)."""
    left, turns, recoil = float(target.hp), 0.0, 0.0
    for (move_mean, _variance), slot in sorted(paces, key=lambda item: -item[0][0]):
        if move_mean <= 0:
            break
        uses = user.pp[slot]
        if uses * move_mean >= left:
            turns += left / move_mean
            left = 0.0
            break
        turns, left = turns + uses, left - uses * move_mean
    if left > 0:
        idle = sum(user.pp[slot] for (move_mean, _variance), slot in paces if move_mean <= 0)
        struggling, _spread = move_pace(user, target, STRUGGLE_SLOT)
        turns += idle + (left / struggling if struggling > 0 else HORIZON)
        recoil = max(left / 2, left / struggling) if struggling > 0 else 0.0
    rationed = target.hp / turns
    return rationed, variance * (rationed / mean) ** 2, recoil / turns


def enemy_pace(duel: Duel, answers: list[tuple[float, Action]] | None = None) -> Pace:
    """Their side: the damage of their move choice, mixed over its chances. A trapping move (WRAP, BIND,
    FIRE SPIN, CLAMP) chosen once hits on for about TRAPPED_TURNS more turns, so it weighs that much more
    in the mix of turns (a WRAP user picking WRAP half the time hits most turns)."""
    me, foe = duel.them.fighter, duel.us.fighter
    acts, lost = _stopped(me, foe)
    mean = second = turns = 0.0
    for p, action in enemy.choices(duel) if answers is None else answers:
        weight = p
        if isinstance(action, Attack):
            if action.slot >= 0 and move_of(me, action.slot).effect == "TRAPPING_EFFECT":
                weight = p * (1 + TRAPPED_TURNS)
            m, v = move_pace(me, foe, action.slot)
            mean += weight * m
            second += weight * (v + m * m)
        turns += weight
    if turns > 0:
        mean, second = mean / turns, second / turns
    return Pace(mean=mean, variance=max(0.0, second - mean * mean), acts=acts, lost=lost, slot=-1)


def hp_moves(fighter: Fighter) -> bool:
    """Whether one of the member's moves deals damage set by its target's HP (SUPER FANG)."""
    return _hp_moves(fighter.moves)


@lru_cache(maxsize=1 << 10)
def _hp_moves(moves: tuple[int, ...]) -> bool:
    return any(game_data().moves_by_id[move].effect in HP_MOVES for move in moves)
