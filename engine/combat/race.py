"""How likely our active member is to beat the enemy's in front of it: the duel race.

Two members facing each other race to knock the other out. Each turn a side deals damage with a chance of
acting at all (paralysis, confusion), after the turns it loses outright (sleep, recharging, being
wrapped); poison, burn and Leech Seed add a fixed drain. The damage after t turns is taken as normal
with the summed mean and variance of the per-turn damage, which gives the chance that each side has
knocked the other out by turn t, and so the chance of winning the duel (the side that moves first wins a
tie). engine/combat/judge.py chains duels into a whole battle.
"""

from __future__ import annotations

import itertools
import math
from bisect import bisect_left, bisect_right
from functools import lru_cache
from typing import NamedTuple, TypeVar

from engine.combat import enemy
from engine.combat.effects import (
    COMPUTER_STAT_DOWN_MISS,
    CONFUSION_SELF_HIT,
    FULL_PARALYSIS,
    STAT_DOWN,
    STAT_UP,
    can_take_status,
    inflict,
    lower_stat,
    raise_stat,
    status_of_move,
)
from engine.combat.fighter import (
    ACCURACY,
    ATTACK,
    DEFENSE,
    EVASION,
    SPECIAL,
    SPEED,
    STRUGGLE_SLOT,
    Action,
    Attack,
    Duel,
    Fighter,
    move_of,
    moves_of,
)
from engine.combat.hits import deals_damage, hit_chance, strike_outcomes
from engine.combat.memo import keep
from engine.combat.wear import worn
from engine.game.tables import Move

_SURE = 1 - 1e-6
_NO_SPREAD = 1e-9  # a variance this small is a certainty
_CLEAR_WIN = 0.99  # no setup plan is looked for beyond this
_PLAN_MARGIN = 0.01  # a setup plan must win this much more often than attacking at once
MAX_SETUP = 3
MAX_HEALS_COUNTED = 3
_ASLEEP_TURNS = 4.0
_TRAPPED_TURNS = 2.1
_CONFUSED_TURNS = 2.5
_MOST_LOST = 0.9
HORIZON = 60  # turns looked at; a duel undecided by then goes by the expected knock-outs (_beyond_horizon)
_DETAIL = 4  # damage groups per roll when sizing up a move
_ROLLS_EXACT = 39  # every damage roll (217..255 of 255) on its own: whether one hit knocks out
_NOT_THIS_TURN = frozenset({"CHARGE_EFFECT", "FLY_EFFECT"})  # the first turn only winds up


class Pace(NamedTuple):
    """How hard a side hits per turn and how long before it starts."""

    mean: float  # expected damage per turn it acts
    variance: float
    acts: float  # chance it acts in a turn
    lost: float  # turns lost before it acts at all
    slot: int  # the move that gives this pace (-1: none)
    now: float = 0.0  # the chance its move this turn knocks our member out (worked out only for a bag)


class DuelOdds(NamedTuple):
    win: float
    turns_to_ko: float  # our expected turns to knock the enemy out (inf when we cannot)
    our_hp_left: int  # expected, when we win
    their_hp_left: int  # expected, when they win
    plan: str = ""  # what we do in the race, e.g. "TAIL_WHIP ×2, then TACKLE"
    heals_used: int = 0  # healing items the race counted on (spent for the duels after it)


_Kept = TypeVar("_Kept")
_PACES: dict[tuple[object, ...], tuple[float, float]] = {}
_PACES_KEPT = 1 << 13  # paces and enemy choices remembered, each (~0.4 and ~0.7 KB an entry)
_TAILS: dict[tuple[object, ...], tuple[tuple[int, ...], tuple[float, ...]]] = {}  # as many, ~1 KB each


def move_pace(user: Fighter, target: Fighter, slot: int) -> tuple[float, float]:
    """(mean, variance) of one use's damage; not capped at the target's HP (the race does that).
    Remembered by everything it depends on except HP, which the search's branches mostly differ in."""
    move = move_of(user, slot)
    if not deals_damage(move):
        return 0.0, 0.0
    key = _strike_key(move, user, target, slot)
    found = _PACES.get(key)
    if found is None:
        found = _remember(_PACES, key, _pace_of(move, user, target, user.scale(slot)))
    return found


