"""One use of a move, as chances: does it hit, is it critical, how much damage does each roll do.

Sources (pret/pokered): engine/battle/core.asm (MoveHitTest, CalcHitChance, CriticalHitTest,
GetDamageVarsForPlayerAttack/EnemyAttack, AdjustDamageForMoveType, RandomizeDamage), engine/battle/effects.asm
(TwoToFiveAttacksEffect), engine/battle/move_effects/one_hit_ko.asm, data/battle/stat_modifiers.asm.
"""

from __future__ import annotations

from functools import lru_cache

from engine.combat.fighter import ACCURACY, ATTACK, DEFENSE, EVASION, SPECIAL, SPEED, Fighter, move_of
from engine.combat.memo import keep
from engine.game.damage import (
    PHYSICAL_TYPES,
    SET_DAMAGE_EFFECTS,
    TWO_TURN_EFFECTS,
    base_damage,
    critical_hit_chance,
    randomized,
    set_damage,
    type_adjusted,
    type_effectiveness,
)
from engine.game.tables import Move, game_data

# StatModifierRatios (data/battle/stat_modifiers.asm), indexed by stage + 6.
_RATIOS = (
    (25, 100), (28, 100), (33, 100), (40, 100), (50, 100), (66, 100), (1, 1),
    (15, 10), (2, 1), (25, 10), (3, 1), (35, 10), (4, 1),
)  # fmt: skip
# TwoToFiveAttacksEffect: 2 or 3 hits with 3/8 each, 4 or 5 with 1/8 each.
MULTI_HITS = ((2, 3 / 8), (3, 3 / 8), (4, 1 / 8), (5, 1 / 8))
TWICE_EFFECTS = frozenset({"ATTACK_TWICE_EFFECT", "TWINEEDLE_EFFECT"})
OHKO = "OHKO_EFFECT"
# Effects whose moves have power 0 in the table yet deal damage.
DAMAGE_WITHOUT_POWER = SET_DAMAGE_EFFECTS | {OHKO}


def deals_damage(move: Move) -> bool:
    return move.power > 0 or move.effect in DAMAGE_WITHOUT_POWER


def may_deal_damage(move: Move) -> bool:
    """A move with damage among its outcomes: the damaging ones, and METRONOME (most moves it calls)."""
    return deals_damage(move) or move.effect == METRONOME


def hit_chance(move: Move, user: Fighter, target: Fighter) -> float:
    """CalcHitChance: the accuracy byte scaled by the user's accuracy stage, then by the target's evasion
    stage reversed, kept in 1..255; a random byte below it hits (so even 100% moves miss 1 in 256).
    SWIFT and a user under X ACCURACY skip the roll (MoveHitTest); METRONOME's outcomes hold their misses."""
    if move.effect in ("SWIFT_EFFECT", METRONOME) or user.x_accuracy:
        return 1.0
    key = (move.accuracy_byte, user.stages[ACCURACY], target.stages[EVASION])
    found = _HIT_CHANCES.get(key)
    if found is None:  # the search asks ~800 times a decision; there are a few hundred keys in all
        found = _HIT_CHANCES[key] = _scaled_hit_chance(*key)
    return found


_HIT_CHANCES: dict[tuple[int, int, int], float] = {}


