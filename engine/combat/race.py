"""How likely our active member is to beat the enemy's in front of it: the duel race.

Two members facing each other race to knock the other out. Each turn a side deals damage with a chance of
acting at all (paralysis, confusion), after the turns it loses outright (sleep, recharging, being
wrapped); poison, burn and Leech Seed add a fixed drain. The damage after t turns is taken as normal
with the summed mean and variance of the per-turn damage, which gives the chance that each side has
knocked the other out by turn t, and so the chance of winning the duel (the side that moves first wins a
tie). engine/combat/judge.py chains duels into a whole battle.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from functools import lru_cache
from typing import NamedTuple

from engine.combat import enemy
from engine.combat.effects import (
    COMPUTER_STAT_DOWN_MISS,
    CONFUSION_SELF_HIT,
    FULL_PARALYSIS,
    STAT_DOWN,
    STAT_UP,
    TRAP_ATTACKS,
    can_take_status,
    inflict,
    invulnerable,
    lower_stat,
    raise_stat,
    self_hit,
    status_of_move,
    transform,
)
from engine.combat.fighter import (
    ACCURACY,
    ATTACK,
    DEFENSE,
    EVASION,
    SPECIAL,
    SPEED,
    Action,
    Attack,
    Duel,
    Fighter,
    move_of,
    moves_of,
)
from engine.combat.hits import hit_chance, may_deal_damage
from engine.combat.memo import keep
from engine.combat.pace import (
    HORIZON,
    TRAPPED_TURNS,
    Pace,
    Paces,
    Tail,
    chance_at_least,
    enemy_pace,
    hp_moves,
    one_hit,
    ration,
    strongest,
    tail,
)
from engine.combat.turn import resolve_turn
from engine.combat.wear import worn
from engine.game.items import BATTLE_ITEMS, ItemKind
from engine.game.tables import Move, game_data

_SURE = 1 - 1e-6
_NO_SPREAD = 1e-9  # a variance this small is a certainty
_CLEAR_WIN = 0.99  # no setup plan is looked for beyond this
_PLAN_MARGIN = 0.01  # a setup plan must win this much more often than attacking at once
MAX_SETUP = 3
MAX_HEALS_COUNTED = 3
_ASLEEP_TURNS = 4.0
_CONFUSED_TURNS = 2.5
_MOST_LOST = 0.9
_NOT_THIS_TURN = frozenset({"CHARGE_EFFECT", "FLY_EFFECT"})  # the first turn only winds up
_TRANSFORM_DETAIL = 1  # damage groups of the turn an enemy transforms in (a race's own detail is coarse)
_KEPT = 1 << 13  # enemy choices and race settings remembered (~0.7 and ~1 KB an entry)


class DuelOdds(NamedTuple):
    win: float
    turns_to_ko: float  # our expected turns to knock the enemy out when we win the duel (inf: we cannot)
    our_hp_left: int  # expected, when we win
    their_hp_left: int  # expected, when they win
    plan: str = ""  # what we do in the race, e.g. "TAIL_WHIP ×2, then TACKLE"
    heals_used: int = 0  # healing items the race counted on (spent for the duels after it)


def _healing(heals: tuple[int, ...], me: Fighter, theirs: Pace) -> int:
    """HP our healing items add to the race: each gives back what it heals (at most the member's max HP)
    less the hit taken while using it. Up to MAX_HEALS_COUNTED of them, the largest first."""
    hit = theirs.acts * theirs.mean
    return round(sum(max(0.0, min(h, me.max_hp) - hit) for h in heals[:MAX_HEALS_COUNTED]))


Strikes = tuple[tuple[float, Tail], ...]  # the enemy's damaging answers this turn: chance, damage tail


def _strikes(me: Fighter, foe: Fighter, answers: list[tuple[float, Action]]) -> Strikes:
    """The enemy's answers that can knock our member out this turn, each with its damage rolls (one hit
    is a lumpy thing the race's normal curve fits badly: a HYPER_BEAM among weak moves)."""
    strikes: list[tuple[float, Tail]] = []
    for p, action in answers:
        if not isinstance(action, Attack) or action.slot < 0:
            continue
        move = move_of(foe, action.slot)
        if not may_deal_damage(move) or move.effect in _NOT_THIS_TURN:
            continue
        strikes.append((p, tail(foe, me, action.slot)))
    return tuple(strikes)


def _struck_down_now(hp: int, strikes: Strikes, theirs: Pace) -> float:
    """The chance that the enemy's move this turn knocks out our member at the HP it has."""
    if theirs.lost >= 1:
        return 0.0
    down = sum(p * chance_at_least(found, hp) for p, found in strikes)
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
    # Of the bag, only this duel's share of the healing items (the rest is for the enemies after it).
    return (us.fighter if ours is None else ours, them.fighter, us.badges, them.badges, _heal_share(duel),
            them.trainer_class, them.turns_out == 1, them.ai_uses > 0, duel.wild)  # fmt: skip


def duel_odds(duel: Duel, status_plans: bool = False, plans: bool = True) -> DuelOdds:
    """The active members' race: attacking now, or after one to three uses of a stat move first, and
    (with `status_plans`) after seeding, paralysing, poisoning or putting the enemy to sleep first, alone
    or followed by stat moves; whichever wins most often. Without `plans`, attacking now only."""
    me, foe = duel.us.fighter, duel.them.fighter
    if foe.fainted:
        return DuelOdds(win=1.0, turns_to_ko=0.0, our_hp_left=me.hp, their_hp_left=0)
    if me.fainted:
        return DuelOdds(win=0.0, turns_to_ko=math.inf, our_hp_left=0, their_hp_left=foe.hp)
    if _transforms(foe):
        return _their_transform(duel, status_plans, plans)
    best = _race(duel, 0.0, "")
    if best.win > _CLEAR_WIN or not plans:
        return best
    starts: list[Start] = [(duel, 0.0, "", (1.0, 1.0))]
    if _transforms(me):
        copy = transform(me, duel.them.fighter)
        starts.append((duel._replace(us=duel.us.with_fighter(copy)), 1.0, "TRANSFORM", (1.0, 1.0)))
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


@lru_cache(maxsize=1)
def _transform_id() -> int:
    return game_data().moves_by_name["TRANSFORM"].id


def _transforms(fighter: Fighter) -> bool:
    return not fighter.transformed and _transform_id() in fighter.moves


def _their_transform(duel: Duel, status_plans: bool, plans: bool) -> DuelOdds:
    """An enemy that knows TRANSFORM (a wild DITTO knows nothing else) spends its first turn on it and
    races on as the copy of our member it becomes: that turn is played (our best hit meets the DITTO it
    still is if we move first), then the race. Its own moves would call it harmless, and a BLASTOISE
    lost to the BLASTOISE a DITTO made of it."""
    me, foe = duel.us.fighter, duel.them.fighter
    ours = Attack(strongest(me, foe)[0].slot)
    theirs = Attack(foe.moves.index(_transform_id()))
    win = turns = ours_left = theirs_left = knocked = 0.0
    for p, after in resolve_turn(duel, ours, theirs, _TRANSFORM_DETAIL):
        if not after.them.fighter.transformed and not after.them.fighter.fainted:
            # Flinched or asleep: it transforms later; raced as a copy a turn behind.
            copy = transform(after.them.fighter, after.us.fighter)._replace(recharging=True)
            after = after._replace(them=after.them.with_fighter(copy))
        odds = duel_odds(after, status_plans, plans)
        win += p * odds.win
        ours_left += p * odds.our_hp_left
        theirs_left += p * odds.their_hp_left
        if odds.win > 0 and not math.isinf(odds.turns_to_ko):
            knocked += p * odds.win
            turns += p * odds.win * (1 + odds.turns_to_ko)
    return DuelOdds(
        win=win,
        turns_to_ko=turns / knocked if knocked > 0 else math.inf,
        our_hp_left=max(1, round(ours_left)),
        their_hp_left=max(1, round(theirs_left)),
        plan=move_of(me, ours.slot).name if ours.slot >= 0 else "",
    )


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
    setting = _setting(duel)
    me, foe = duel.us.fighter, duel.them.fighter
    pace = ration(setting.best, setting.paces, me, foe)
    rate = pace.acts * pace.mean * shares[0]
    turns = delay + pace.lost + (foe.hp / rate if rate > 0 else HORIZON)
    worn = _worn(duel, turns, setting.wear)
    if worn is duel:
        return _race_once(duel, delay, plan, shares, setting, pace)
    setting = _setting(worn)
    me, foe = worn.us.fighter, worn.them.fighter
    return _race_once(worn, delay, plan, shares, setting, ration(setting.best, setting.paces, me, foe))


Wear = tuple[tuple[bool, int, float, int], ...]  # the enemy's stat moves: (on ours, stat, rate, stages a use)


class _Setting(NamedTuple):
    """What a race reads of the two members but their HP (the enemy's HP only as whether it holds back
    its trainer's item, `enemy.item_held_back`): the search's branches and the chained duels race the
    same members at many HP pairs, and this took three fifths of a race when it was worked out for each."""

    answers: list[tuple[float, Action]]
    best: Pace  # our best move's, before its PP are weighed against the enemy's HP
    paces: Paces
    theirs: Pace
    pressure: float
    mending: float
    wear: Wear
    strikes: Strikes  # only with healing items in the bag (the race weighs them only then)


_SETTINGS: dict[tuple[object, ...], _Setting] = {}


def _setting(duel: Duel) -> _Setting:
    me, foe, them = duel.us.fighter, duel.them.fighter, duel.them
    by_hp = (me.hp, foe.hp) if hp_moves(me) or hp_moves(foe) else ()
    key = (_but_hp(me), _but_hp(foe), enemy.item_held_back(them), by_hp, them.trainer_class,
           them.turns_out == 1, them.ai_uses > 0, duel.wild, bool(duel.us.heals))  # fmt: skip
    found = _SETTINGS.get(key)
    if found is None:
        answers = _choices(duel)
        best, paces = strongest(me, foe)
        found = keep(_SETTINGS, key, _Setting(
            answers, best, paces, enemy_pace(duel, answers), _pressure(duel, answers), _mending(foe, answers),
            _wear(me, foe, answers), _strikes(me, foe, answers) if duel.us.heals else ()), _KEPT)  # fmt: skip
    return found


_CHOICES: dict[tuple[object, ...], list[tuple[float, Action]]] = {}


def _choices(duel: Duel) -> list[tuple[float, Action]]:
    """The enemy's choices over the duel: as enemy.choices, but past a move it is locked into (Bide's
    storing turns, a trapping move's, a recharge, a charged move), which the race counts apart. Remembered by
    everything they depend on: the race asks for the same ones many times."""
    foe = duel.them.fighter
    if foe.bide or foe.trapping or foe.recharging or foe.charging >= 0:
        free = foe._replace(bide=0, trapping=0, recharging=False, charging=-1)
        duel = duel._replace(them=duel.them.with_fighter(free))
    me, foe = duel.us.fighter, duel.them.fighter
    them = duel.them
    key = (
        foe.moves, tuple(pp > 0 for pp in foe.pp), foe.charging, foe.bide, foe.trapping, foe.recharging,
        foe.status, enemy.item_held_back(them), me.status, me.types, them.trainer_class,
        them.turns_out == 1, them.ai_uses > 0, duel.wild,
    )  # fmt: skip
    found = _CHOICES.get(key)
    if found is None:
        found = keep(_CHOICES, key, enemy.choices(duel), _KEPT)
    return found


def _but_hp(fighter: Fighter) -> tuple[object, ...]:
    """A member but its HP and, of its PP, which moves have some left (a race's setting reads no more;
    the PP themselves ration our best move against the enemy's HP, which `ration` weighs per race)."""
    pp = fighter.pp
    usable = True if 0 not in pp else tuple(left > 0 for left in pp)
    return (*fighter[:2], *fighter[3:9], usable, *fighter[10:])


def _wear(me: Fighter, foe: Fighter, answers: list[tuple[float, Action]]) -> Wear:
    """The enemy's stat moves among its choices, with the share of turns each lands a stage."""
    wear: list[tuple[bool, int, float, int]] = []
    for p, action in answers:
        if not isinstance(action, Attack) or action.slot < 0:
            continue
        move = move_of(foe, action.slot)
        if move.power:
            continue
        if move.effect in STAT_DOWN:
            stat, by = STAT_DOWN[move.effect]
            wear.append((True, stat, p * (hit_chance(move, foe, me) * (1 - COMPUTER_STAT_DOWN_MISS)), by))
        elif move.effect in STAT_UP:
            stat, by = STAT_UP[move.effect]
            wear.append((False, stat, p, by))
    return tuple(wear)


def _worn(duel: Duel, turns: float, wear: Wear) -> Duel:
    """Both members as the enemy's stat moves leave them by the middle of the duel: its GROWL, LEER,
    SCREECH or SAND-ATTACK on ours, its DEFENSE CURL, HARDEN or SWORDS DANCE on itself (the AI and wild
    Pokémon keep using them, so a long duel costs more than its turns)."""
    if not wear:
        return duel
    me, foe = duel.us.fighter, duel.them.fighter
    half = min(turns, HORIZON) / 2
    lowered, raised = me, foe
    for on_ours, stat, rate, by in wear:
        if on_ours:
            for _ in range(round(rate * half * by)):
                lowered = lower_stat(lowered, stat, 1, duel.us.badges)
        else:
            for _ in range(round(rate * half * by)):
                raised, _ignored = raise_stat(raised, lowered, stat, 1, frozenset())
    if lowered is me and raised is foe:
        return duel
    return duel._replace(us=duel.us.with_fighter(lowered), them=duel.them.with_fighter(raised))


def _pressure(duel: Duel, answers: list[tuple[float, Action]]) -> float:
    """The share of our turns the enemy's status moves are expected to take away: sleep (about four turns
    a time), a trapping move (about two more turns each), confusion (half of about two and a half turns),
    paralysis (a quarter of the turns once it lands, which it does about halfway), and the enemy's FLY
    and DIG (a turn out of reach each)."""
    me, foe = duel.us.fighter, duel.them.fighter
    lost = 0.0
    for p, action in answers:
        if not isinstance(action, Attack) or action.slot < 0:
            continue
        move = move_of(foe, action.slot)
        landing = p * hit_chance(move, foe, me)
        if move.effect == "TRAPPING_EFFECT":
            lost += _share(landing, TRAPPED_TURNS)
        elif me.status == "OK" and move.effect == "SLEEP_EFFECT":
            lost += _share(landing, _ASLEEP_TURNS)
        elif me.status == "OK" and move.effect == "PARALYZE_EFFECT" and can_take_status(me, "PAR", move):
            lost += FULL_PARALYSIS / 2
        elif not me.confused and move.effect == "CONFUSION_EFFECT":
            lost += _share(landing, _CONFUSED_TURNS * CONFUSION_SELF_HIT)
        elif move.effect == "FLY_EFFECT" or move.name == "DIG":
            lost += _share(p, 1.0)  # the turn it spends out of reach
    return min(lost, _MOST_LOST)


def _confused_hurt(me: Fighter, foe: Fighter, answers: list[tuple[float, Action]], ours: Pace) -> float:
    """HP a turn our member is expected to lose hitting itself in its confusion: a turn lost in _pressure
    and _stopped, and a 40-power hit on itself too, half the turns it is confused. Counted only as lost
    turns, a WARTORTLE at 6 HP against a wild ZUBAT's SUPERSONIC was called >99% to win and lost one draw
    in five. Confused now: its turns of confusion left over the turns the duel is expected to take;
    otherwise the long-run share of turns the enemy's confusion moves keep it confused."""
    if me.confused > 1:
        rate = ours.acts * ours.mean
        turns = max(1.0, foe.hp / rate) if rate > 0 else float(HORIZON)
        confused = min(1.0, (me.confused - 1) / turns)
    else:
        confused = 0.0
        for p, action in answers:
            if not isinstance(action, Attack) or action.slot < 0:
                continue
            move = move_of(foe, action.slot)
            if move.effect == "CONFUSION_EFFECT":
                confused += _share(p * hit_chance(move, foe, me), _CONFUSED_TURNS)
    return min(1.0, confused) * CONFUSION_SELF_HIT * self_hit(me)


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
    duel: Duel, delay: float, plan: str, shares: Shares, setting: _Setting, pace: Pace
) -> DuelOdds:
    me, foe = duel.us.fighter, duel.them.fighter
    answers = setting.answers
    ours, theirs = worn(me, foe, answers, pace, setting.theirs)
    acts = ours.acts * (1 - setting.pressure) * shares[0]
    mended = setting.mending / acts if acts > 0 else 0.0
    ours = ours._replace(mean=max(0.0, ours.mean - mended), acts=acts, lost=ours.lost + delay, now=0.0)
    ours = ours._replace(hurt=_confused_hurt(me, foe, answers, ours))
    held = theirs.acts * shares[1] * _held_off(me, foe, ours)
    theirs = Pace(theirs.mean, theirs.variance, held, theirs.lost, theirs.slot)
    ours, theirs, ahead, (charged, charged_at) = _charged(me, foe, ours, theirs)
    # A biding enemy hands back twice what it took, its stored damage already owed, when its storing
    # turns are over (Bide's counter: the turns left, the last one the release); knocked out before then,
    # it hands back nothing. We either attack on (what we deal while it stores is owed too) or, with a
    # move that deals no damage, wait its storing turns out: whichever wins more often.
    owed = 2.0 * foe.bide_damage + charged
    if _heal_share(duel):
        theirs = theirs._replace(now=_struck_down_now(me.hp, setting.strikes, theirs))
    if foe.bide <= 1:
        return _race_with(duel, plan, ours, theirs, owed, charged_at if charged else max(1, foe.bide), ahead)
    fed = _race_with(duel, plan, ours, theirs, owed + 2 * ours.mean * (foe.bide - 1), foe.bide, ahead)
    if not _status_moves(me):
        return fed
    waiting = ours._replace(lost=ours.lost + foe.bide - 1)
    waited = _race_with(duel, plan, waiting, theirs, owed, foe.bide, ahead)
    return max((fed, waited), key=lambda odds: (odds.win, odds.our_hp_left))


