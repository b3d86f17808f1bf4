"""The battle search: every action we may take, against every answer the enemy may give, through every
way the turn can go, judged by the chance of winning the whole battle afterwards.

One ply of expectimax over the turn model (engine/combat/turn.py) with the race judge
(engine/combat/race.py) at the leaves. Setup moves earn their place the way a player reasons: after
TAIL WHIP the race shows the same TACKLE knocking the enemy out in fewer turns.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from engine.combat import enemy
from engine.combat.chance import percent
from engine.combat.collector import collector_paused
from engine.combat.fighter import (
    ATTACK,
    FULL_HEAL_HP,
    SPECIAL,
    STRUGGLE_SLOT,
    Action,
    Attack,
    Duel,
    Fighter,
    Switch,
    UseItem,
    move_of,
)
from engine.combat.futility import futile, futile_item
from engine.combat.hits import deals_damage, sure_knock_out
from engine.combat.judge import Judge, Outlook
from engine.combat.pace import move_pace
from engine.combat.race import DuelOdds
from engine.combat.turn import enemy_answers, member_after_item, resolve_turn
from engine.game.damage import PHYSICAL_TYPES
from engine.game.items import BATTLE_ITEMS, ItemKind
from engine.game.mending import FIGHTER_LEVELS

SEARCH_DETAIL = 2  # damage groups and sleep/confusion lengths per branch
# With five or six members the whole battle after the turn (the judge's chain of duels) settles the
# choice, not how finely the turn's damage is split: one group a roll there halves the leaves. On 803
# decisions of the tournament's full-party battles it changed 29 choices, losing 0.0001 of value a decision
# on average as two groups judge them (at most 0.05), and took the 95th percentile from 116 ms to 97.
FULL_PARTY = 5
FULL_PARTY_DETAIL = 1
# With a full party, switches only to the SWITCHES_SEARCHED members with the best duels against the enemy
# in front (the members the judge would send after a knock-out): a switch brings a new member and its
# races into every leaf, and a member that loses the duel in front is rarely worth the free hit. On the
# same 803 decisions: 0.0002 of value lost a decision on average as the full search judges it (at most
# 0.08), the 95th percentile of decision time a sixth lower.
SWITCHES_SEARCHED = 2
# Between two actions this close in winning chance, prefer attacking: the model is not exact, and a
# hit now is worth more than a setup whose payoff the model only estimates.
TIE_MARGIN = 0.005
# Winning comes first; among ways to win, keeping the party's HP (and members) counts for the battles
# after this one, and an item spent is money: worth this much chance of winning.
KEEP_WEIGHT = 0.05
# The HP a line keeps counts in full only while the member in front knocks the enemy out within DRAG_TURNS;
# past that, less and less (DRAG_TURNS / turns). HP is bought back with a potion between battles, game time
# is not: a weak WEEPINBELL put in front of LANCE's DRAGONAIR to spare BLASTOISE's HP, "KO in 61 turns"
# with CUT, turned one battle into 278 turns and 98,910 frames.
DRAG_TURNS = 20
# Losing a member is worse than losing its HP: it cannot fight the next battle until healed, and a
# switch that feeds a weak member to the enemy is rarely what a player would do.
STANDING_WEIGHT = 0.1
# What an item costs, by its price at a Mart (pret data/items/prices.asm): a POTION is worth ITEM_COST of
# winning chance, dearer items proportionally more, so the cheapest heal that does the job is used.
POTION_PRICE = 300
PRICES = {
    "POTION": 300, "SUPER_POTION": 700, "HYPER_POTION": 1500, "MAX_POTION": 2500, "FULL_RESTORE": 3000,
    "FRESH_WATER": 200, "SODA_POP": 300, "LEMONADE": 350, "ANTIDOTE": 100, "BURN_HEAL": 250,
    "ICE_HEAL": 250, "AWAKENING": 200, "PARLYZ_HEAL": 200, "FULL_HEAL": 600, "REVIVE": 1500,
    "MAX_REVIVE": 4000, "X_ATTACK": 500, "X_DEFEND": 550, "X_SPEED": 350, "X_SPECIAL": 350,
    "X_ACCURACY": 950, "GUARD_SPEC": 700, "DIRE_HIT": 650,
    # Not sold anywhere (price 0 in pret): worth what the dear items they stand in for cost.
    "ETHER": 1500, "MAX_ETHER": 2500, "ELIXER": 3000, "MAX_ELIXER": 4500,
}  # fmt: skip
# The faster knock-out is worth game time: fewer turns for the enemy's status moves, Bide, a critical hit,
# and some 330-430 frames a turn (the trainer battles of seeds 61-66). A turn is worth TURN_WEIGHT of
# winning, so ten turns sooner weigh like 1% more to win: still five to ten times safer than frames alone
# would have it (a loss costs some 30,000 frames: the whiteout, the walk back, the levels asked). A line
# earns its pace only as much as its knock-out is likely. Past MOST_TURNS a turn still counts, less and
# less (TURN_WEIGHT × MOST_TURNS / turns). At a fortieth of this weight a sure win by a weak member chipping
# for 61 turns read as good as the fighter's ICE BEAM in two (Red seed 66's rival on Route 22: 163 turns,
# 53,802 frames); a stall of thirty turns against a VENUSAUR that only uses POISONPOWDER had every move
# alike, and VINE WHIP (1 HP a use) was chosen over CUT (4) by its place, turn after turn.
TURN_WEIGHT = 0.001
MOST_TURNS = 30
# Lines whose values differ by less than this are alike: the harder hit now goes first between them.
ALIKE = 1e-9
# Two plies against a boss (when asked for): the best DEEP_CANDIDATES actions within DEEP_MARGIN of the
# best, at DEEP_DETAIL, when the first ply judged at most DEEP_WORK positions.
DEEP_CANDIDATES = 2
DEEP_MOST = 4  # lines searched two plies deep at most, those that passed the first ones included
DEEP_MARGIN = 0.02
DEEP_DETAIL = 1
DEEP_WORK = 480
PLAYED_ON_DETAIL = 1  # the turn played by the member sent after ours went down
PLAYED_ON_MASS = 0.1  # ways a switch ends less likely than this are left to the judge alone
# In the Elite Four's rooms every PP spent is missing in the rooms after it, where no nurse and no Mart
# gives it back (the lobby sells no ETHER): a move costs PP_WEIGHT / (its PP left) of winning chance, less
# what the attack with the most PP costs, so between attacks nearly alike the one with PP to spare is used,
# as the chain's forecast plays. Blue seed 26
# used ICE BEAM and HYDRO PUMP where STRENGTH did as well, reached LANCE with its PP spent, STRUGGLEd itself
# down and met the Champion with field-move carriers. (pret trainer classes of the four rooms.)
CHAIN_ROOMS = frozenset({"LORELEI", "BRUNO", "AGATHA", "LANCE"})
GAUNTLET_ROOMS = CHAIN_ROOMS | {"RIVAL3"}
PP_WEIGHT = 0.05
PP_MARGIN = 0.02  # how much worse (in winning chance) a thriftier attack may look and still be used
BOOST_MARGIN = 0.05  # ...and an X item that makes every later attack of the room count twice
BOOSTED = 2  # stages an X item raises the attacking stat to, at most (as team/gauntlet.py plays)
SAFE_TURNS = 3  # an X item only while the foe needs more than this many turns to knock us out
DANGER = 0.4  # a fighter below this share of its HP, with a foe that can knock it out, drinks a potion
STAY_DUEL = 0.95  # a member this sure of its duel with the trainer's foe in front is not switched out
STAY_TURNS = 4  # ...unless its knock-out takes longer, and the one switched in is as sure and faster
WIN_SHOWN = 0.01  # smaller differences in winning chance are not worth naming in a reason
KO_SHOWN = 0.5  # a knock-out less likely than this is not timed in a reason
ITEM_COST = 0.03
# The Champion (the class RIVAL3 is his alone) is the last battle: what the bag keeps after it is worth
# nothing, so only a twentieth of an item's price is weighed there, enough to use the cheapest that does the
# job. Priced in full, an ELIXER (30% of winning) stayed in the bag while a BLASTOISE with ICE BEAM at 0 and
# SURF at 1 fought him at "4% to win" with STRENGTH, and lost.
LAST_ROOM = "RIVAL3"
LAST_ROOM_PRICE_SHARE = 0.05
# Outside the gauntlet's rooms a PP restore (sold nowhere) weighs this many times its price: a nurse gives PP
# back there, and the rooms, where nothing else does, are what it is kept for (game/mending.py). Priced as
# a potion is, Blue seed 156 drank its only ELIXER against GIOVANNI's RHYDON ("100% to win") and met the
# Champion with ICE BEAM and SURF at 3 PP, and lost.
KEPT_FOR_THE_ROOMS = 2.0


@dataclass(frozen=True, slots=True)
class Scored:
    action: Action
    win: float  # chance of winning the battle after taking it
    kept: float  # expected share of our party's HP left at the end
    standing: float  # expected share of our members still standing at the end
    turns_to_ko: float  # our expected turns to knock the enemy in front out, when the member in front does
    # False: a switch left out of a full party's search (see SWITCHES_SEARCHED); `win` is then only the
    # chance of the member's duel with the enemy in front, and the action is never chosen.
    searched: bool = True
    ko: float = 1.0  # the chance that the member in front knocks the enemy in front out

    @property
    def value(self) -> float:
        quicker = TURN_WEIGHT * self.ko * _pace_worth(self.turns_to_ko)
        return (
            self.win
            + KEEP_WEIGHT * self.kept * _undragged(self.turns_to_ko)
            + STANDING_WEIGHT * self.standing
            + quicker
            - item_cost(self.action)
        )


def _undragged(turns: float) -> float:
    """The share of a line's kept HP that counts, by its knock-out's pace (see DRAG_TURNS)."""
    return 1.0 if turns <= DRAG_TURNS else DRAG_TURNS / turns


def _pace_worth(turns: float) -> float:
    """In turns of TURN_WEIGHT: the linear part over the first MOST_TURNS, then a tail that keeps falling."""
    if math.isinf(turns):
        return 0.0
    return MOST_TURNS - min(turns, MOST_TURNS) + MOST_TURNS / max(turns, MOST_TURNS)


def item_cost(action: Action) -> float:
    if not isinstance(action, UseItem):
        return 0.0
    return ITEM_COST * PRICES.get(action.item, POTION_PRICE) / POTION_PRICE


@dataclass(frozen=True, slots=True)
class Verdict:
    best: Scored
    index: int  # the best action's place in the list searched (actions are tuples: compare by place)
    scored: tuple[Scored, ...]
    reason: str


@collector_paused
def search(duel: Duel, actions: list[Action], detail: int | None = None, boss_plies: int = 1) -> Verdict:
    """Scores every action; one that cannot do anything now (GROWL at -6, a second LEECH SEED, a Normal
    move into a Ghost: engine/combat/futility.py) is scored but never chosen while anything else is on
    offer. With `boss_plies` 2, close calls against a boss are settled two plies deep (see _deeper).
    `detail`: the turn's (SEARCH_DETAIL, or FULL_PARTY_DETAIL for a party of FULL_PARTY or more)."""
    if detail is None:
        detail = FULL_PARTY_DETAIL if len(duel.us.members) >= FULL_PARTY else SEARCH_DETAIL
    judge = Judge()
    answers = enemy.choices(duel)
    worth = [i for i, action in enumerate(actions) if not _pointless(duel, action)] or list(
        range(len(actions))
    )
    cheaper = _cheaper_alike(duel, actions)
    unsearched = _weak_switches(duel, actions, judge) if len(duel.us.members) >= FULL_PARTY else {}
    scores = dict(unsearched)
    for i, action in enumerate(actions):
        if i not in cheaper and i not in unsearched:
            scores[i] = _score(duel, action, _answers(duel, action, answers), judge, detail)
    for i, alike in cheaper.items():
        # The same position for more money: scored as the cheaper item, less its own price.
        scores[i] = replace(scores[alike], action=actions[i])
    scored = tuple(scores[i] for i in range(len(actions)))
    worth = [i for i in worth if i not in unsearched] or worth
    return _verdict(duel, actions, answers, judge, scored, worth, boss_plies)