def _remember(memo: dict[tuple[object, ...], _Kept], key: tuple[object, ...], value: _Kept) -> _Kept:
    """Keep `value` under `key`, at most _PACES_KEPT entries (engine/combat/memo.py)."""
    return keep(memo, key, value, _PACES_KEPT)


def _strike_key(move: Move, user: Fighter, target: Fighter, slot: int) -> tuple[object, ...]:
    """Everything one use's damage depends on, the target's HP only where the damage does."""
    hp = target.hp if move.effect in ("SUPER_FANG_EFFECT", "OHKO_EFFECT") else 0
    return (
        move.id, hp, user.scale(slot), user.level, user.battle, user.stats, user.types, user.base_speed,
        user.focus_energy, user.stages, target.battle, target.stats, target.types, target.stages,
        target.reflect, target.light_screen,
    )  # fmt: skip


def _knock_out_chance(user: Fighter, target: Fighter, slot: int) -> float:
    """The chance that one use of the move knocks the target out from the HP it has: the move's damages,
    largest first with the chance of at least each, are remembered; the HP picks the place."""
    move = move_of(user, slot)
    key = _strike_key(move, user, target, slot)
    found = _TAILS.get(key)
    if found is None:
        found = _remember(_TAILS, key, _tail_of(move, user, target, user.scale(slot)))
    damages, at_least = found
    reached = bisect_right(damages, -target.hp)  # damages are stored negated: largest first, ascending
    return at_least[reached - 1] if reached else 0.0


def _tail_of(
    move: Move, user: Fighter, target: Fighter, scale: float
) -> tuple[tuple[int, ...], tuple[float, ...]]:
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
    if move.effect in ("CHARGE_EFFECT", "FLY_EFFECT", "HYPER_BEAM_EFFECT"):
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
    acts, lost = _stopped(user, target)
    slots = [i for i, pp in enumerate(user.pp) if pp > 0] or [-1]
    paces = [(move_pace(user, target, s), s) for s in slots]
    (mean, variance), slot = max(paces, key=lambda item: item[0][0])
    if slot >= 0 and user.pp[slot] * mean < target.hp:
        if mean > 0:
            mean, variance = _rationed(user, target, paces, mean, variance)
        elif (struggle := move_pace(user, target, STRUGGLE_SLOT))[0] > 0:
            # Nothing but status moves: their PP first, then STRUGGLE.
            mean, variance = _rationed(user, target, paces, *struggle)
    return Pace(mean=mean, variance=variance, acts=acts, lost=lost, slot=slot)


def _rationed(
    user: Fighter, target: Fighter, paces: list[tuple[tuple[float, float], int]], mean: float, variance: float
) -> tuple[float, float]:
    """A pace for a best move whose PP runs out before the target is down: the moves are used best first,
    each while its PP lasts; then the moves that deal nothing use theirs up, and only then comes STRUGGLE
    (the game offers it only once every move is out of PP). The mean is the target's HP over those turns,
    so a member with one VINE WHIP left and three status moves is seen to stall, not to win."""
    left, turns = float(target.hp), 0.0
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
    rationed = target.hp / turns
    return rationed, variance * (rationed / mean) ** 2


def enemy_pace(duel: Duel, answers: list[tuple[float, Action]] | None = None) -> Pace:
    """Their side: the damage of their move choice, mixed over its chances. A trapping move (WRAP, BIND,
    FIRE SPIN, CLAMP) chosen once hits on for about _TRAPPED_TURNS more turns, so it weighs that much more
    in the mix of turns (a WRAP user picking WRAP half the time hits most turns)."""
    me, foe = duel.them.fighter, duel.us.fighter
    acts, lost = _stopped(me, foe)
    mean = second = turns = 0.0
    for p, action in enemy.choices(duel) if answers is None else answers:
        weight = p
        if isinstance(action, Attack):
            if action.slot >= 0 and move_of(me, action.slot).effect == "TRAPPING_EFFECT":
                weight = p * (1 + _TRAPPED_TURNS)
            m, v = move_pace(me, foe, action.slot)
            mean += weight * m
            second += weight * (v + m * m)
        turns += weight
    if turns > 0:
        mean, second = mean / turns, second / turns
    return Pace(mean=mean, variance=max(0.0, second - mean * mean), acts=acts, lost=lost, slot=-1)


