"""The battle search: every action we may take, against every answer the enemy may give, through every
way the turn can go, judged by the chance of winning the whole battle afterwards.

One ply of expectimax over the turn model (engine/combat/turn.py) with the race judge
(engine/combat/race.py) at the leaves. Setup moves earn their place the way a player reasons: after
TAIL WHIP the race shows the same TACKLE knocking the enemy out in fewer turns.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine.combat import enemy
from engine.combat.chance import percent
from engine.combat.collector import collector_paused
from engine.combat.effects import pointless
from engine.combat.fighter import Action, Attack, Duel, Switch, UseItem, move_of
from engine.combat.hits import deals_damage
from engine.combat.judge import Judge
from engine.combat.turn import enemy_answers, resolve_turn

SEARCH_DETAIL = 2  # damage groups and sleep/confusion lengths per branch
# Between two actions this close in winning chance, prefer attacking: the model is not exact, and a
# hit now is worth more than a setup whose payoff the model only estimates.
TIE_MARGIN = 0.005
# Winning comes first; among ways to win, keeping the party's HP (and members) counts for the battles
# after this one, and an item spent is money: worth this much chance of winning.
KEEP_WEIGHT = 0.05
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
}  # fmt: skip
# Between lines alike in all else, the faster knock-out: fewer turns for the enemy's status moves, Bide,
# a critical hit. Worth at most half a TIE_MARGIN (a turn is worth less than any real difference).
TURN_WEIGHT = 0.00025
MOST_TURNS = 10
# Two plies against a boss (when asked for): the best DEEP_CANDIDATES actions within DEEP_MARGIN of the
# best, at DEEP_DETAIL, when the first ply judged at most DEEP_WORK positions.
DEEP_CANDIDATES = 2
DEEP_MARGIN = 0.02
DEEP_DETAIL = 1
DEEP_WORK = 480
WIN_SHOWN = 0.01  # smaller differences in winning chance are not worth naming in a reason
ITEM_COST = 0.03


@dataclass(frozen=True, slots=True)
class Scored:
    action: Action
    win: float  # chance of winning the battle after taking it
    kept: float  # expected share of our party's HP left at the end
    standing: float  # expected share of our members still standing at the end
    turns_to_ko: float  # then, our expected turns to knock the enemy out

    @property
    def value(self) -> float:
        quicker = TURN_WEIGHT * (MOST_TURNS - min(self.turns_to_ko, MOST_TURNS))
        return (
            self.win
            + KEEP_WEIGHT * self.kept
            + STANDING_WEIGHT * self.standing
            + quicker
            - item_cost(self.action)
        )


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
def search(duel: Duel, actions: list[Action], detail: int = SEARCH_DETAIL, boss_plies: int = 1) -> Verdict:
    """Scores every action; one that cannot do anything now (GROWL at -6, a second LEECH SEED) is scored
    but never chosen while anything else is on offer. With `boss_plies` 2, close calls against a boss are
    settled two plies deep (see _deeper)."""
    judge = Judge()
    answers = enemy.choices(duel)
    worth = [i for i, action in enumerate(actions) if not _pointless(duel, action)] or list(
        range(len(actions))
    )
    scored = tuple(_score(duel, action, _answers(duel, action, answers), judge, detail) for action in actions)
    index = max(worth, key=lambda i: _preference(duel, scored[i]))
    if boss_plies > 1 and duel.them.trainer_class in enemy.BOSS_CLASSES:
        index, scored = _deeper(duel, actions, answers, judge, scored, worth, index)
    best = scored[index]
    return Verdict(best=best, index=index, scored=scored, reason=_reason(duel, best, scored))


Answers = list[tuple[float, Action]]


def _answers(duel: Duel, action: Action, to_attacks: Answers) -> Answers:
    """The enemy's choices against this action: `to_attacks` (worked out once) unless we switch or use an
    item, which the enemy's AI sees before it picks (see enemy_answers)."""
    return to_attacks if isinstance(action, Attack) else enemy_answers(duel, action)


def _preference(duel: Duel, scored: Scored) -> float:
    return scored.value + (TIE_MARGIN if _is_attack(duel, scored.action) else 0.0)


