"""Gen 1 (Red/Blue) damage calculator: the game's integer arithmetic, in the game's order.

Source of every formula and constant: the pret/pokered disassembly (https://github.com/pret/pokered):
engine/battle/core.asm (GetDamageVarsForPlayerAttack, CalculateDamage, AdjustDamageForMoveType,
RandomizeDamage, CriticalHitTest, MoveHitTest, ApplyAttackToEnemyPokemon), engine/battle/effects.asm
(stat stages), engine/battle/move_effects/one_hit_ko.asm, home/move_mon.asm (CalcStat),
data/battle/{critical_hit_moves,stat_modifiers,set_damage_effects}.asm, constants/battle_constants.asm.

Not modelled: Reflect/Light Screen, burn/paralysis stat penalties, badge boosts, accuracy/evasion
stages, X Accuracy, Counter and Bide (their damage depends on earlier turns), hit counts of multi-hit
moves (everything here is per hit).
"""

from __future__ import annotations

import math
from functools import cache
from statistics import fmean

from pydantic import Field

from engine.frozen import Frozen
from engine.game.tables import Move, game_data

MAX_STAT_VALUE = 999
# CalculateDamage caps the base damage at MAX_NEUTRAL_DAMAGE - MIN_NEUTRAL_DAMAGE before adding 2.
_DAMAGE_CAP = 997
# RandomizeDamage rerolls until the byte is >= 217, so each of 217..255 is equally likely.
RANDOM_ROLLS = tuple(range(217, 256))
# Types below SPECIAL (= FIRE) in the type ids are physical; the split is by type, not by move.
PHYSICAL_TYPES = frozenset(
    {"NORMAL", "FIGHTING", "FLYING", "POISON", "GROUND", "ROCK", "BIRD", "BUG", "GHOST"}
)
HIGH_CRITICAL_MOVES = frozenset({"KARATE_CHOP", "RAZOR_LEAF", "CRABHAMMER", "SLASH"})
# StatModifierRatios, indexed by stage + 6 (numerator, denominator).
_STAGE_RATIOS = (
    (25, 100), (28, 100), (33, 100), (40, 100), (50, 100), (66, 100), (1, 1),
    (15, 10), (2, 1), (25, 10), (3, 1), (35, 10), (4, 1),
)  # fmt: skip
_CONSTANT_DAMAGE = {"SONICBOOM": 20, "DRAGON_RAGE": 40}  # SONICBOOM_DAMAGE, DRAGON_RAGE_DAMAGE
# SetDamageEffects skip CalculateDamage, AdjustDamageForMoveType (so no immunity) and CriticalHitTest.
SET_DAMAGE_EFFECTS = frozenset({"SUPER_FANG_EFFECT", "SPECIAL_DAMAGE_EFFECT"})
# A hit every two turns: a charge (SKULL BASH, SOLARBEAM, DIG), a flight, or HYPER BEAM's recharge.
TWO_TURN_EFFECTS = frozenset({"CHARGE_EFFECT", "FLY_EFFECT", "HYPER_BEAM_EFFECT"})
_OHKO_EFFECT = "OHKO_EFFECT"
_UNPREDICTABLE_MOVES = frozenset({"COUNTER"})  # twice the last damage dealt: unknown here