def _held_off(me: Fighter, foe: Fighter, ours: Pace) -> float:
    """The share of its turns the enemy acts at all against our best move: a trapping move holds it for
    the turns it goes on (every turn of it if we move first: Gen 1's wrap lock), FLY and DIG keep us out
    of reach one turn in two (pret engine/battle/core.asm CheckPlayerStatusConditions, MoveHitTest)."""
    if ours.slot < 0 or ours.mean <= 0:
        return 1.0
    move = move_of(me, ours.slot)
    if move.effect == "FLY_EFFECT" or move.name == "DIG":
        return 0.5
    if move.effect != "TRAPPING_EFFECT":
        return 1.0
    hit = hit_chance(move, me, foe)
    cycle = (1 - hit) + hit * TRAP_ATTACKS
    first = _first_chance(me, foe)
    return first * (1 - hit) / cycle + (1 - first) / cycle


Landing = tuple[float, int]  # a charged hit's mean damage, and the turn it lands in


def _charged(me: Fighter, foe: Fighter, ours: Pace, theirs: Pace) -> tuple[Pace, Pace, Landing, Landing]:
    """A member that charged a two-turn move last turn spends its first turn able to act landing it
    (SKULL BASH, SOLARBEAM, SKY ATTACK, RAZOR WIND, FLY, DIG): sleep or a freeze comes first, the charge
    waits (CheckPlayerStatusConditions keeps CHARGING_UP). In the air or underground it is missed by
    whoever moves before it. Returns both paces and each charged hit (ours, theirs)."""
    ahead: Landing = (0.0, 1)
    owed: Landing = (0.0, 1)
    first = _first_chance(me, foe)
    if me.charging >= 0:
        ahead = (ours.acts * one_hit(me, foe, me.charging), 1 + math.ceil(ours.lost))
        ours = ours._replace(lost=ours.lost + 1)
        if invulnerable(me):
            theirs = theirs._replace(lost=theirs.lost + 1 - first)
    if foe.charging >= 0:
        owed = (theirs.acts * one_hit(foe, me, foe.charging), 1 + math.ceil(theirs.lost))
        theirs = theirs._replace(lost=theirs.lost + 1)
        if invulnerable(foe):
            ours = ours._replace(lost=ours.lost + first)
    return ours, theirs, ahead, owed