def _weak_switches(duel: Duel, actions: list[Action], judge: Judge) -> dict[int, Scored]:
    """The switches past the SWITCHES_SEARCHED best by their member's duel with the enemy in front, each
    with that duel's chance as an unsearched score."""
    switches = [i for i, action in enumerate(actions) if isinstance(action, Switch)]
    if len(switches) <= SWITCHES_SEARCHED:
        return {}
    duels = {}
    for i in switches:
        action = actions[i]
        assert isinstance(action, Switch)
        duels[i] = judge.duel(duel, coming=action.member)
    ranked = sorted(switches, key=lambda i: _prospect(duel, actions[i], duels[i]), reverse=True)
    return {
        i: Scored(actions[i], duels[i].win, 0.0, 0.0, duels[i].turns_to_ko, searched=False, ko=duels[i].win)
        for i in ranked[SWITCHES_SEARCHED:]
    }


def _prospect(duel: Duel, action: Action, odds: DuelOdds) -> tuple[float, float]:
    """As the judge ranks members to send: the duel's chance, then the share of HP the member keeps."""
    assert isinstance(action, Switch)
    return odds.win, odds.our_hp_left / max(1, duel.us.members[action.member].max_hp)


def _verdict(
    duel: Duel,
    actions: list[Action],
    answers: Answers,
    judge: Judge,
    scored: tuple[Scored, ...],
    worth: list[int],
    boss_plies: int,
) -> Verdict:
    index = max(worth, key=lambda i: _ranking(duel, scored[i], actions[i]))
    if boss_plies > 1 and duel.them.trainer_class in enemy.BOSS_CLASSES:
        index, scored = _deeper(duel, actions, answers, judge, scored, worth, index)
    guard = _guard_first(duel, scored, worth)
    if guard is None:
        guard = _sure_first(duel, scored, worth)
    chosen = (
        guard
        if guard is not None
        else _thrifty(duel, scored, worth, _stays(duel, scored, worth, index, judge))
    )
    best = scored[chosen]
    reason = _reason(duel, best, scored)
    if chosen != index and isinstance(scored[index].action, Switch) and _is_attack(duel, best.action):
        ours = judge.duel(duel)
        reason += (f"; stays in: {duel.us.fighter.species} wins its duel with {duel.them.fighter.species} "
                   f"({percent(ours.win)})")  # fmt: skip
    if chosen == guard and chosen != index and isinstance(best.action, Attack):
        reason = f"{label(duel, best.action)}: sure under X_ACCURACY, one hit"
    elif chosen == guard and chosen != index and _x_accuracy(best.action):
        reason = (f"X_ACCURACY first: {label(duel, duel_move(duel))} then knocks out every foe of the room "
                  f"not faster than {duel.us.fighter.species} in one hit")  # fmt: skip
    elif chosen == guard and chosen != index:
        reason = (f"{label(duel, best.action)} first: the rooms ahead need this fighter, and the foe's next "
                  f"hit would knock it out")  # fmt: skip
    elif chosen != index and isinstance(best.action, UseItem):
        reason = f"{best.action.item} first: every later hit of the room counts more (PP no nurse gives back)"
    return Verdict(best=best, index=chosen, scored=scored, reason=reason)


