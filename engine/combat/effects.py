"""What a move does besides damage: stat stages, status, confusion, Leech Seed, screens, Bide, healing,
TRANSFORM, MIMIC, the moves that lock a member in, and the battle items that act like moves.

Each effect takes the user and the target and returns the possible results with their chances. Sources
(pret/pokered): engine/battle/effects.asm (StatModifierUpEffect, StatModifierDownEffect with the 25%
miss of the computer's stat-lowering moves and the 33% side effects, SleepEffect, PoisonEffect,
FreezeBurnParalyzeEffect, ConfusionEffect, FlinchSideEffect, BideEffect, TrappingEffect, ChargeEffect,
ThrashPetalDanceEffect, RageEffect, MimicEffect), engine/battle/move_effects/*.asm (leech_seed,
reflect_light_screen, heal, paralyze, focus_energy, mist, haze, transform), engine/items/item_effects.asm
(the X items, GUARD SPEC., DIRE HIT, X ACCURACY), macros/data.asm (percent).
"""

from __future__ import annotations

from typing import Any

from engine.combat.fighter import (
    ACCURACY,
    ATTACK,
    BADGE_BOOSTS,
    DEFENSE,
    EVASION,
    NEUTRAL,
    SPECIAL,
    SPEED,
    Fighter,
    boosted,
)
from engine.game.damage import apply_stage, base_damage
from engine.game.tables import Move, game_data

Pair = tuple[Fighter, Fighter]  # (user, target)
Results = list[tuple[float, Pair]]