_RACES_WITH: dict[tuple[object, ...], DuelOdds] = {}  # as many as the paces, ~0.5 KB an entry


def _race_with(
    duel: Duel, plan: str, ours: Pace, theirs: Pace, owed: float, release: int, ahead: Landing = (0.0, 1)
) -> DuelOdds:
    """The race itself: who knocks the other out first, turn by turn, with `owed` damage landing on us in
    turn `release` unless the enemy is down before then, and `ahead` landing on theirs (a charged move).
    Remembered by the few numbers it reads: the setup plans and the search's branches race the same paces
    at the same HP again and again (three races in five)."""
    me, foe = duel.us.fighter, duel.them.fighter
    foe = foe._replace(hp=foe.hp + _their_heal(duel, ours))
    share = _heal_share(duel)
    # Our STRUGGLE's recoil drains us like poison does, spread over the race.
    # So do the hits it is expected to give itself in its confusion.
    healing, drain = _healing(share, me, theirs), _drain(me) - _seeded_gain(foe) + ours.recoil + ours.hurt
    attack = move_of(me, ours.slot).name if ours.mean > 0 else ""
    key = (me.hp, foe.hp, _drain(foe), healing, drain, len(share), _first_chance(me, foe),
           ours, theirs, owed, release, plan, attack, ahead)  # fmt: skip
    found = _RACES_WITH.get(key)
    if found is None:
        found = keep(_RACES_WITH, key, _raced(me, foe, plan, ours, theirs, owed, release, healing, drain,
                                               share, attack, ahead), _KEPT)  # fmt: skip
    return found


