"""One Gen 1 turn for two sides: every way it can end, with its chance.

`resolve_turn(duel, ours, theirs)` returns (chance, duel after the turn) pairs that sum to 1. `detail` sets
how finely chances are split: damage rolls into that many groups, sleep and confusion lengths into that
many representatives; a large value keeps every case (the tests), a small one keeps the search fast.

Sources (pret/pokered engine/battle/core.asm): the turn order of MainInBattleLoop (switches and items
before moves, QUICK_ATTACK first and COUNTER last, then Speed with a coin flip on ties),
CheckPlayerStatusConditions (sleep, freeze, being trapped, flinch, recharge, confusion, paralysis, Bide,
a trapping move's later turns), ExecutePlayerMove/HandlePoisonBurnLeechSeed (residual damage after each
side's move), HandleSelfConfusionDamage, and the effect routines named in engine/combat/effects.py.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.combat import effects, enemy
from engine.combat.effects import Pair
from engine.combat.fighter import (
    ATTACK,
    FULL_HEAL_HP,
    REVIVES,
    SPEED,
    STRUGGLE_SLOT,
    Action,
    Attack,
    Duel,
    Fighter,
    Side,
    Switch,
    UseItem,
    fresh,
    move_of,
)
from engine.combat.hits import hit_chance, may_deal_damage, strike_outcomes
from engine.game.tables import Move

Branches = list[tuple[float, Duel]]
DEFAULT_DETAIL = 3
CHARGE_EFFECTS = frozenset({"CHARGE_EFFECT", "FLY_EFFECT"})


def resolve_turn(duel: Duel, ours: Action, theirs: Action, detail: int = DEFAULT_DETAIL) -> Branches:
    duel = _non_moves(_non_moves(duel, True, ours), False, theirs)
    out: dict[Duel, float] = {}
    for p, us_first in _order(duel, ours, theirs):
        first, second = (ours, theirs) if us_first else (theirs, ours)
        for q, after_first in _act(duel, us_first, first, detail):
            for r, after in _act(after_first, not us_first, second, detail):
                end = _end_of_turn(after)
                out[end] = out.get(end, 0.0) + p * q * r
    return [(p, d) for d, p in out.items()]


def enemy_answers(duel: Duel, ours: Action) -> list[tuple[float, Action]]:
    """The enemy's choices against our action. The game picks the enemy's move after our switch or item has
    happened (MainInBattleLoop calls SelectEnemyMove once DisplayBattleMenu has carried them out), so its
    AI sees the member that came in: a GEODUDE sent against STARYU meets WATER GUN, not the TACKLE meant
    for the CHARMELEON it replaced."""
    if isinstance(ours, Attack):
        return enemy.choices(duel)
    return enemy.choices(_non_moves(duel, True, ours))


def moves_first(duel: Duel, ours: Action, theirs: Action) -> float:
    """The chance that our move comes before theirs."""
    return sum(p for p, us_first in _order(duel, ours, theirs) if us_first)


# -- before the moves ----------------------------------------------------------------------------------
def _non_moves(duel: Duel, ours: bool, action: Action) -> Duel:
    side = duel.side(ours)
    if isinstance(action, Switch):
        leaving = side.fighter
        # Status stays with the member; toxic turns back into plain poison (the rest is battle-only).
        kept = leaving._replace(toxic=0, sleep_turns=leaving.sleep_turns)
        members = (*side.members[: side.active], kept, *side.members[side.active + 1 :])
        coming = fresh(members[action.member], side.badges)
        members = (*members[: action.member], coming, *members[action.member + 1 :])
        duel = duel.with_side(ours, side._replace(members=members, active=action.member, turns_out=0))
        foe = duel.side(not ours)
        return duel.with_side(not ours, foe.with_fighter(foe.fighter._replace(trapping=0)))
    if isinstance(action, UseItem) and action.item in effects.STAT_ITEMS:
        foe_side = duel.side(not ours)
        user, target = effects.stat_item(side.fighter, foe_side.fighter, action.item, side.badges)
        duel = duel.with_side(ours, side.with_fighter(user)._replace(ai_uses=max(0, side.ai_uses - 1)))
        return duel.with_side(not ours, foe_side.with_fighter(target))
    if isinstance(action, UseItem):
        return duel.with_side(ours, _use_item(side, action))
    return duel


def member_after_item(side: Side, item: UseItem) -> Fighter:
    """The member a healing or PP item is used on, as the item leaves it."""
    return _use_item(side, item).members[item.member]


def _use_item(side: Side, item: UseItem) -> Side:
    member = side.members[item.member]
    if item.item in REVIVES:
        if not member.fainted:
            return side
        revived = member._replace(hp=max(1, member.max_hp // REVIVES[item.item]), status="OK", sleep_turns=0)
        members = (*side.members[: item.member], revived, *side.members[item.member + 1 :])
        return side._replace(members=members)
    if item.item in PP_ITEMS:
        restored = member._replace(pp=_restored_pp(member, item))
        return side._replace(
            members=(*side.members[: item.member], restored, *side.members[item.member + 1 :])
        )
    healed = member.max_hp if item.heal is None else min(member.max_hp, member.hp + item.heal)
    cured = member.status in item.cures
    member = member._replace(
        hp=healed,
        status="OK" if cured else member.status,
        sleep_turns=0 if cured else member.sleep_turns,
    )
    members = (*side.members[: item.member], member, *side.members[item.member + 1 :])
    return side._replace(members=members, ai_uses=max(0, side.ai_uses - 1), heals=_spent(side.heals, item))


# ItemUsePPRestore: (PP added, None for all of them; whether every move gets them).
PP_ITEMS = {
    "ETHER": (10, False),
    "MAX_ETHER": (None, False),
    "ELIXER": (10, True),
    "MAX_ELIXER": (None, True),
}


def _restored_pp(member: Fighter, item: UseItem) -> tuple[int, ...]:
    amount, every = PP_ITEMS[item.item]
    return tuple(
        (member.top_pp(slot) if amount is None else min(member.top_pp(slot), pp + amount))
        if every or slot == item.move
        else pp
        for slot, pp in enumerate(member.pp)
    )


def _spent(heals: tuple[int, ...], item: UseItem) -> tuple[int, ...]:
    amount = FULL_HEAL_HP if item.heal is None else item.heal
    if amount not in heals:
        return heals
    at = heals.index(amount)
    return heals[:at] + heals[at + 1 :]


def _order(duel: Duel, ours: Action, theirs: Action) -> list[tuple[float, bool]]:
    if not isinstance(ours, Attack):
        return [(1.0, False)]  # our turn went on the switch or the item
    if not isinstance(theirs, Attack):
        return [(1.0, True)]
    mine = _priority(move_of(duel.us.fighter, ours.slot))
    yours = _priority(move_of(duel.them.fighter, theirs.slot))
    if mine != yours:
        return [(1.0, mine > yours)]
    speed, enemy_speed = duel.us.fighter.battle[SPEED], duel.them.fighter.battle[SPEED]
    if speed == enemy_speed:
        return [(0.5, True), (0.5, False)]
    return [(1.0, speed > enemy_speed)]


def _priority(move: Move) -> int:
    return {"QUICK_ATTACK": 1, "COUNTER": -1}.get(move.name, 0)


def _end_of_turn(duel: Duel) -> Duel:
    # Built field by field: every branch of every turn the search plays ends here.
    us, them = duel.us, duel.them
    if us.fighter.flinched:
        us = us.with_fighter(us.fighter._replace(flinched=False))
    if them.fighter.flinched:
        them = them.with_fighter(them.fighter._replace(flinched=False))
    return tuple.__new__(Duel, (us.with_turns_out(us.turns_out + 1), them.with_turns_out(them.turns_out + 1),
                                duel.wild))  # fmt: skip


# -- one side's move -----------------------------------------------------------------------------------
def _act(duel: Duel, ours: bool, action: Action, detail: int) -> Branches:
    me, foe = duel.side(ours).fighter, duel.side(not ours).fighter
    if me.fainted or foe.fainted or not isinstance(action, Attack):
        return [(1.0, duel)]
    slot = effects.locked_slot(me)
    slot = action.slot if slot is None else slot
    acted = [(p, _pair_to_duel(duel, ours, pair)) for p, pair in _conditions(duel, ours, slot, detail)]
    return [(p * q, d) for p, after in acted for q, d in _residual(after, ours)]


def _pair_to_duel(duel: Duel, ours: bool, pair: Pair) -> Duel:
    me, foe = pair
    duel = duel.with_side(ours, duel.side(ours).with_fighter(me))
    return duel.with_side(not ours, duel.side(not ours).with_fighter(foe))


def _conditions(duel: Duel, ours: bool, slot: int, detail: int) -> list[tuple[float, Pair]]:
    """CheckPlayerStatusConditions: what stops or changes a move before it is used."""
    me, foe = duel.side(ours).fighter, duel.side(not ours).fighter
    if me.status == "SLP":
        left = me.sleep_turns - 1  # waking up takes the whole turn
        woke = me._replace(status="OK", sleep_turns=0) if left <= 0 else me._replace(sleep_turns=left)
        return [(1.0, (woke, foe))]
    if me.status == "FRZ" or foe.trapping > 0:
        return [(1.0, (me, foe))]
    if me.flinched or me.recharging:
        return [(1.0, (me._replace(flinched=False, recharging=False), foe))]
    if me.confused:
        left = me.confused - 1
        if left == 0:
            return _paralysis(duel, ours, me._replace(confused=0), foe, slot, detail)
        me = me._replace(confused=left)
        hurt = (_halted(me).hurt(effects.self_hit(me)), foe)
        rest = _paralysis(duel, ours, me, foe, slot, detail)
        hit = effects.CONFUSION_SELF_HIT
        return [(hit, hurt)] + [(p * (1 - hit), pair) for p, pair in rest]
    return _paralysis(duel, ours, me, foe, slot, detail)


def _paralysis(
    duel: Duel, ours: bool, me: Fighter, foe: Fighter, slot: int, detail: int
) -> list[tuple[float, Pair]]:
    if me.status != "PAR":
        return _special_turns(duel, ours, me, foe, slot, detail)
    stopped = effects.FULL_PARALYSIS
    rest = _special_turns(duel, ours, me, foe, slot, detail)
    return [(stopped, (_halted(me), foe))] + [(p * (1 - stopped), pair) for p, pair in rest]


def _halted(me: Fighter) -> Fighter:
    """Hurt in its confusion or fully paralysed: a charge, Bide, THRASH and its own trapping move end
    there (CheckPlayerStatusConditions clears their bits)."""
    if me.charging < 0 and not me.bide and not me.thrashing and not me.trapping:
        return me
    return me._replace(charging=-1, bide=0, bide_damage=0, thrashing=0, trapping=0)


def _special_turns(
    duel: Duel, ours: bool, me: Fighter, foe: Fighter, slot: int, detail: int
) -> list[tuple[float, Pair]]:
    """Bide's storing turns and release, a trapping move's later turns."""
    if me.bide > 0:
        if me.bide > 1:
            return [(1.0, (me._replace(bide=me.bide - 1), foe))]
        released = foe.hurt(2 * me.bide_damage)
        return [(1.0, (me._replace(bide=0, bide_damage=0), released))]
    if me.trapping > 0:
        return [(1.0, (me._replace(trapping=me.trapping - 1), foe.hurt(me.trap_damage)))]
    return _use_move(duel, ours, me, foe, slot, detail)


def _use_move(
    duel: Duel, ours: bool, me: Fighter, foe: Fighter, slot: int, detail: int
) -> list[tuple[float, Pair]]:
    move = move_of(me, slot)
    if slot != STRUGGLE_SLOT and me.charging != slot and not me.thrashing and not me.raging:
        if ours:  # only the player's PP go down: the game never calls DecrementPP for the enemy
            me = me._replace(pp=(*me.pp[:slot], max(0, me.pp[slot] - 1), *me.pp[slot + 1 :]))
        if move.effect in CHARGE_EFFECTS:
            return [(1.0, (me._replace(charging=slot), foe))]  # the charging turn
    if me.charging >= 0:
        me = me._replace(charging=-1)
    if effects.invulnerable(foe) and move.effect != "SWIFT_EFFECT" and not _aimed_at_self(move):
        return [(1.0, _missed(me, foe, move))]  # in the air or underground: MoveHitTest misses
    starts = _lock_in(me, move, detail)
    foe_badges = duel.side(not ours).badges
    if may_deal_damage(move):
        return [
            (p * q, pair)
            for p, user in starts
            for q, pair in _damaging(user, foe, move, detail, me.scale(slot), foe_badges)
        ]
    return [
        (p * q, pair) for p, user in starts for q, pair in _status_move(duel, ours, user, foe, move, detail)
    ]


def _aimed_at_self(move: Move) -> bool:
    return move.effect in effects.STAT_UP or move.effect in _SELF or move.effect in _SELF_MOVES


def _lock_in(me: Fighter, move: Move, detail: int) -> list[tuple[float, Fighter]]:
    """THRASH and PETAL DANCE go on for 2 or 3 more uses, confusion after the last (pret ThrashPetalDance-
    Effect, CheckPlayerStatusConditions); RAGE for the rest of the member's battle."""
    if me.thrashing:
        left = me.thrashing - 1
        if left:
            return [(1.0, me._replace(thrashing=left))]
        return [(p, dizzy._replace(thrashing=0)) for p, dizzy in effects.confuse(me, detail)]
    if move.effect == "THRASH_PETAL_DANCE_EFFECT":
        return [(p, me._replace(thrashing=uses)) for p, uses in effects.spread(effects.THRASH_USES, detail)]
    if move.effect == "RAGE_EFFECT" and not me.raging:
        return [(1.0, me._replace(raging=True))]
    return [(1.0, me)]