def _cheaper_alike(duel: Duel, actions: list[Action]) -> dict[int, int]:
    """Healing items that leave their member exactly as a cheaper one on the same member does (a MAX
    POTION where a HYPER POTION already fills the bar), each with the place of that cheaper item: the
    position after is the same but for the bag, which keeps the dearer item, so the dearer one can only
    do worse."""
    alike: dict[int, int] = {}
    cheapest: dict[tuple[int, Fighter], int] = {}
    for i, action in sorted(enumerate(actions), key=lambda pair: item_cost(pair[1])):
        if not isinstance(action, UseItem) or action.member < 0:
            continue
        outcome = (action.member, member_after_item(duel.us, action))
        found = cheapest.setdefault(outcome, i)
        if found != i and item_cost(actions[found]) < item_cost(action):
            alike[i] = found
    return alike


Answers = list[tuple[float, Action]]


def _answers(duel: Duel, action: Action, to_attacks: Answers) -> Answers:
    """The enemy's choices against this action: `to_attacks` (worked out once) unless we switch or use an
    item, which the enemy's AI sees before it picks (see enemy_answers)."""
    return to_attacks if isinstance(action, Attack) else enemy_answers(duel, action)


def _preference(duel: Duel, scored: Scored) -> float:
    refund = item_cost(scored.action) * (1 - price_share(duel, scored.action))
    return scored.value + refund + (TIE_MARGIN if _is_attack(duel, scored.action) else 0.0)