def chance(percent: int, plus_one: bool = True) -> float:
    """`N percent + 1` in the disassembly: a random byte below N*255//100 (+1) passes."""
    return (percent * 255 // 100 + (1 if plus_one else 0)) / 256


# Effect name -> (stat, change) for moves whose whole point is a stage change.
STAT_UP = {
    "ATTACK_UP1_EFFECT": (ATTACK, 1),
    "DEFENSE_UP1_EFFECT": (DEFENSE, 1),
    "SPEED_UP1_EFFECT": (SPEED, 1),
    "SPECIAL_UP1_EFFECT": (SPECIAL, 1),
    "ACCURACY_UP1_EFFECT": (ACCURACY, 1),
    "EVASION_UP1_EFFECT": (EVASION, 1),
    "ATTACK_UP2_EFFECT": (ATTACK, 2),
    "DEFENSE_UP2_EFFECT": (DEFENSE, 2),
    "SPEED_UP2_EFFECT": (SPEED, 2),
    "SPECIAL_UP2_EFFECT": (SPECIAL, 2),
}
STAT_DOWN = {
    "ATTACK_DOWN1_EFFECT": (ATTACK, 1),
    "DEFENSE_DOWN1_EFFECT": (DEFENSE, 1),
    "SPEED_DOWN1_EFFECT": (SPEED, 1),
    "SPECIAL_DOWN1_EFFECT": (SPECIAL, 1),
    "ACCURACY_DOWN1_EFFECT": (ACCURACY, 1),
    "EVASION_DOWN1_EFFECT": (EVASION, 1),
    "ATTACK_DOWN2_EFFECT": (ATTACK, 2),
    "DEFENSE_DOWN2_EFFECT": (DEFENSE, 2),
    "SPEED_DOWN2_EFFECT": (SPEED, 2),
    "SPECIAL_DOWN2_EFFECT": (SPECIAL, 2),
}
STAT_DOWN_SIDE = {
    "ATTACK_DOWN_SIDE_EFFECT": ATTACK,
    "DEFENSE_DOWN_SIDE_EFFECT": DEFENSE,
    "SPEED_DOWN_SIDE_EFFECT": SPEED,
    "SPECIAL_DOWN_SIDE_EFFECT": SPECIAL,
}
SIDE_STAT_CHANCE = chance(33)
COMPUTER_STAT_DOWN_MISS = chance(25)
FULL_PARALYSIS = chance(25, plus_one=False)
CONFUSION_SELF_HIT = chance(50)
# Status side effects: (status, chance); a Pokémon is never given one by a move of its own type.
STATUS_SIDE = {
    "POISON_SIDE_EFFECT1": ("PSN", chance(20)),
    "POISON_SIDE_EFFECT2": ("PSN", chance(40)),
    "TWINEEDLE_EFFECT": ("PSN", chance(20)),
    "BURN_SIDE_EFFECT1": ("BRN", chance(10)),
    "BURN_SIDE_EFFECT2": ("BRN", chance(30)),
    "FREEZE_SIDE_EFFECT1": ("FRZ", chance(10)),
    "FREEZE_SIDE_EFFECT2": ("FRZ", chance(30)),
    "PARALYZE_SIDE_EFFECT1": ("PAR", chance(10)),
    "PARALYZE_SIDE_EFFECT2": ("PAR", chance(30)),
}
FLINCH_SIDE = {"FLINCH_SIDE_EFFECT1": chance(10), "FLINCH_SIDE_EFFECT2": chance(30)}
CONFUSION_SIDE_CHANCE = chance(10, plus_one=False)
SLEEP_TURNS = range(1, 8)  # a random byte & 7, rerolled while 0
CONFUSION_TURNS = range(2, 6)  # a random byte & 3, plus 2
CONFUSION_POWER = 40


def self_hit(me: Fighter) -> int:
    """HandleSelfConfusionDamage: a 40-power typeless hit with its own Attack on its own Defense."""
    return base_damage(
        me.level, CONFUSION_POWER, me.battle[ATTACK], me.battle[DEFENSE], critical=False, explode=False
    )


BIDE_TURNS = (2, 3)
THRASH_USES = (2, 3)  # uses after the first (ThrashPetalDanceEffect: a random bit, plus 2)
TRAP_TURNS = ((2, 3 / 8), (3, 3 / 8), (4, 1 / 8), (5, 1 / 8))  # attacks in all, as for multi-hit moves
TRAP_ATTACKS = sum(turns * p for turns, p in TRAP_TURNS)


def spread(values: range | tuple[int, ...], detail: int) -> list[tuple[float, int]]:
    """Equally likely counts, thinned to at most `detail` representatives for the search."""
    chosen = list(values)
    if detail < len(chosen):
        step = len(chosen) / detail
        chosen = [chosen[int(i * step + step / 2)] for i in range(detail)]
    return [(1 / len(chosen), value) for value in chosen]


def with_stage(fighter: Fighter, stat: int, stage: int) -> Fighter:
    stages = (*fighter.stages[:stat], stage, *fighter.stages[stat + 1 :])
    if stat >= len(fighter.battle):  # accuracy and evasion have no stat to recompute
        return fighter._replace(stages=stages)
    # The stat is recomputed from the unmodified one, which drops badge boosts and status penalties.
    value = apply_stage(fighter.stats[stat], stage)
    battle = (*fighter.battle[:stat], value, *fighter.battle[stat + 1 :])
    return fighter._replace(stages=stages, battle=(battle[0], battle[1], battle[2], battle[3]))


def with_badges(fighter: Fighter, badges: frozenset[str]) -> Fighter:
    """ApplyBadgeStatBoosts over the battle stats as they are: repeated boosts stack, as in the game."""
    battle = list(fighter.battle)
    for badge, stat in BADGE_BOOSTS.items():
        if badge in badges:
            battle[stat] = boosted(battle[stat])
    return fighter._replace(battle=(battle[0], battle[1], battle[2], battle[3]))


def with_penalties(fighter: Fighter) -> Fighter:
    """QuarterSpeedDueToParalysis and HalveAttackDueToBurn on the stats as they are."""
    battle = list(fighter.battle)
    if fighter.status == "PAR":
        battle[SPEED] = max(1, battle[SPEED] // 4)
    if fighter.status == "BRN":
        battle[ATTACK] = max(1, battle[ATTACK] // 2)
    return fighter._replace(battle=(battle[0], battle[1], battle[2], battle[3]))


def raise_stat(user: Fighter, target: Fighter, stat: int, by: int, badges: frozenset[str]) -> Pair:
    """StatModifierUpEffect. After a player's raise the badge boosts apply again to all its stats, and the
    *target's* paralysis and burn penalties apply again (both quirks of the game)."""
    if user.stages[stat] >= 6:
        return user, target  # nothing happened
    user = with_stage(user, stat, min(6, user.stages[stat] + by))
    if badges and stat < len(user.battle):
        user = with_badges(user, badges)
    return user, with_penalties(target) if stat < len(user.battle) else target


def lower_stat(target: Fighter, stat: int, by: int, target_badges: frozenset[str]) -> Fighter:
    """StatModifierDownEffect on the target; a player's badge boosts then apply again to all its stats."""
    if target.stages[stat] <= -6 or target.mist:
        return target
    target = with_stage(target, stat, max(-6, target.stages[stat] - by))
    if stat >= len(target.battle):
        return target
    if target_badges:
        target = with_badges(target, target_badges)
    return with_penalties(target)


def inflict(target: Fighter, status: str, detail: int) -> list[tuple[float, Fighter]]:
    """A major status on a target that has none (the caller checks); sleep lasts 1-7 turns."""
    if status == "SLP":
        return [
            (p, target._replace(status="SLP", sleep_turns=turns)) for p, turns in spread(SLEEP_TURNS, detail)
        ]
    if status == "TOX":
        return [(1.0, target._replace(status="PSN", toxic=1))]
    out = target._replace(status=status)
    return [(1.0, with_penalties(out) if status in ("PAR", "BRN") else out)]


def confuse(target: Fighter, detail: int) -> list[tuple[float, Fighter]]:
    if target.confused:
        return [(1.0, target)]
    return [(p, target._replace(confused=turns)) for p, turns in spread(CONFUSION_TURNS, detail)]


def can_take_status(target: Fighter, status: str, move: Move) -> bool:
    """Status moves fail on a target with a status; poison never takes on Poison types, paralysis from an
    Electric move never on Ground types, and a side effect never hits a target of the move's own type.
    SleepEffect puts a recharging target to sleep whatever its status (it skips every test then)."""
    if status == "SLP" and move.power == 0 and target.recharging:
        return True
    if target.status != "OK":
        return False
    if status in ("PSN", "TOX") and "POISON" in target.types:
        return False
    if status == "PAR" and move.type == "ELECTRIC" and "GROUND" in target.types:
        return False
    return not (move.power > 0 and move.type in target.types)


def status_of_move(move: Move) -> str | None:
    """The status a pure status move gives."""
    if move.effect == "SLEEP_EFFECT":
        return "SLP"
    if move.effect == "PARALYZE_EFFECT":
        return "PAR"
    if move.effect == "POISON_EFFECT":
        return "TOX" if move.name == "TOXIC" else "PSN"
    return None


def invulnerable(fighter: Fighter) -> bool:
    """Charging FLY or DIG: ChargeEffect sets INVULNERABLE, and MoveHitTest misses every move but SWIFT."""
    if fighter.charging < 0:
        return False
    move = game_data().moves_by_id[fighter.moves[fighter.charging]]
    return move.effect == "FLY_EFFECT" or move.name == "DIG"


def locked_slot(fighter: Fighter) -> int | None:
    """The move a member goes on with whatever is chosen: a charged move, THRASH or PETAL DANCE until
    their uses are over, RAGE once used; None when it chooses freely."""
    if fighter.charging >= 0:
        return fighter.charging
    if fighter.thrashing or fighter.raging:
        wanted = "THRASH_PETAL_DANCE_EFFECT" if fighter.thrashing else "RAGE_EFFECT"
        for slot, move_id in enumerate(fighter.moves):
            if game_data().moves_by_id[move_id].effect == wanted:
                return slot
    return None


def reset_stages(fighter: Fighter) -> Fighter:
    return fighter._replace(stages=NEUTRAL, battle=fighter.stats)


# Battle items (pret engine/items/item_effects.asm): ItemUseXStat runs StatModifierUpEffect for the user
# (so a player's badge boosts apply again, and the other side's paralysis and burn penalties);
# ItemUseGuardSpec sets PROTECTED_BY_MIST, ItemUseDireHit GETTING_PUMPED (which, as FOCUS ENERGY does,
# quarters the critical hit rate: engine/game/damage.py critical_hit_chance), ItemUseXAccuracy
# USING_X_ACCURACY (MoveHitTest then skips the accuracy roll).
X_ITEMS = {"X_ATTACK": ATTACK, "X_DEFEND": DEFENSE, "X_SPEED": SPEED, "X_SPECIAL": SPECIAL}
FLAG_ITEMS = {"GUARD_SPEC": "mist", "DIRE_HIT": "focus_energy", "X_ACCURACY": "x_accuracy"}
STAT_ITEMS = frozenset(X_ITEMS) | frozenset(FLAG_ITEMS)


def stat_item(user: Fighter, foe: Fighter, item: str, badges: frozenset[str]) -> Pair:
    """The member in front and its foe after `item`; nothing changes for an item that cannot help."""
    if item in FLAG_ITEMS:
        flag: dict[str, Any] = {FLAG_ITEMS[item]: True}
        return user._replace(**flag), foe
    stat = X_ITEMS.get(item)
    if stat is None:
        return user, foe
    return raise_stat(user, foe, stat, 1, badges)


def transform_copy(target: Fighter) -> dict[str, Any]:
    """What TRANSFORM takes from its target (pret engine/battle/move_effects/transform.asm): species,
    types, moves (5 PP each), the stats as they stand and unmodified, the stages and the species' critical
    hit rate; level, HP and status stay the user's own."""
    five = (5,) * len(target.moves)
    return {
        "species": target.species, "types": target.types, "moves": target.moves, "pp": five, "max_pp": five,
        "stats": target.stats, "battle": target.battle, "stages": target.stages,
        "base_speed": target.base_speed, "transformed": True, "scales": (),
    }  # fmt: skip


def mimicked(user: Fighter, target: Fighter, mimic: Move, ours: bool) -> list[tuple[float, Fighter]]:
    """MimicEffect: the MIMIC slot takes one of the target's moves, keeping MIMIC's PP. The enemy's is
    a random one of ours; ours is the move the game's menu offers first, which is what the executor
    answers (its A on the menu takes the first entry)."""
    slot = user.moves.index(mimic.id) if mimic.id in user.moves else -1
    if slot < 0 or not target.moves:
        return [(1.0, user)]
    chosen = target.moves[:1] if ours else target.moves
    return [
        (1 / len(chosen), user._replace(moves=(*user.moves[:slot], move_id, *user.moves[slot + 1 :])))
        for move_id in chosen
    ]


def transform(user: Fighter, target: Fighter) -> Fighter:
    return user._replace(**transform_copy(target))


def pointless(move: Move, user: Fighter, target: Fighter) -> bool:
    """A status move that cannot do anything now: the stage is at its limit, the target already has a
    status (or cannot take this one), is already confused or seeded, the screen is already up."""
    effect = move.effect
    if effect in STAT_UP:
        return user.stages[STAT_UP[effect][0]] >= 6
    if effect in STAT_DOWN:
        return target.mist or target.stages[STAT_DOWN[effect][0]] <= -6
    status = status_of_move(move)
    if status is not None:
        return not can_take_status(target, status, move)
    return (
        (effect == "CONFUSION_EFFECT" and target.confused > 0)
        or (effect == "LEECH_SEED_EFFECT" and (target.seeded or "GRASS" in target.types))
        or (effect == "REFLECT_EFFECT" and user.reflect)
        or (effect == "LIGHT_SCREEN_EFFECT" and user.light_screen)
        or (effect == "FOCUS_ENERGY_EFFECT" and user.focus_energy)
        or (effect == "MIST_EFFECT" and user.mist)
    )