def _damaging(
    me: Fighter, foe: Fighter, move: Move, detail: int, scale: float, foe_badges: frozenset[str]
) -> list[tuple[float, Pair]]:
    if move.effect == "DREAM_EATER_EFFECT" and foe.status != "SLP":
        return [(1.0, (me, foe))]
    hit = hit_chance(move, me, foe)
    missed = _missed(me, foe, move)
    out = [(1 - hit, missed)] if hit < 1 else []
    for p, damage in strike_outcomes(move, me, foe, detail, scale):
        if damage == 0:  # immune: the game treats it as a miss
            out.append((hit * p, missed))
            continue
        out += [(hit * p * q, pair) for q, pair in _after_hit(me, foe, move, damage, detail)]
    if foe.raging:
        out = [(p, _rage_builds(pair, foe, foe_badges)) for p, pair in out]
    return out


def _rage_builds(pair: Pair, before: Fighter, badges: frozenset[str]) -> Pair:
    """HandleBuildingRage: a raging target that was hit and stands raises its Attack a stage."""
    me, foe = pair
    if foe.fainted or foe.hp >= before.hp:
        return pair
    raised, me = effects.raise_stat(foe, me, ATTACK, 1, badges)
    return me, raised


def _missed(me: Fighter, foe: Fighter, move: Move) -> Pair:
    if move.effect == "EXPLODE_EFFECT":
        return me.hurt(me.hp), foe
    if move.effect == "JUMP_KICK_EFFECT":
        return me.hurt(1), foe  # the crash does 1 HP in Gen 1
    return me, foe