def price_share(duel: Duel, action: Action) -> float:
    """How many times its price an item weighs against winning here (see LAST_ROOM, KEPT_FOR_THE_ROOMS)."""
    if duel.them.trainer_class == LAST_ROOM:
        return LAST_ROOM_PRICE_SHARE
    if duel.them.trainer_class in CHAIN_ROOMS or not isinstance(action, UseItem):
        return 1.0
    found = BATTLE_ITEMS.get(action.item)
    return KEPT_FOR_THE_ROOMS if found is not None and found.kind is ItemKind.RESTORE_PP else 1.0


def _thrifty(duel: Duel, scored: tuple[Scored, ...], worth: list[int], index: int) -> int:
    """In the Elite Four's rooms, when the best line is an attack: the attack within PP_MARGIN of it that
    leaves the most (see pp_cost). Only attacks weigh PP against each other: an absolute cost put every
    attack below a switch, and BLASTOISE and VICTREEBEL traded places with LANCE's DRAGONAIR for 195 turns."""
    if duel.them.trainer_class not in CHAIN_ROOMS or not _is_attack(duel, scored[index].action):
        return index
    top = _preference(duel, scored[index])
    boost = _boost_first(duel, scored, worth, index)
    if boost is not None and _preference(duel, scored[boost]) >= top - BOOST_MARGIN:
        return boost
    close = [i for i in worth if _is_attack(duel, scored[i].action)
             and _preference(duel, scored[i]) >= top - PP_MARGIN]  # fmt: skip
    return max(close, key=lambda i: _preference(duel, scored[i]) - pp_cost(duel, scored[i].action))