def _score(
    duel: Duel, action: Action, answers: list[tuple[float, Action]], judge: Judge, detail: int
) -> Scored:
    win = kept = standing = 0.0
    likely: tuple[float, Duel] = (-1.0, duel)
    for q, answer in answers:
        for p, after in resolve_turn(duel, action, answer, detail):
            outlook = judge.outlook(after)
            win += q * p * outlook.win
            kept += q * p * outlook.kept
            standing += q * p * outlook.standing
            if q * p > likely[0]:
                likely = (q * p, after)
    # This turn counts: a knock-out now shows as "in 1 turn".
    turns = 1 + judge.duel(likely[1]).turns_to_ko
    return Scored(action=action, win=win, kept=kept, standing=standing, turns_to_ko=turns)


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
    for i in close:
        deeper[i] = _score_two_plies(duel, actions[i], _answers(duel, actions[i], answers), judge)
    return max(close, key=lambda i: _preference(duel, deeper[i])), tuple(deeper)


def _score_two_plies(duel: Duel, action: Action, answers: list[tuple[float, Action]], judge: Judge) -> Scored:
    win = kept = standing = turns = 0.0
    for q, answer in answers:
        for p, after in resolve_turn(duel, action, answer, DEEP_DETAIL):
            if after.over or after.us.fighter.fainted or after.them.fighter.fainted:
                outlook = judge.outlook(after)
                then = Scored(
                    action, outlook.win, outlook.kept, outlook.standing, judge.duel(after).turns_to_ko
                )
            else:
                replies = enemy.choices(after)
                then = max(
                    (_score(after, attack, replies, judge, DEEP_DETAIL) for attack in attacks(after)),
                    key=lambda s: s.value,
                )
            win += q * p * then.win
            kept += q * p * then.kept
            standing += q * p * then.standing
            turns += q * p * min(then.turns_to_ko, MOST_TURNS)
    return Scored(action=action, win=win, kept=kept, standing=standing, turns_to_ko=1 + turns)


def attacks(duel: Duel) -> list[Action]:
    """Every move of the member in front that has PP, or Struggle."""
    return [Attack(i) for i, pp in enumerate(duel.us.fighter.pp) if pp > 0] or [Attack(-1)]


def _pointless(duel: Duel, action: Action) -> bool:
    if not isinstance(action, Attack) or action.slot < 0:
        return False
    move = move_of(duel.us.fighter, action.slot)
    return not deals_damage(move) and pointless(move, duel.us.fighter, duel.them.fighter)


def _is_attack(duel: Duel, action: Action) -> bool:
    return isinstance(action, Attack) and deals_damage(move_of(duel.us.fighter, action.slot))


def label(duel: Duel, action: Action) -> str:
    if isinstance(action, Attack):
        return move_of(duel.us.fighter, action.slot).name
    if isinstance(action, Switch):
        return f"switch to {duel.us.members[action.member].species}"
    assert isinstance(action, UseItem)
    return action.item


def _turns(value: float) -> str:
    return "never" if math.isinf(value) else f"in {value:.0f} turn{'s' if value != 1 else ''}"


def _reason(duel: Duel, best: Scored, scored: tuple[Scored, ...]) -> str:
    name = label(duel, best.action)
    attacks = [s for s in scored if _is_attack(duel, s.action)]
    plain = max(attacks, key=lambda s: s.value, default=None)
    if plain is None or plain is best:
        return f"{name}: {percent(best.win)} to win, KO {_turns(best.turns_to_ko)}"
    other = label(duel, plain.action)
    if abs(best.win - plain.win) >= WIN_SHOWN:
        gain = f"{percent(best.win)} to win against {percent(plain.win)} with {other}"
    else:
        gain = f"keeps {best.kept:.0%} of the party's HP against {plain.kept:.0%} with {other}"
    if isinstance(best.action, Attack):
        return (
            f"{name} first: then KO {_turns(best.turns_to_ko)} instead of {_turns(plain.turns_to_ko)}; {gain}"
        )
    return f"{name}: {gain}"