def _their_heal(duel: Duel, ours: Pace) -> int:
    """The HP the enemy trainer's healing item is expected to add to what we must deal: its item routine
    runs each turn the member in front is under its HP line (pret engine/battle/trainer_ai.asm ErikaAI:
    SUPER POTION under a tenth, at even odds), so a member that chips it down slowly meets the potion and
    one that knocks it out from above the line does not. Without it a long stall (an ODDISH struggling
    against a VICTREEBEL) was called won that the potion lost."""
    them = duel.them
    ai = enemy.trainer_ai().get(them.trainer_class or "")
    rate = ours.acts * ours.mean
    if (
        duel.wild
        or ai is None
        or ai.item is None
        or them.ai_uses <= 0
        or ai.item.only_with_status
        or rate <= 0
    ):
        return 0
    item = BATTLE_ITEMS.get(ai.item.name)
    if item is None or item.kind is not ItemKind.HEAL_HP:
        return 0
    foe = them.fighter
    line = foe.max_hp / ai.item.hp_below_fraction if ai.item.hp_below_fraction else float(foe.hp)
    checks = max(0.0, line / rate - 1.0)  # its turns alive under the line before our knock-out
    used = 1.0 - math.pow(1.0 - ai.item.random_below / 256, checks)
    heal = foe.max_hp if item.heal is None else min(item.heal, foe.max_hp)
    return round(used * heal)