def _stays(duel: Duel, scored: tuple[Scored, ...], worth: list[int], index: int, judge: Judge) -> int:
    """Against a trainer, a member that wins its duel with the foe in front (STAY_DUEL) attacks rather than
    switch out: the whole battle's chain judges the switch by the members it sends later, and it read a
    sacrifice as the way to a free choice of them. A run's ODDISH, sure against ERIKA's VICTREEBEL, was
    switched out for a WARTORTLE that RAZOR LEAF knocked out on the way in ("switch to WARTORTLE: >99% to
    win"); from that battle's start the search won 3 of 8 draws and max-damage, attacking, 8 of 8."""
    switch = scored[index].action
    if duel.wild or duel.us.fighter.fainted or not isinstance(switch, Switch):
        return index
    ours = judge.duel(duel)
    if ours.win < STAY_DUEL or _sure_and_sooner(duel, switch, ours, judge):
        return index
    attacks = [i for i in worth if _is_attack(duel, scored[i].action)]
    return max(attacks, key=lambda i: _preference(duel, scored[i])) if attacks else index


def _sure_and_sooner(duel: Duel, switch: Switch, ours: DuelOdds, judge: Judge) -> bool:
    """The member a switch brings wins its own duel with the foe in front as surely as the one in front,
    even after the foe's worst hit on the way in (`reach`), and knocks the foe out in at most half the
    turns, when those are more than STAY_TURNS: a sure win is no reason to chip for thirty turns. A run's
    ODDISH, sure against a trainer's ODDISH, used CUT 22 times with a WARTORTLE behind it whose BODY SLAM
    knocks it out in one (a tournament battle of Red seed 57: 63 turns, 27,710 frames)."""
    if ours.turns_to_ko <= STAY_TURNS:
        return False
    member = duel.us.members[switch.member]
    hit = reach(duel.them.fighter, member)
    if hit >= member.hp:
        return False
    hurt = member.with_hp(int(member.hp - hit))
    members = tuple(hurt if at == switch.member else other for at, other in enumerate(duel.us.members))
    theirs = judge.duel(duel._replace(us=duel.us._replace(members=members)), coming=switch.member)
    return theirs.win >= STAY_DUEL and theirs.turns_to_ko * 2 <= ours.turns_to_ko


def _guard_first(duel: Duel, scored: tuple[Scored, ...], worth: list[int]) -> int | None:
    """In the Elite Four's rooms, a fighter below DANGER of its HP that the foe in front can knock out drinks
    the bag's best heal for it first, as the chain's forecast plays (team/gauntlet.py greedy). The search
    weighs the room alone, where a fighter lost is a price like any other while a member is left to win
    with: a run's BLASTOISE at 18% attacked LANCE's DRAGONITE with a FULL RESTORE in the bag ("99% to
    win"), fell to HYPER BEAM, VILEPLUME won the room in 96 turns, and the Champion met a RATTATA."""
    me, foe = duel.us.fighter, duel.them.fighter
    if duel.them.trainer_class not in CHAIN_ROOMS or me.hp >= DANGER * me.max_hp:
        return None
    if me.level <= max(member.level for member in duel.us.members) - FIGHTER_LEVELS:
        return None  # a field-move carrier: the rooms ahead do not hang on it
    if reach(foe, me) < me.hp or threat(foe, me) >= me.max_hp:
        return None  # no knock-out ahead, or one no heal would outlast
    heals = [i for i in worth if _heals_front(duel, scored[i].action)]
    # The bag's biggest heal, as the forecast drinks it: the rooms' stock is bought for these turns.
    return max(heals, key=lambda i: _healed_by(scored[i].action)) if heals else None