def stat_at_level(base: int, level: int, dv: int = 8, stat_exp: int = 0, is_hp: bool = False) -> int:
    """CalcStat. dv=8 is the middle DV and what trainers' Pokémon get for Def/Spd/Spc/HP
    (ATKDEFDV_TRAINER $98, SPDSPCDV_TRAINER $88); stat_exp=0 is a Pokémon that never battled."""
    # The game finds the smallest b >= 1 with b*b >= stat_exp, giving up at 255.
    root = math.isqrt(stat_exp)
    root = min(root if root * root == stat_exp else root + 1, 255)
    stat = ((base + dv) * 2 + root // 4) * level // 100
    stat += level + 10 if is_hp else 5
    return min(stat, MAX_STAT_VALUE)


def apply_stage(stat: int, stage: int) -> int:
    """A stat after a stage change, as effects.asm recomputes it from the unmodified stat (1..999)."""
    numerator, denominator = _STAGE_RATIOS[stage + 6]
    return max(1, min(MAX_STAT_VALUE, stat * numerator // denominator))


class Combatant(Frozen):
    """One side of an attack. Stats are the unmodified ones (party/CalcStat values): critical hits use
    them as they are, other hits apply the stages first."""

    level: int = Field(ge=1, le=100)
    max_hp: int = Field(ge=1)
    attack: int = Field(ge=1)
    defense: int = Field(ge=1)
    speed: int = Field(ge=1)
    special: int = Field(ge=1)
    type1: str
    type2: str
    base_speed: int = Field(ge=0, le=255)  # the species' base speed sets the critical hit rate
    attack_stage: int = Field(default=0, ge=-6, le=6)
    defense_stage: int = Field(default=0, ge=-6, le=6)
    speed_stage: int = Field(default=0, ge=-6, le=6)
    special_stage: int = Field(default=0, ge=-6, le=6)
    focus_energy: bool = False

    @classmethod
    def estimate(cls, species_name: str, level: int, dv: int = 8) -> Combatant:
        """Stats from base stats when only species and level are visible (no stat exp; dv=8 matches a
        trainer's Pokémon except Attack, whose DV is 9)."""
        species = game_data().species_by_name[species_name]
        base = species.base
        return cls(
            level=level,
            max_hp=stat_at_level(base.hp, level, dv, is_hp=True),
            attack=stat_at_level(base.attack, level, dv),
            defense=stat_at_level(base.defense, level, dv),
            speed=stat_at_level(base.speed, level, dv),
            special=stat_at_level(base.special, level, dv),
            type1=species.types[0],
            type2=species.types[1],
            base_speed=base.speed,
        )

    def current_speed(self) -> int:
        return apply_stage(self.speed, self.speed_stage)


class DamageRange(Frozen):
    """Damage of one hit. `rolls` are equally likely outcomes: the 39 random bytes 217..255 for ordinary
    moves, one value for constant damage, every value for Psywave."""

    min: int
    max: int
    rolls: tuple[int, ...]


def _range(rolls: tuple[int, ...]) -> DamageRange:
    return DamageRange(min=min(rolls), max=max(rolls), rolls=rolls)


@cache
def _matchups(move_type: str, defender_type1: str, defender_type2: str) -> tuple[int, ...]:
    # One chart entry applies once even when both defender types are equal (the game tests d, then e).
    defenders = {defender_type1, defender_type2}
    return tuple(
        round(m.multiplier * 10)  # the table stores x10 values: 0, 5, 20
        for m in game_data().type_chart
        if m.attacker == move_type and m.defender in defenders
    )


def type_effectiveness(move_type: str, defender_type1: str, defender_type2: str) -> float:
    return math.prod(m / 10 for m in _matchups(move_type, defender_type1, defender_type2))


def ai_type_effectiveness(move_type: str, defender_type1: str, defender_type2: str) -> float:
    """What the trainer AI believes (AIGetTypeEffectiveness, pret engine/battle/core.asm): the first chart
    entry for the move's type against either of the defender's types, not their product, and neutral when
    none matches. POISONPOWDER against IVYSAUR reads super effective (POISON on GRASS comes before POISON
    on POISON), so ERIKA's VICTREEBEL chooses it every turn, though a poison type cannot be poisoned."""
    defenders = {defender_type1, defender_type2}
    for matchup in game_data().type_chart:
        if matchup.attacker == move_type and matchup.defender in defenders:
            return matchup.multiplier
    return 1.0


def _attack_and_defense(
    attacker: Combatant, defender: Combatant, move: Move, critical: bool
) -> tuple[int, int]:
    special = move.type not in PHYSICAL_TYPES
    attack, defense = (attacker.special, defender.special) if special else (attacker.attack, defender.defense)
    if not critical:  # critical hits reread the unmodified stats, so they ignore stages
        if special:
            attack_stage, defense_stage = attacker.special_stage, defender.special_stage
        else:
            attack_stage, defense_stage = attacker.attack_stage, defender.defense_stage
        attack, defense = apply_stage(attack, attack_stage), apply_stage(defense, defense_stage)
    return attack, defense


def base_damage(level: int, power: int, attack: int, defense: int, *, critical: bool, explode: bool) -> int:
    """CalculateDamage from the attack and defense the battle uses, before STAB, types and the roll."""
    if attack > 255 or defense > 255:  # the game works on bytes: scale both by 4
        attack, defense = max(attack // 4, 1), defense // 4
    if explode:  # Explosion and Selfdestruct halve defense
        defense //= 2
    defense = max(defense, 1)  # a scaled defense of 0 freezes the real game (division by zero)
    level = level * 2 if critical else level
    damage = (level * 2 // 5 + 2) * power * attack // defense // 50
    return min(damage, _DAMAGE_CAP) + 2


def _base_damage(attacker: Combatant, defender: Combatant, move: Move, critical: bool) -> int:
    attack, defense = _attack_and_defense(attacker, defender, move, critical)
    explode = move.effect == "EXPLODE_EFFECT"
    return base_damage(attacker.level, move.power, attack, defense, critical=critical, explode=explode)


def type_adjusted(
    damage: int, move_type: str, attacker_types: tuple[str, str], defender_types: tuple[str, str]
) -> int:
    """AdjustDamageForMoveType: STAB, then each type chart entry in the chart's order."""
    if move_type in attacker_types:  # STAB: damage + damage/2
        damage = (damage + damage // 2) & 0xFFFF
    for multiplier in _matchups(move_type, *defender_types):  # chart order matters
        damage = damage * multiplier // 10
    return damage


def _adjust_for_type(damage: int, attacker: Combatant, defender: Combatant, move_type: str) -> int:
    return type_adjusted(
        damage, move_type, (attacker.type1, attacker.type2), (defender.type1, defender.type2)
    )


def randomized(damage: int) -> tuple[int, ...]:
    """RandomizeDamage: the 39 equally likely results."""
    return _randomize(damage)


def _randomize(damage: int) -> tuple[int, ...]:
    if damage <= 1:  # RandomizeDamage leaves 0 and 1 alone
        return (damage,) * len(RANDOM_ROLLS)
    return tuple(damage * r // 255 for r in RANDOM_ROLLS)


def set_damage(level: int, move: Move, hp: int) -> tuple[int, ...]:
    """ApplyAttackToEnemyPokemon's fixed damage, as equally likely values; no type check, so Seismic Toss
    hits Ghosts."""
    if move.effect == "SUPER_FANG_EFFECT":
        return (max(hp // 2, 1),)
    if move.name in ("SEISMIC_TOSS", "NIGHT_SHADE"):
        return (level,)
    if move.name in _CONSTANT_DAMAGE:
        return (_CONSTANT_DAMAGE[move.name],)
    # Psywave: a random byte in [1, level * 1.5), rerolled until it fits.
    top = level + level // 2
    return tuple(range(1, top)) if top > 1 else (1,)


def damage_range(
    attacker: Combatant,
    defender: Combatant,
    move: Move,
    *,
    critical: bool = False,
    defender_hp: int | None = None,
) -> DamageRange:
    """Damage of one hit that connects (before capping at the defender's HP).

    `defender_hp` is the current HP (Super Fang, OHKO moves); unknown means full HP."""
    hp = defender.max_hp if defender_hp is None else defender_hp
    if move.effect in SET_DAMAGE_EFFECTS:
        return _range(set_damage(attacker.level, move, hp))
    if move.effect == _OHKO_EFFECT:
        # one_hit_ko.asm: 65535 damage if the user is not slower, then the type check can zero it.
        hits = attacker.current_speed() >= defender.current_speed()
        immune = type_effectiveness(move.type, defender.type1, defender.type2) == 0
        return _range((hp if hits and not immune else 0,))
    if move.power == 0 or move.name in _UNPREDICTABLE_MOVES:
        return _range((0,))
    damage = _base_damage(attacker, defender, move, critical)
    return _range(_randomize(_adjust_for_type(damage, attacker, defender, move.type)))


def critical_hit_chance(base_speed: int, move: Move, *, focus_energy: bool = False) -> float:
    """CriticalHitTest: a random byte below the threshold crits."""
    if move.power == 0 or move.effect in SET_DAMAGE_EFFECTS or move.effect == _OHKO_EFFECT:
        return 0.0  # no critical hit roll, or the OHKO effect overwrites its flag
    threshold = base_speed // 2
    # Bug kept: Focus Energy halves the threshold where it should double it.
    threshold = threshold // 2 if focus_energy else min(threshold * 2, 255)
    if move.name in HIGH_CRITICAL_MOVES:
        threshold = min(min(threshold * 2, 255) * 2, 255)
    else:
        threshold //= 2
    return threshold / 256


def hit_chance(move: Move) -> float:
    """MoveHitTest without accuracy/evasion stages: a random byte below the accuracy byte hits."""
    return 1.0 if move.effect == "SWIFT_EFFECT" else move.accuracy_byte / 256


def _outcomes(
    attacker: Combatant, defender: Combatant, move: Move, defender_hp: int | None
) -> list[tuple[float, tuple[int, ...]]]:
    """(probability, equally likely rolls) for a normal hit and a critical hit; misses deal 0."""
    crit = critical_hit_chance(attacker.base_speed, move, focus_energy=attacker.focus_energy)
    hit = hit_chance(move)
    normal = damage_range(attacker, defender, move, defender_hp=defender_hp).rolls
    critical = damage_range(attacker, defender, move, critical=True, defender_hp=defender_hp).rolls
    return [(hit * (1 - crit), normal), (hit * crit, critical)]


def expected_damage(
    attacker: Combatant, defender: Combatant, move: Move, *, defender_hp: int | None = None
) -> float:
    """Mean damage of one use, over misses, critical hits and rolls. With `defender_hp` each roll is
    capped at it, as ApplyDamageToEnemyPokemon does."""
    cap = defender_hp if defender_hp is not None else math.inf
    return sum(
        p * fmean(min(r, cap) for r in rolls) for p, rolls in _outcomes(attacker, defender, move, defender_hp)
    )


def ko_probability(attacker: Combatant, defender: Combatant, move: Move, defender_hp: int) -> float:
    """Probability that one use takes a defender with `defender_hp` HP to 0."""
    if defender_hp < 1:
        raise ValueError(f"defender_hp must be at least 1, got {defender_hp}")
    return sum(
        p * sum(r >= defender_hp for r in rolls) / len(rolls)
        for p, rolls in _outcomes(attacker, defender, move, defender_hp)
    )