def _raced(
    me: Fighter, foe: Fighter, plan: str, ours: Pace, theirs: Pace, owed: float, release: int, healing: int,
    drain: float, share: tuple[int, ...], attack: str, ahead: Landing = (0.0, 1),
) -> DuelOdds:  # fmt: skip
    we_ko = _ko_by(ours, foe.hp, _drain(foe), *ahead)
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
    # The turn of our knock-out when it comes before theirs (a duel decided only past the horizon ends
    # there): our own knock-out curve alone would call a duel we lose first "KO in 5 turns".
    turns = when / win if win > 0 else (float(HORIZON) if undecided > 0 else math.inf)
    win = min(1.0, win + _beyond_horizon(ours, theirs, foe, me.hp + healing, drain) * undecided)
    if win <= 0:
        turns = math.inf
    lasts = min(when / win if win > 0 else _median_turn(we_ko), HORIZON)
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
    spends its turns on POISONPOWDER it cannot land, wins in the end (a coin flip called it even), unless
    its STRUGGLE's recoil, all of it taken before the knock-out, is more than the HP it has."""
    ours_in = _expected_turns(ours, foe.hp, _drain(foe))
    if ours.recoil > 0 and not math.isinf(ours_in) and ours.recoil * ours_in >= our_hp:
        return 0.0
    theirs_in = _expected_turns(theirs, our_hp, max(0.0, drain - ours.recoil))
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