def _sure_first(duel: Duel, scored: tuple[Scored, ...], worth: list[int]) -> int | None:
    """In the gauntlet's rooms, the Champion's too: X ACCURACY while the foe is no threat, when the member in
    front holds a one-hit knock-out move it makes sure against this foe, as the chain's forecast plays
    (team/gauntlet.py greedy). One room weighed alone rarely pays an item's price for it; the stock was
    bought for these rooms, and every foe after it in the room falls to one FISSURE."""
    me, foe = duel.us.fighter, duel.them.fighter
    sure = sure_knock_out(me, foe)
    if duel.them.trainer_class not in GAUNTLET_ROOMS or sure is None:
        return None
    if me.x_accuracy:
        # Taken for this: the sure knock-out, unless another move with PP knocks out in one hit as well.
        ones = [slot for slot, pp in enumerate(me.pp)
                if pp > 0 and slot != sure and move_pace(me, foe, slot)[0] >= foe.hp]  # fmt: skip
        return None if ones else next((i for i in worth if scored[i].action == Attack(sure)), None)
    if threat(foe, me) * SAFE_TURNS >= me.hp:
        return None
    return next((i for i in worth if _x_accuracy(scored[i].action)), None)


def _x_accuracy(action: Action) -> bool:
    return isinstance(action, UseItem) and action.item == "X_ACCURACY"


def duel_move(duel: Duel) -> Attack:
    """The one-hit knock-out move X ACCURACY is taken for."""
    slot = sure_knock_out(duel.us.fighter, duel.them.fighter)
    return Attack(STRUGGLE_SLOT if slot is None else slot)


def _healed_by(action: Action) -> int:
    assert isinstance(action, UseItem)
    return FULL_HEAL_HP if action.heal is None else action.heal


def _heals_front(duel: Duel, action: Action) -> bool:
    """An item that gives the member in front HP (None: all of it; a FULL HEAL gives none)."""
    return isinstance(action, UseItem) and action.member == duel.us.active and action.heal != 0


def _boost_first(duel: Duel, scored: tuple[Scored, ...], worth: list[int], index: int) -> int | None:
    """The X item for the stat the chosen attack hits with, while the foe is no threat and the attack alone
    would not knock it out, up to BOOSTED stages: two X SPECIALs before LORELEI's first member double every
    SURF for the rest of the room, so the room takes half the PP. As the chain's forecast plays
    (team/gauntlet.py), so that what the plan waited for is what the fight does."""
    me, foe = duel.us.fighter, duel.them.fighter
    action = scored[index].action
    assert isinstance(action, Attack)
    if action.slot < 0 or move_pace(me, foe, action.slot)[0] >= foe.hp:
        return None
    if threat(foe, me) * SAFE_TURNS >= me.hp:
        return None
    physical = move_of(me, action.slot).type in PHYSICAL_TYPES
    stat, item = (ATTACK, "X_ATTACK") if physical else (SPECIAL, "X_SPECIAL")
    if me.stages[stat] >= BOOSTED:
        return None
    for i in worth:
        held = scored[i].action
        if isinstance(held, UseItem) and held.item == item:
            return i
    return None


def threat(foe: Fighter, me: Fighter) -> float:
    """The most one of the foe's moves is expected to do to `me`."""
    return max((move_pace(foe, me, slot)[0] for slot, pp in enumerate(foe.pp) if pp > 0), default=0.0)


def reach(foe: Fighter, me: Fighter) -> float:
    """The most one of the foe's moves does to `me` on a bad draw (two standard deviations over its mean:
    a critical hit, a high roll). LANCE's GYARADOS's HYPER BEAM is about 70 to a L63 BLASTOISE and 137
    when critical; a fighter at 81 HP, healed by 50 rather than in full, fell to it."""
    worst = (mean + 2 * math.sqrt(var) for slot, pp in enumerate(foe.pp) if pp > 0
             for mean, var in (move_pace(foe, me, slot),))  # fmt: skip
    return max(worst, default=0.0)


def pp_cost(duel: Duel, action: Action) -> float:
    """What a move's PP is worth in the Elite Four's rooms (see CHAIN_ROOMS) beyond the attack with the
    most PP to spare; nothing elsewhere."""
    if duel.them.trainer_class not in CHAIN_ROOMS or not isinstance(action, Attack) or action.slot < 0:
        return 0.0
    me = duel.us.fighter
    spare = [pp for slot, pp in enumerate(me.pp) if pp > 0 and deals_damage(move_of(me, slot))]
    if not spare:
        return 0.0
    return max(0.0, PP_WEIGHT / max(1, me.pp[action.slot]) - PP_WEIGHT / max(spare))


def _score(
    duel: Duel,
    action: Action,
    answers: list[tuple[float, Action]],
    judge: Judge,
    detail: int,
    play_on: bool = True,
) -> Scored:
    win = kept = standing = 0.0
    pace = KnockOut()
    play_on = play_on and isinstance(action, Switch)
    for q, answer in answers:
        for p, after in resolve_turn(duel, action, answer, detail):
            played = play_on and q * p >= PLAYED_ON_MASS and _lost_a_member(after)
            outlook = _played_on(after, judge) if played else judge.outlook(after)
            win += q * p * outlook.win
            kept += q * p * outlook.kept
            standing += q * p * outlook.standing
            pace.add(q * p, judge.duel(after))
    return Scored(action, win, kept, standing, pace.turns, ko=pace.chance)


