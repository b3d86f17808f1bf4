"""Moves that cannot do anything now, whatever the draw: the search never chooses one while any other
action is on offer, as a player would not send a Normal move into a Ghost.

Sources (pret/pokered engine/battle/core.asm): AdjustDamageForMoveType (a chart entry of 0 makes a move
miss: Normal and Fighting into Ghost, Ground into Flying, Electric into Ground, Ghost into Normal and, in
Gen 1, Ghost into Psychic); SetDamageEffects skip that check (SEISMIC TOSS, NIGHT SHADE, SONICBOOM,
DRAGON RAGE, PSYWAVE and SUPER FANG hit anything); HandleCounterMove skips it too. MoveHitTest misses
DREAM EATER on a target that is awake; engine/battle/move_effects/one_hit_ko.asm misses when the user
is slower; engine/battle/effects.asm SwitchAndTeleportEffect does nothing in a trainer battle (and ends
a wild one, which is no win either), SPLASH nothing anywhere. Status moves: engine/combat/effects.py
`pointless`.
"""

from __future__ import annotations

from engine.combat.effects import pointless
from engine.combat.fighter import ACCURACY, ATTACK, EVASION, SPECIAL, SPEED, Fighter, move_of
from engine.combat.hits import OHKO, deals_damage
from engine.game.damage import PHYSICAL_TYPES, SET_DAMAGE_EFFECTS, type_effectiveness
from engine.game.tables import Move

TYPELESS_MOVES = frozenset({"COUNTER"})  # HandleCounterMove returns before the type check
MOST_STAGES = 6
SURE_ACCURACY = 100  # percent: a move the table gives 100% (the game's 255/256) gains nothing by X ACCURACY
NOTHING_EFFECTS = frozenset({"SPLASH_EFFECT", "SWITCH_AND_TELEPORT_EFFECT"})


def immune(move: Move, target: Fighter) -> bool:
    """The type chart lets the move do nothing to the target."""
    if move.effect in SET_DAMAGE_EFFECTS or move.name in TYPELESS_MOVES:
        return False
    return type_effectiveness(move.type, *target.types) == 0


def _asleep_when_hit(user: Fighter, target: Fighter) -> bool:
    """Still asleep when our move comes: a sleeper on its last turn that moves first wakes up before it
    (its sleep counter runs out at the start of its own turn)."""
    if target.status != "SLP":
        return False
    return target.sleep_turns > 1 or user.battle[SPEED] > target.battle[SPEED]


def futile(move: Move, user: Fighter, target: Fighter) -> bool:
    """Whether using `move` now cannot change anything: a damaging move the target is immune to, an OHKO
    move against a faster target, DREAM EATER on a target that is awake or wakes first, a status move that
    cannot land
    or has nothing left to do, SPLASH, and the moves that end only wild battles."""
    if move.effect in NOTHING_EFFECTS:
        return True
    if not deals_damage(move):
        return pointless(move, user, target)
    if move.effect == "DREAM_EATER_EFFECT" and not _asleep_when_hit(user, target):
        return True
    if move.effect == OHKO and user.battle[SPEED] < target.battle[SPEED]:
        return True
    return immune(move, target)


def futile_item(item: str, user: Fighter, target: Fighter) -> bool:
    """Whether a battle item cannot help any move `user` has PP for against `target`: X ATTACK without
    a physical move that does damage by its attack stat (NIGHT SHADE and the like do not; a Normal move
    into a Ghost does nothing), X SPECIAL likewise for special moves, either at the most stages, and X
    ACCURACY when every such move is sure to hit already. Such an item is a turn passed: against
    AGATHA's GENGAR a confused BLASTOISE with ICE BEAM and SURF was judged better off "using" X ATTACK
    (no self-hit this turn) four times, while NIGHT SHADE and TOXIC wore it down."""
    moves = [move_of(user, slot) for slot, pp in enumerate(user.pp) if pp > 0]
    hitting = [m for m in moves if deals_damage(m) and m.effect not in SET_DAMAGE_EFFECTS
               and not futile(m, user, target)]  # fmt: skip
    if not moves:
        return False  # STRUGGLE: left to the search
    if item in ("X_ATTACK", "X_SPECIAL"):
        physical = item == "X_ATTACK"
        stat = ATTACK if physical else SPECIAL
        helped = any((m.type in PHYSICAL_TYPES) == physical for m in hitting)
        return user.stages[stat] >= MOST_STAGES or not helped
    if item == "X_ACCURACY":
        if user.x_accuracy or user.stages[ACCURACY] < 0 or target.stages[EVASION] > 0:
            return user.x_accuracy
        return all(m.accuracy >= SURE_ACCURACY and m.effect != OHKO for m in hitting)
    return False
