"""Whole battles played inside the turn model, sampled turn by turn: a check on the race judge's odds, and
the slow but exact-in-the-model way to estimate a win before a battle.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TypeVar

from engine.combat.fighter import Action, Duel, Switch, fresh
from engine.combat.judge import Judge
from engine.combat.search import attacks, search
from engine.combat.turn import enemy_answers, resolve_turn

MAX_TURNS = 150
ROLLOUT_DETAIL = 8
OurChoice = Callable[[Duel], Action]
T = TypeVar("T")


def searching(duel: Duel) -> Action:
    """Our side as the rule-based tier plays it: the search over attacks and switches."""
    actions = [*attacks(duel), *(Switch(i) for i in duel.us.able())]
    return actions[search(duel, actions).index]


def _pick(options: list[tuple[float, T]], rng: random.Random) -> T:
    """One of the options, drawn by their chances."""
    roll, total = rng.random(), 0.0
    for p, option in options:
        total += p
        if roll < total:
            return option
    return options[-1][1]


def _replace_fainted(duel: Duel) -> Duel:
    if duel.them.fighter.fainted and not duel.them.defeated and not duel.wild:
        member = duel.them.able()[0]
        them = duel.them._replace(active=member, turns_out=0)
        duel = duel._replace(them=them.with_fighter(fresh(them.fighter)))
    if duel.us.fighter.fainted and not duel.us.defeated:
        judge = Judge()
        options = []
        for member in duel.us.able():
            us = duel.us._replace(active=member, turns_out=0)
            sent = duel._replace(us=us.with_fighter(fresh(us.fighter, us.badges)))
            options.append((judge.battle(sent), sent))
        duel = max(options, key=lambda option: option[0])[1]
    return duel


def play_out(duel: Duel, rng: random.Random, ours: OurChoice = searching) -> bool:
    """One battle to its end; True when we win (a battle still going after MAX_TURNS counts as lost)."""
    for _ in range(MAX_TURNS):
        duel = _replace_fainted(duel)
        if duel.them.defeated or (duel.wild and duel.them.fighter.fainted):
            return True
        if duel.us.defeated:
            return False
        action = ours(duel)
        theirs = _pick(enemy_answers(duel, action), rng)
        duel = _pick(resolve_turn(duel, action, theirs, ROLLOUT_DETAIL), rng)
    return False


def sampled_win_rate(duel: Duel, battles: int, seed: int = 0, ours: OurChoice = searching) -> float:
    rng = random.Random(seed)
    return sum(play_out(duel, rng, ours) for _ in range(battles)) / battles