def _lost_a_member(after: Duel) -> bool:
    return after.us.fighter.fainted and not after.over and not (after.wild and after.them.fighter.fainted)


def _played_on(after: Duel, judge: Judge) -> Outlook:
    """A switch whose member went down before it could act: the member the judge sends next plays its
    first turn too (its best attack, searched), then the judge. The switch is then judged as deep as an
    attack: the judge alone is kinder than a turn played, and switching a PIDGEY in to be knocked out (the
    WARTORTLE then judged fresh) looked better than attacking with the WARTORTLE (a lost rival battle of
    a real run). Only for switches: an attack that costs its member is weighed against attacks alike,
    and playing on after every knock-out doubled a full party's search."""
    sent = judge.next_position(after)
    if sent.over or sent.us.fighter.fainted:
        return judge.outlook(sent)
    replies = enemy.choices(sent)
    scored = (
        _score(sent, attack, replies, judge, PLAYED_ON_DETAIL, play_on=False) for attack in attacks(sent)
    )
    best = max(scored, key=lambda s: s.value)
    return Outlook(best.win, best.kept, best.standing)


class KnockOut:
    """When the enemy in front goes down, over the ways a turn can end: each way weighs by its chance
    times its duel's (the knock-out happens only in duels we win), so "KO in N turns" is the turn the
    knock-out comes in when it comes. One likeliest way stood for all before, and a move that splits no
    way (a Normal move into a Ghost) looked quicker than a hit whose damage rolls split the same ways."""

    def __init__(self) -> None:
        self.chance = 0.0
        self._turns = 0.0

    def add(self, p: float, odds: DuelOdds) -> None:
        if odds.win > 0 and not math.isinf(odds.turns_to_ko):
            self.chance += p * odds.win
            self._turns += p * odds.win * odds.turns_to_ko

    @property
    def turns(self) -> float:
        """This turn counts: a knock-out now shows as "in 1 turn"."""
        return 1 + self._turns / self.chance if self.chance > 0 else math.inf


def _deeper(
    duel: Duel,
    actions: list[Action],
    answers: list[tuple[float, Action]],
    judge: Judge,
    scored: tuple[Scored, ...],
    worth: list[int],
    index: int,
) -> tuple[int, tuple[Scored, ...]]:
    """The best few actions, when they are within DEEP_MARGIN of each other, scored again with our best
    attack next turn searched instead of judged, and the best of them by that score: the judge's race
    assumes one best move for the rest of the duel, which misjudges a setup that pays only later or a hit
    that leaves the enemy in reach. Only when the first ply judged at most DEEP_WORK positions, so that
    the second stays within the decision's budget."""
    ranked = sorted(worth, key=lambda i: _preference(duel, scored[i]), reverse=True)
    top = _preference(duel, scored[index])
    close = [i for i in ranked[:DEEP_CANDIDATES] if top - _preference(duel, scored[i]) <= DEEP_MARGIN]
    if len(close) < 2 or judge.positions > DEEP_WORK:
        return index, scored
    deeper = list(scored)
    searched: list[int] = []
    while close:
        for i in close:
            deeper[i] = _score_two_plies(duel, actions[i], _answers(duel, actions[i], answers), judge)
        searched += close
        best = max(searched, key=lambda i: _preference(duel, deeper[i]))
        # Two plies can sink the lines it looked at below one it did not (a confused member's attack,
        # its self-hit bringing NIGHT SHADE's knock-out in reach, below a FULL RESTORE): that one is
        # looked at two plies deep too, so that the choice compares like with like.
        passed = [i for i in ranked if i not in searched
                  and _preference(duel, scored[i]) > _preference(duel, deeper[best])]  # fmt: skip
        close = passed[:1] if len(searched) < DEEP_MOST else []
    return best, tuple(deeper)