def _healing(heals: tuple[int, ...], me: Fighter, theirs: Pace) -> int:
    """HP our healing items add to the race: each gives back what it heals (at most the member's max HP)
    less the hit taken while using it. Up to MAX_HEALS_COUNTED of them, the largest first."""
    hit = theirs.acts * theirs.mean
    return round(sum(max(0.0, min(h, me.max_hp) - hit) for h in heals[:MAX_HEALS_COUNTED]))


def _struck_down_now(me: Fighter, foe: Fighter, answers: list[tuple[float, Action]], theirs: Pace) -> float:
    """The chance that the enemy's move this turn knocks out our member at the HP it has: summed over the
    damage rolls of each answer, since one hit is a lumpy thing the race's normal curve fits badly (a
    HYPER_BEAM among weak moves)."""
    if theirs.lost >= 1:
        return 0.0
    down = 0.0
    for p, action in answers:
        if not isinstance(action, Attack) or action.slot < 0:
            continue
        move = move_of(foe, action.slot)
        if not deals_damage(move) or move.effect in _NOT_THIS_TURN:
            continue
        down += p * _knock_out_chance(foe, me, action.slot)
    return min(1.0, theirs.acts * down)


def _drain(fighter: Fighter) -> float:
    tick = max(1, fighter.max_hp // 16)
    per_turn = 0.0
    if fighter.status in ("PSN", "BRN"):
        per_turn += tick * (fighter.toxic + 2) if fighter.toxic else tick  # toxic grows: a rough mean
    return per_turn + (tick if fighter.seeded else 0)


@lru_cache(maxsize=1 << 12)  # a curve is 60 floats (~2 KB): a few decisions of them
def _ko_by(pace: Pace, hp: int, drain: float, extra: float, extra_at: int = 1) -> tuple[float, ...]:
    """Chance that a target with `hp` is down after each of turns 1..HORIZON; `extra` damage lands in
    turn `extra_at` (a Bide's release comes when its storing turns are over, not at once)."""
    if hp <= 0:
        return (1.0,) * HORIZON
    per_mean = pace.acts * pace.mean
    per_var = pace.acts * (pace.variance + pace.mean**2) - per_mean**2
    out: list[float] = []
    for t in range(1, HORIZON + 1):
        acting = t - pace.lost if t > pace.lost else 0.0
        need = hp - 0.5 - (extra if t >= extra_at else 0.0)
        gap = need - acting * per_mean - t * drain
        var = acting * per_var
        p = (1.0 if gap < 0 else 0.0) if var <= _NO_SPREAD else 0.5 * math.erfc(gap / math.sqrt(2 * var))
        out.append(p)
        if p > _SURE:
            return (*out, *([1.0] * (HORIZON - t)))
    return tuple(out)


def race_key(duel: Duel, ours: Fighter | None = None) -> tuple[object, ...]:
    """Everything `duel_odds` reads: the two members in front and a few facts of their sides, not the
    benches. Positions of one search that differ only behind the lines race alike (a third of them).
    `ours`: the member that would be in front instead (a member being sent out)."""
    us, them = duel.us, duel.them
    behind = len(them.able()) if us.heals and not duel.wild else 0  # _heal_share's divisor
    return (us.fighter if ours is None else ours, them.fighter, us.badges, them.badges, us.heals, behind,
            them.trainer_class, them.turns_out == 1, them.ai_uses > 0, duel.wild)  # fmt: skip


def duel_odds(duel: Duel, status_plans: bool = False) -> DuelOdds:
    """The active members' race: attacking now, or after one to three uses of a stat move first, and
    (with `status_plans`) after seeding, paralysing, poisoning or putting the enemy to sleep first, alone
    or followed by stat moves; whichever wins most often."""
    me, foe = duel.us.fighter, duel.them.fighter
    if foe.fainted:
        return DuelOdds(win=1.0, turns_to_ko=0.0, our_hp_left=me.hp, their_hp_left=0)
    if me.fainted:
        return DuelOdds(win=0.0, turns_to_ko=math.inf, our_hp_left=0, their_hp_left=foe.hp)
    best = _race(duel, 0.0, "")
    if best.win > _CLEAR_WIN:
        return best
    starts: list[Start] = [(duel, 0.0, "", (1.0, 1.0))]
    if status_plans:
        starts += [start for move in _status_moves(me) if (start := _status_start(duel, move)) is not None]
    for number, start in enumerate(starts):
        # The first start is the plain race, raced above already.
        for odds in [best if number == 0 else _race(*start)] + [
            plan for move in _status_moves(me) for plan in _setup_plans(start, move, status_plans)
        ]:
            if odds.win > best.win + _PLAN_MARGIN:
                best = odds
    return best


Start = tuple[Duel, float, str, "Shares"]  # a position, the turns spent reaching it, its plan, turn shares


def _status_moves(me: Fighter) -> list[Move]:
    return [move for slot, move in enumerate(moves_of(me)) if move.power == 0 and me.pp[slot] > 0]


def _setup_plans(start: Start, move: Move, evasive: bool = False) -> list[DuelOdds]:
    """With `evasive` (a forecast's race), SAND-ATTACK's kind and DOUBLE TEAM's count as setup too: a
    PIDGEOTTO that lowers STARMIE's accuracy three times beats it, which the search finds a turn at a time,
    but a forecast that never tries it calls MISTY against a wrong-type team lost. The search leaves them
    out of its races (they would double its work) and weighs them at its root instead."""
    duel, delay, before, shares = start
    if not (_is_setup(move) or (evasive and _is_evasive(move))):
        return []
    hit = hit_chance(move, duel.us.fighter, duel.them.fighter)
    plans: list[DuelOdds] = []
    prepared = duel
    for uses in range(1, MAX_SETUP + 1):
        prepared = _after_setup(prepared, move)
        plan = f"{before}, {move.name} ×{uses}" if before else f"{move.name} ×{uses}"
        odds = _race(prepared, delay + uses / hit, plan, shares)
        if plans and odds.win <= plans[-1].win:
            break  # one more use no longer pays for its turn
        plans.append(odds)
    return plans


def _status_start(duel: Duel, move: Move) -> Start | None:
    """Seeding, paralysis and poison once, after which the race counts their effect; sleep as a cycle
    (put it to sleep, attack while it sleeps, again when it wakes)."""
    me, foe = duel.us.fighter, duel.them.fighter
    hit = hit_chance(move, me, foe)
    if move.effect == "LEECH_SEED_EFFECT" and not foe.seeded and "GRASS" not in foe.types:
        return (
            duel._replace(them=duel.them.with_fighter(foe._replace(seeded=True))),
            1 / hit,
            move.name,
            (1.0, 1.0),
        )
    status = status_of_move(move)
    if status is None or not can_take_status(foe, status, move):
        return None
    if status == "SLP":
        cycle = 1 / hit + _ASLEEP_TURNS
        return duel, 0.0, f"{move.name} when awake", (_ASLEEP_TURNS / cycle, 1 / hit / cycle)
    afflicted = inflict(foe, status, 1)[0][1]
    return duel._replace(them=duel.them.with_fighter(afflicted)), 1 / hit, move.name, (1.0, 1.0)


def _is_evasive(move: Move) -> bool:
    if move.effect in STAT_UP:
        return STAT_UP[move.effect][0] == EVASION
    return move.effect in STAT_DOWN and STAT_DOWN[move.effect][0] == ACCURACY


def _is_setup(move: Move) -> bool:
    if move.effect in STAT_UP:
        return STAT_UP[move.effect][0] in (ATTACK, DEFENSE, SPECIAL)
    return move.effect in STAT_DOWN and STAT_DOWN[move.effect][0] in (ATTACK, DEFENSE, SPECIAL)


def _after_setup(duel: Duel, move: Move) -> Duel:
    me, foe = duel.us.fighter, duel.them.fighter
    if move.effect in STAT_UP:
        stat, by = STAT_UP[move.effect]
        me, foe = raise_stat(me, foe, stat, by, duel.us.badges)
    else:
        stat, by = STAT_DOWN[move.effect]
        foe = lower_stat(foe, stat, by, duel.them.badges)
    return duel._replace(us=duel.us.with_fighter(me), them=duel.them.with_fighter(foe))


Shares = tuple[float, float]  # the share of turns each side (us, them) gets to act on top of the rest


def _race(duel: Duel, delay: float, plan: str, shares: Shares = (1.0, 1.0)) -> DuelOdds:
    answers = _choices(duel)
    pace = best_pace(duel.us.fighter, duel.them.fighter)
    rate = pace.acts * pace.mean * shares[0]
    turns = delay + pace.lost + (duel.them.fighter.hp / rate if rate > 0 else HORIZON)
    worn = _worn(duel, turns, answers)
    if worn is duel:
        return _race_once(duel, delay, plan, shares, answers, pace)
    return _race_once(worn, delay, plan, shares, _choices(worn))


_CHOICES: dict[tuple[object, ...], list[tuple[float, Action]]] = {}


def _choices(duel: Duel) -> list[tuple[float, Action]]:
    """The enemy's choices over the duel: as enemy.choices, but past a move it is locked into (Bide's
    storing turns, a trapping move's, a recharge), which the race counts as turns lost. Remembered by
    everything they depend on: the race asks for the same ones many times."""
    foe = duel.them.fighter
    if foe.bide or foe.trapping or foe.recharging:
        free = foe._replace(bide=0, trapping=0, recharging=False)
        duel = duel._replace(them=duel.them.with_fighter(free))
    me, foe = duel.us.fighter, duel.them.fighter
    them = duel.them
    key = (
        foe.moves, tuple(pp > 0 for pp in foe.pp), foe.charging, foe.bide, foe.trapping, foe.recharging,
        foe.status, foe.hp * 20 // max(1, foe.max_hp), me.status, me.types, them.trainer_class,
        them.turns_out == 1, them.ai_uses > 0, duel.wild,
    )  # fmt: skip
    found = _CHOICES.get(key)
    if found is None:
        found = keep(_CHOICES, key, enemy.choices(duel), _PACES_KEPT)
    return found


def _worn(duel: Duel, turns: float, answers: list[tuple[float, Action]]) -> Duel:
    """Both members as the enemy's stat moves leave them by the middle of the duel: its GROWL, LEER,
    SCREECH or SAND-ATTACK on ours, its DEFENSE CURL, HARDEN or SWORDS DANCE on itself (the AI and wild
    Pokémon keep using them, so a long duel costs more than its turns)."""
    me, foe = duel.us.fighter, duel.them.fighter
    half = min(turns, HORIZON) / 2
    lowered, raised = me, foe
    for p, action in answers:
        if not isinstance(action, Attack) or action.slot < 0:
            continue
        move = move_of(foe, action.slot)
        if move.power:
            continue
        if move.effect in STAT_DOWN:
            stat, by = STAT_DOWN[move.effect]
            hit = hit_chance(move, foe, me) * (1 - COMPUTER_STAT_DOWN_MISS)
            for _ in range(round(p * hit * half * by)):
                lowered = lower_stat(lowered, stat, 1, duel.us.badges)
        elif move.effect in STAT_UP:
            stat, by = STAT_UP[move.effect]
            for _ in range(round(p * half * by)):
                raised, _ignored = raise_stat(raised, lowered, stat, 1, frozenset())
    if lowered is me and raised is foe:
        return duel
    return duel._replace(us=duel.us.with_fighter(lowered), them=duel.them.with_fighter(raised))


def _pressure(duel: Duel, answers: list[tuple[float, Action]]) -> float:
    """The share of our turns the enemy's status moves are expected to take away: sleep (about four turns
    a time), a trapping move (about two more turns each), confusion (half of about two and a half turns),
    paralysis (a quarter of the turns once it lands, which it does about halfway)."""
    me, foe = duel.us.fighter, duel.them.fighter
    lost = 0.0
    for p, action in answers:
        if not isinstance(action, Attack) or action.slot < 0:
            continue
        move = move_of(foe, action.slot)
        landing = p * hit_chance(move, foe, me)
        if move.effect == "TRAPPING_EFFECT":
            lost += _share(landing, _TRAPPED_TURNS)
        elif me.status == "OK" and move.effect == "SLEEP_EFFECT":
            lost += _share(landing, _ASLEEP_TURNS)
        elif me.status == "OK" and move.effect == "PARALYZE_EFFECT" and can_take_status(me, "PAR", move):
            lost += FULL_PARALYSIS / 2
        elif not me.confused and move.effect == "CONFUSION_EFFECT":
            lost += _share(landing, _CONFUSED_TURNS * CONFUSION_SELF_HIT)
    return min(lost, _MOST_LOST)


def _mending(foe: Fighter, answers: list[tuple[float, Action]]) -> float:
    """HP the enemy gives itself back a turn with REST, RECOVER or SOFTBOILED: its chance of choosing one
    times half its bar (RECOVER's heal; REST's full heal from a bar that is on average half down). What our
    side deals a turn shrinks by as much: against LORELEI's DEWGONG resting to full, a steady BITE was
    judged a sure win and lost."""
    mended = 0.0
    for p, action in answers:
        if (
            isinstance(action, Attack)
            and action.slot >= 0
            and move_of(foe, action.slot).effect == "HEAL_EFFECT"
        ):
            mended += p * foe.max_hp / 2
    return mended


def _share(chance_a_turn: float, turns_each: float) -> float:
    """Long-run share of turns lost to an effect that lands with this chance a turn and lasts this long."""
    return 0.0 if chance_a_turn <= 0 else turns_each / (1 / chance_a_turn + turns_each)


def _race_once(
    duel: Duel,
    delay: float,
    plan: str,
    shares: Shares,
    answers: list[tuple[float, Action]],
    pace: Pace | None = None,
) -> DuelOdds:
    me, foe = duel.us.fighter, duel.them.fighter
    ours, theirs = worn(me, foe, answers, pace or best_pace(me, foe), enemy_pace(duel, answers))
    acts = ours.acts * (1 - _pressure(duel, answers)) * shares[0]
    mended = _mending(foe, answers) / acts if acts > 0 else 0.0
    ours = Pace(max(0.0, ours.mean - mended), ours.variance, acts, ours.lost + delay, ours.slot)
    theirs = Pace(theirs.mean, theirs.variance, theirs.acts * shares[1], theirs.lost, theirs.slot)
    # A biding enemy hands back twice what it took, its stored damage already owed, when its storing
    # turns are over (Bide's counter: the turns left, the last one the release); knocked out before then,
    # it hands back nothing. We either attack on (what we deal while it stores is owed too) or, with a
    # move that deals no damage, wait its storing turns out: whichever wins more often.
    owed = 2.0 * foe.bide_damage
    if _heal_share(duel):
        theirs = theirs._replace(now=_struck_down_now(me, foe, answers, theirs))
    if foe.bide <= 1:
        return _race_with(duel, plan, ours, theirs, owed, max(1, foe.bide))
    fed = _race_with(duel, plan, ours, theirs, owed + 2 * ours.mean * (foe.bide - 1), foe.bide)
    if not _status_moves(me):
        return fed
    waiting = Pace(ours.mean, ours.variance, ours.acts, ours.lost + foe.bide - 1, ours.slot)
    waited = _race_with(duel, plan, waiting, theirs, owed, foe.bide)
    return max((fed, waited), key=lambda odds: (odds.win, odds.our_hp_left))


_RACES_WITH: dict[tuple[object, ...], DuelOdds] = {}  # as many as the paces, ~0.5 KB an entry


def _race_with(duel: Duel, plan: str, ours: Pace, theirs: Pace, owed: float, release: int) -> DuelOdds:
    """The race itself: who knocks the other out first, turn by turn, with `owed` damage landing on us in
    turn `release` unless the enemy is down before then. Remembered by the few numbers it reads: the
    setup plans and the search's branches race the same paces at the same HP again and again (three
    races in five)."""
    me, foe = duel.us.fighter, duel.them.fighter
    share = _heal_share(duel)
    healing, drain = _healing(share, me, theirs), _drain(me) - _seeded_gain(foe)
    attack = move_of(me, ours.slot).name if ours.mean > 0 else ""
    key = (me.hp, foe.hp, _drain(foe), healing, drain, len(share), _first_chance(me, foe),
           ours, theirs, owed, release, plan, attack)  # fmt: skip
    found = _RACES_WITH.get(key)
    if found is None:
        found = _remember(_RACES_WITH, key, _raced(me, foe, plan, ours, theirs, owed, release, healing, drain,
                                                   share, attack))  # fmt: skip
    return found


def _raced(
    me: Fighter, foe: Fighter, plan: str, ours: Pace, theirs: Pace, owed: float, release: int, healing: int,
    drain: float, share: tuple[int, ...], attack: str,
) -> DuelOdds:  # fmt: skip
    we_ko = _ko_by(ours, foe.hp, _drain(foe), 0.0)
    they_ko = _ko_by(theirs, me.hp + healing, drain, owed, release)
    if healing:
        # The bag is reached only by a member that lives through the hit coming now: a heal is a turn's
        # action, so a member in reach of a knock-out this turn has the HP it has, not the bag's.
        below = bisect_left(they_ko, theirs.now)  # the curve only rises: lift its start to `now`
        they_ko = (theirs.now,) * below + they_ko[below:]
    first = _first_chance(me, foe)
    win, when, prev_us, prev_them = 0.0, 0.0, 0.0, 0.0
    lost, lost_when = 0.0, 0.0  # the same for their knock-out, for the HP they keep when they win
    for t in range(HORIZON):
        now = we_ko[t] - prev_us
        alive = first * (1 - prev_them) + (1 - first) * (1 - they_ko[t])
        win += now * alive
        when += (t + 1) * now * alive
        falls = they_ko[t] - prev_them
        standing = (1 - first) * (1 - prev_us) + first * (1 - we_ko[t])
        lost += falls * standing
        lost_when += (t + 1) * falls * standing
        prev_us, prev_them = we_ko[t], they_ko[t]
        if prev_us > _SURE or prev_them > _SURE:
            break
    undecided = (1 - prev_us) * (1 - prev_them)
    win = min(1.0, win + _beyond_horizon(ours, theirs, foe, me.hp + healing, drain) * undecided)
    turns = _median_turn(we_ko)
    lasts = min(when / win if win > 0 else turns, HORIZON)
    released = 1.0 - (we_ko[release - 2] if release >= 2 else 0.0)  # the chance it lives to release
    taken = theirs.acts * theirs.mean * max(0.0, lasts - theirs.lost) + owed * released
    # What we deal before they win: over the turns their knock-out takes (we act in its last one only if we
    # move first), not over the turns ours would have taken.
    falls_at = min(lost_when / lost if lost > 0 else turns, HORIZON)
    dealt = ours.acts * ours.mean * max(0.0, falls_at - (1 - first) - ours.lost)
    return DuelOdds(
        win=win,
        turns_to_ko=turns,
        our_hp_left=max(1, round(me.hp - taken)),
        their_hp_left=max(1, round(foe.hp - dealt)),
        plan=f"{plan}, then {attack}" if plan and attack else (plan or attack),
        heals_used=len(share),
    )


def _beyond_horizon(ours: Pace, theirs: Pace, foe: Fighter, our_hp: int, drain: float) -> float:
    """Our share of a duel still undecided after HORIZON turns, by each side's expected turns to its
    knock-out: a member that can only STRUGGLE after eighty turns of status moves, against an enemy that
    spends its turns on POISONPOWDER it cannot land, wins in the end (a coin flip called it even)."""
    ours_in = _expected_turns(ours, foe.hp, _drain(foe))
    theirs_in = _expected_turns(theirs, our_hp, max(0.0, drain))
    if math.isinf(ours_in) and math.isinf(theirs_in):
        return 0.5
    if math.isinf(theirs_in):
        return 1.0
    return theirs_in / (ours_in + theirs_in)


def _expected_turns(pace: Pace, hp: int, drain: float) -> float:
    rate = pace.acts * pace.mean + drain
    return pace.lost + hp / rate if rate > 0 else math.inf


def _heal_share(duel: Duel) -> tuple[int, ...]:
    """The healing items this duel may count on: an even share of the bag over the enemies still to beat,
    so that a chain of duels does not count the same POTION twice."""
    heals = duel.us.heals
    if not heals:
        return heals
    left = 1 if duel.wild else 1 + len(duel.them.able())
    return heals[: -(-len(heals) // left)]


def _seeded_gain(foe: Fighter) -> float:
    """What our side drinks each turn from a seeded enemy."""
    return float(max(1, foe.max_hp // 16)) if foe.seeded and not foe.fainted else 0.0


def _median_turn(ko_by: tuple[float, ...]) -> float:
    for t, p in enumerate(ko_by, start=1):
        if p >= 0.5:
            return float(t)
    return math.inf


def _first_chance(me: Fighter, foe: Fighter) -> float:
    if me.battle[SPEED] == foe.battle[SPEED]:
        return 0.5
    return 1.0 if me.battle[SPEED] > foe.battle[SPEED] else 0.0