def _scaled_hit_chance(accuracy: int, accuracy_stage: int, evasion_stage: int) -> float:
    for stage in (accuracy_stage, -evasion_stage):
        numerator, denominator = _RATIOS[stage + 6]
        accuracy = max(1, min(255, accuracy * numerator // denominator))
    return accuracy / 256


def hits(move: Move) -> tuple[tuple[int, float], ...]:
    """How many times a use strikes, with chances."""
    if move.effect == "TWO_TO_FIVE_ATTACKS_EFFECT":
        return MULTI_HITS
    return ((2, 1.0),) if move.effect in TWICE_EFFECTS else ((1, 1.0),)


def _battle_pair(move: Move, user: Fighter, target: Fighter, critical: bool) -> tuple[int, int]:
    physical = move.type in PHYSICAL_TYPES
    attack_at, defense_at = (ATTACK, DEFENSE) if physical else (SPECIAL, SPECIAL)
    if critical:  # the unmodified stats, and no Reflect or Light Screen
        return user.stats[attack_at], target.stats[defense_at]
    defense = target.battle[defense_at]
    if (target.reflect and physical) or (target.light_screen and not physical):
        defense *= 2  # not capped at 999, as in the game
    return user.battle[attack_at], defense


def sure_knock_out(user: Fighter, target: Fighter) -> int | None:
    """The slot of a one-hit knock-out move (FISSURE, HORN DRILL, GUILLOTINE) with PP left that X ACCURACY
    makes sure against `target`: one not faster than `user` and not immune (pret engine/battle/core.asm
    MoveHitTest, OHKOEffect). The speedrunner's way through the Elite Four."""
    for slot, pp in enumerate(user.pp):
        if slot >= len(user.moves):
            break
        move = move_of(user, slot)
        if pp > 0 and move.effect == OHKO and rolls(move, user, target, False) == (target.hp,):
            return slot
    return None


def rolls(move: Move, user: Fighter, target: Fighter, critical: bool) -> tuple[int, ...]:
    """The equally likely damages of one strike that connects (0 when the target is immune)."""
    if move.effect in SET_DAMAGE_EFFECTS:
        return set_damage(user.level, move, target.hp)
    if move.effect == OHKO:
        slower = user.battle[SPEED] < target.battle[SPEED]
        immune = type_effectiveness(move.type, *target.types) == 0
        return (0,) if slower or immune else (target.hp,)
    attack, defense = _battle_pair(move, user, target, critical)
    explode = move.effect == "EXPLODE_EFFECT"
    key = (move.power, move.type, explode)
    return _rolls(user.level, key, attack, defense, critical, user.types, target.types)


@lru_cache(maxsize=1 << 13)  # ~1 KB an entry: bounded, as a long run of levelling meets ever new stat pairs
def _rolls(
    level: int,
    move: tuple[int, str, bool],
    attack: int,
    defense: int,
    critical: bool,
    user_types: tuple[str, str],
    target_types: tuple[str, str],
) -> tuple[int, ...]:
    power, move_type, explode = move
    damage = base_damage(level, power, attack, defense, critical=critical, explode=explode)
    damage = type_adjusted(damage, move_type, user_types, target_types)
    return randomized(damage) if damage else (0,)


def crit_chance(move: Move, user: Fighter) -> float:
    return critical_hit_chance(user.base_speed, move, focus_energy=user.focus_energy)


def bucketed(values: tuple[int, ...], buckets: int) -> list[tuple[float, int]]:
    """Equally likely values grouped into at most `buckets` contiguous groups, each stood for by its middle
    value: the search's coarse view of a damage roll. `buckets` >= the number of values keeps them all."""
    ordered = sorted(values)
    count = len(ordered)
    if buckets >= count:
        return [(1 / count, v) for v in ordered]
    groups = []
    for i in range(buckets):
        low, high = i * count // buckets, (i + 1) * count // buckets
        groups.append(((high - low) / count, ordered[(low + high - 1) // 2]))
    return groups


def strike_outcomes(
    move: Move, user: Fighter, target: Fighter, buckets: int, scale: float = 1.0
) -> list[tuple[float, int]]:
    """(chance, total damage before the HP cap) of a use that connects: critical or not, the roll, the
    number of strikes, times a lesson's `scale`. Immunity shows as damage 0."""
    if move.effect == METRONOME:
        return _metronome(user, target, buckets, scale)
    crit = crit_chance(move, user)
    out: list[tuple[float, int]] = []
    for critical, chance in ((False, 1 - crit), (True, crit)):
        if chance <= 0:
            continue
        values = bucketed(rolls(move, user, target, critical), buckets if not critical else 1)
        for count, count_chance in hits(move):
            out += [(chance * count_chance * p, round(damage * count * scale)) for p, damage in values]
    return out


# -- METRONOME ---------------------------------------------------------------------------------------------
# MetronomePickMove (engine/battle/core.asm): a random move id from the first to the last, rerolled on
# METRONOME and STRUGGLE, then used as if chosen. Its damage is the mixture over every move it may call,
# misses and moves that deal none at 0; a two-turn move counts half (one hit every two turns).
METRONOME = "METRONOME_EFFECT"
_NOT_CALLED = frozenset({"METRONOME", "STRUGGLE"})
_METRONOME_DETAIL = 4
_MIXTURES: dict[tuple[object, ...], tuple[tuple[float, int], ...]] = {}
_MIXTURES_KEPT = 1 << 10


@lru_cache(maxsize=1)
def _callable() -> tuple[Move, ...]:
    return tuple(m for m in game_data().moves_by_id.values() if m.name not in _NOT_CALLED)


def _metronome(user: Fighter, target: Fighter, buckets: int, scale: float) -> list[tuple[float, int]]:
    key = (user.level, user.battle, user.stats, user.types, user.base_speed, user.focus_energy, user.stages,
           user.x_accuracy, target.hp, target.battle, target.stats, target.types, target.stages,
           target.reflect, target.light_screen, scale)  # fmt: skip
    mixture = _MIXTURES.get(key)
    if mixture is None:
        mixture = keep(_MIXTURES, key, _mixture(user, target, scale), _MIXTURES_KEPT)
    return weighted_groups(mixture, buckets)


def _mixture(user: Fighter, target: Fighter, scale: float) -> tuple[tuple[float, int], ...]:
    pool = _callable()
    share = 1 / len(pool)
    merged: dict[int, float] = {}
    for move in pool:
        if not deals_damage(move):
            merged[0] = merged.get(0, 0.0) + share
            continue
        hit = hit_chance(move, user, target) * (0.5 if move.effect in TWO_TURN_EFFECTS else 1.0)
        merged[0] = merged.get(0, 0.0) + share * (1 - hit)
        for p, damage in strike_outcomes(move, user, target, _METRONOME_DETAIL, scale):
            merged[damage] = merged.get(damage, 0.0) + share * hit * p
    return tuple(sorted((p, damage) for damage, p in merged.items()))


def weighted_groups(values: tuple[tuple[float, int], ...], buckets: int) -> list[tuple[float, int]]:
    """(chance, value) pairs grouped into at most `buckets` runs of nearly equal chance, in value order,
    each stood for by its chance-weighted mean: bucketed() for values that are not equally likely."""
    ordered = sorted(values, key=lambda pair: pair[1])
    if buckets >= len(ordered):
        return list(ordered)
    total = sum(p for p, _ in ordered)
    groups: list[tuple[float, int]] = []
    mass = weighted = 0.0
    for p, value in ordered:
        mass, weighted = mass + p, weighted + p * value
        if mass >= total / buckets * (1 - 1e-9) and len(groups) < buckets - 1:
            groups.append((mass, round(weighted / mass)))
            mass = weighted = 0.0
    if mass > 0:
        groups.append((mass, round(weighted / mass)))
    return groups