def _score_two_plies(duel: Duel, action: Action, answers: list[tuple[float, Action]], judge: Judge) -> Scored:
    win = kept = standing = 0.0
    pace = KnockOut()
    for q, answer in answers:
        for p, after in resolve_turn(duel, action, answer, DEEP_DETAIL):
            if after.over or after.us.fighter.fainted or after.them.fighter.fainted:
                outlook = judge.outlook(after)
                then = Scored(action, outlook.win, outlook.kept, outlook.standing, 0.0)
                pace.add(q * p, judge.duel(after))
            else:
                replies = enemy.choices(after)
                then = max(
                    (_score(after, attack, replies, judge, DEEP_DETAIL) for attack in attacks(after)),
                    key=lambda s: s.value,
                )
                pace.add(q * p, DuelOdds(then.ko, then.turns_to_ko, our_hp_left=0, their_hp_left=0))
            win += q * p * then.win
            kept += q * p * then.kept
            standing += q * p * then.standing
    return Scored(action, win, kept, standing, pace.turns, ko=pace.chance)


def attacks(duel: Duel) -> list[Action]:
    """Every move of the member in front that has PP, or Struggle."""
    return [Attack(i) for i, pp in enumerate(duel.us.fighter.pp) if pp > 0] or [Attack(-1)]


def _pointless(duel: Duel, action: Action) -> bool:
    if isinstance(action, UseItem):
        return futile_item(action.item, duel.us.fighter, duel.them.fighter)
    if not isinstance(action, Attack) or action.slot < 0:
        return False
    return futile(move_of(duel.us.fighter, action.slot), duel.us.fighter, duel.them.fighter)


def _ranking(duel: Duel, scored: Scored, action: Action) -> tuple[int, float]:
    return round(_preference(duel, scored) / ALIKE), _hit_now(duel, action)


def _hit_now(duel: Duel, action: Action) -> float:
    """The damage an attack is expected to deal this turn (0 for anything else): the tie-break between
    lines alike."""
    if not isinstance(action, Attack):
        return 0.0
    return move_pace(duel.us.fighter, duel.them.fighter, action.slot)[0]


def _is_attack(duel: Duel, action: Action) -> bool:
    return isinstance(action, Attack) and deals_damage(move_of(duel.us.fighter, action.slot))


def _alike_attacks(duel: Duel, best: Scored, plain: Scored) -> bool:
    """Two attacks the ranking cannot tell apart (outside the chain's rooms, where PP tells them apart)."""
    return (
        _is_attack(duel, best.action)
        and duel.them.trainer_class not in CHAIN_ROOMS
        and round(best.value / ALIKE) == round(plain.value / ALIKE)
    )


def label(duel: Duel, action: Action) -> str:
    if isinstance(action, Attack):
        return move_of(duel.us.fighter, action.slot).name
    if isinstance(action, Switch):
        return f"switch to {duel.us.members[action.member].species}"
    assert isinstance(action, UseItem)
    return action.item


def knock_out(scored: Scored) -> str:
    """ "KO in N turns" when the member in front more likely than not knocks the enemy out, at the turn it
    comes in then; "KO never" when it cannot, "KO unlikely" below an even chance."""
    if math.isinf(scored.turns_to_ko) or scored.ko <= 0:
        return "KO never"
    if scored.ko < KO_SHOWN:
        return "KO unlikely"
    turns = round(scored.turns_to_ko)
    return f"KO in {turns} turn{'s' if turns != 1 else ''}"


def _reason(duel: Duel, best: Scored, scored: tuple[Scored, ...]) -> str:
    name = label(duel, best.action)
    attacks = [s for s in scored if _is_attack(duel, s.action) and not _pointless(duel, s.action)]
    plain = max(attacks, key=lambda s: s.value, default=None)
    if plain is None or plain is best:
        return f"{name}: {percent(best.win)} to win, {knock_out(best)}"
    other = label(duel, plain.action)
    if _alike_attacks(duel, best, plain):
        # The tie-break between lines alike, not a setup: "SURF first: then KO in 1 turn instead of in 1
        # turn" said nothing true.
        return f"{name}: {percent(best.win)} to win, {knock_out(best)}; as good as {other}, a harder hit now"
    if abs(best.win - plain.win) >= WIN_SHOWN:
        gain = f"{percent(best.win)} to win against {percent(plain.win)} with {other}"
    elif (
        isinstance(best.action, Attack)
        and isinstance(plain.action, Attack)
        and pp_cost(duel, plain.action) > 0
    ):
        left = duel.us.fighter.pp[plain.action.slot]
        gain = f"saves {other}'s PP ({left} left) for the rooms ahead"
    else:
        gain = f"keeps {best.kept:.0%} of the party's HP against {plain.kept:.0%} with {other}"
    if isinstance(best.action, Attack):
        then, instead = knock_out(best), knock_out(plain).removeprefix("KO ")
        return f"{name} first: then {then} instead of {instead}; {gain}"
    return f"{name}: {gain}"