def _after_hit(me: Fighter, foe: Fighter, move: Move, damage: int, detail: int) -> list[tuple[float, Pair]]:
    dealt = min(damage, foe.hp)
    foe = foe.hurt(dealt)
    if foe.bide:
        foe = foe._replace(bide_damage=foe.bide_damage + dealt)
    me = _user_after_hit(me, foe, move, dealt)
    if move.effect == "TRAPPING_EFFECT" and not foe.fainted:
        return [
            (p, (me._replace(trapping=turns - 1, trap_damage=dealt), foe)) for turns, p in effects.TRAP_TURNS
        ]
    if foe.fainted:
        return [(1.0, (me, foe))]
    return _side_effects(me, foe, move, detail)


def _user_after_hit(me: Fighter, foe: Fighter, move: Move, dealt: int) -> Fighter:
    if move.effect in ("DRAIN_HP_EFFECT", "DREAM_EATER_EFFECT"):
        return me.healed(max(1, dealt // 2))
    if move.effect == "RECOIL_EFFECT":
        return me.hurt(max(1, dealt // (2 if move.name == "STRUGGLE" else 4)))
    if move.effect == "EXPLODE_EFFECT":
        return me.hurt(me.hp)
    if move.effect == "HYPER_BEAM_EFFECT" and not foe.fainted:
        return me._replace(recharging=True)
    return me


def _side_effects(me: Fighter, foe: Fighter, move: Move, detail: int) -> list[tuple[float, Pair]]:
    effect = move.effect
    if effect in effects.STATUS_SIDE:
        status, p = effects.STATUS_SIDE[effect]
        if not effects.can_take_status(foe, status, move):
            return [(1.0, (me, foe))]
        return [(1 - p, (me, foe))] + [(p * q, (me, f)) for q, f in effects.inflict(foe, status, detail)]
    if effect in effects.FLINCH_SIDE:
        p = effects.FLINCH_SIDE[effect]
        return [(1 - p, (me, foe)), (p, (me, foe._replace(flinched=True)))]
    if effect == "CONFUSION_SIDE_EFFECT" and not foe.confused:
        p = effects.CONFUSION_SIDE_CHANCE
        return [(1 - p, (me, foe))] + [(p * q, (me, f)) for q, f in effects.confuse(foe, detail)]
    if effect in effects.STAT_DOWN_SIDE:
        p = effects.SIDE_STAT_CHANCE
        lowered = effects.lower_stat(foe, effects.STAT_DOWN_SIDE[effect], 1, frozenset())
        return [(1 - p, (me, foe)), (p, (me, lowered))]
    return [(1.0, (me, foe))]


def _status_move(
    duel: Duel, ours: bool, me: Fighter, foe: Fighter, move: Move, detail: int
) -> list[tuple[float, Pair]]:
    effect = move.effect
    badges, foe_badges = duel.side(ours).badges, duel.side(not ours).badges
    if effect in effects.STAT_UP:
        stat, by = effects.STAT_UP[effect]
        return [(1.0, effects.raise_stat(me, foe, stat, by, badges))]
    hit = hit_chance(move, me, foe)
    if effect in effects.STAT_DOWN and not ours:
        hit *= 1 - effects.COMPUTER_STAT_DOWN_MISS
    if effect == "SLEEP_EFFECT" and foe.recharging:
        hit = 1.0  # SleepEffect skips every test on a target that must recharge
    landed = _landed(me, foe, move, effect, foe_badges, detail)
    if effect == "MIMIC_EFFECT":
        landed = [(p, (copy, foe)) for p, copy in effects.mimicked(me, foe, move, ours)]
    if landed is None:
        return [(1.0, _self_effect(me, foe, move))]
    return [(1 - hit, (me, foe))] + [(hit * p, pair) for p, pair in landed] if hit < 1 else landed


def _landed(
    me: Fighter, foe: Fighter, move: Move, effect: str, foe_badges: frozenset[str], detail: int
) -> list[tuple[float, Pair]] | None:
    """A status move that has to hit the target, once it hits; None for moves aimed at the user."""
    if effect in effects.STAT_DOWN:
        stat, by = effects.STAT_DOWN[effect]
        return [(1.0, (me, effects.lower_stat(foe, stat, by, foe_badges)))]
    status = effects.status_of_move(move)
    if status is not None:
        if not effects.can_take_status(foe, status, move):
            return [(1.0, (me, foe))]
        if status == "SLP" and foe.recharging:
            foe = foe._replace(recharging=False, status="OK", sleep_turns=0, toxic=0)
        return [(p, (me, f)) for p, f in effects.inflict(foe, status, detail)]
    if effect == "CONFUSION_EFFECT":
        return [(p, (me, f)) for p, f in effects.confuse(foe, detail)]
    if effect == "LEECH_SEED_EFFECT":
        seeded = foe.seeded or "GRASS" in foe.types
        return [(1.0, (me, foe if seeded else foe._replace(seeded=True)))]
    return None


_SELF: dict[str, Callable[[Fighter], Fighter]] = {
    "REFLECT_EFFECT": lambda me: me._replace(reflect=True),
    "LIGHT_SCREEN_EFFECT": lambda me: me._replace(light_screen=True),
    "FOCUS_ENERGY_EFFECT": lambda me: me._replace(focus_energy=True),
    "MIST_EFFECT": lambda me: me._replace(mist=True),
}


_SELF_MOVES = frozenset({"BIDE_EFFECT", "HEAL_EFFECT", "HAZE_EFFECT", "TRANSFORM_EFFECT", "SPLASH_EFFECT"})


def _self_effect(me: Fighter, foe: Fighter, move: Move) -> Pair:
    effect = move.effect
    if effect in _SELF:
        return _SELF[effect](me), foe
    if effect == "TRANSFORM_EFFECT":
        return effects.transform(me, foe), foe
    if effect == "BIDE_EFFECT":
        # Two or three turns (a coin flip in the game); the search takes the mean as 2.
        return me._replace(bide=2, bide_damage=0), foe
    if effect == "HEAL_EFFECT":
        if move.name == "REST":
            return me._replace(hp=me.max_hp, status="SLP", sleep_turns=2), foe
        return me.healed(me.max_hp // 2), foe
    if effect == "HAZE_EFFECT":
        return effects.reset_stages(me), effects.reset_stages(foe)
    return me, foe  # SPLASH, and moves the model does not follow (DISABLE, SUBSTITUTE, CONVERSION, …)


# -- after a move --------------------------------------------------------------------------------------
def _residual(duel: Duel, ours: bool) -> Branches:
    """HandlePoisonBurnLeechSeed: after a side's move, 1/16 of its max HP (times the toxic counter) for
    poison or burn, then the same for Leech Seed, which the other side drinks."""
    side = duel.side(ours)
    me = side.fighter
    if me.fainted or (me.status not in ("PSN", "BRN") and not me.seeded):
        return [(1.0, duel)]
    tick = max(1, me.max_hp // 16)
    toxic = me.toxic
    if me.status in ("PSN", "BRN"):
        me = me.hurt(tick * toxic if toxic else tick)
        toxic = toxic + 1 if toxic else 0
    foe_side = duel.side(not ours)
    foe = foe_side.fighter
    if me.seeded and not me.fainted:
        drained = min(me.hp, tick * toxic if toxic else tick)
        me = me.hurt(drained)
        foe = foe if foe.fainted else foe.healed(drained)
    duel = duel.with_side(ours, side.with_fighter(me._replace(toxic=toxic)))
    return [(1.0, duel.with_side(not ours, foe_side.with_fighter(foe)))]
