"""The whole battle from a position: duels chained member after member, with what our side keeps.

The winner of a duel (engine/combat/race.py) goes on with the HP it is expected to keep, our next member is
the one with the best chance against the enemy in front of it, a trainer's next member is the next in its
party. Remembered within one decision: the search's branches share most positions.
"""

from __future__ import annotations

from typing import NamedTuple

from engine.combat.fighter import Duel, Side, fresh
from engine.combat.race import DuelOdds, duel_odds, race_key


class Judge:
    """Whole-battle odds, remembered within one decision (positions repeat across the search's branches).

    `status_plans`: count on putting the enemy to sleep, paralysing or poisoning it. Right for a forecast;
    wrong at the search's leaves, where a plan that can always start next turn makes starting it now look
    no better, so the search would put it off for ever."""

    def __init__(self, status_plans: bool = False) -> None:
        self.status_plans = status_plans
        self._duels: dict[tuple[object, ...], DuelOdds] = {}
        self._battles: dict[Duel, Outlook] = {}

    def duel(self, duel: Duel) -> DuelOdds:
        key = race_key(duel)
        found = self._duels.get(key)
        if found is None:
            found = self._duels[key] = duel_odds(duel, self.status_plans)
        return found

    def battle(self, duel: Duel) -> float:
        """The chance we win the whole battle from here."""
        return self.outlook(duel).win

    def outlook(self, duel: Duel) -> Outlook:
        """The chance we win the whole battle from here, and the share of our party's HP we keep."""
        if duel.them.defeated or (duel.wild and duel.them.fighter.fainted):
            return Outlook(win=1.0, kept=_kept(duel.us), standing=_standing(duel.us))
        if duel.us.defeated:
            return Outlook(win=0.0, kept=0.0, standing=0.0)
        found = self._battles.get(duel)
        if found is None:
            found = self._battles[duel] = self._chain(duel)
        return found

    def _chain(self, duel: Duel) -> Outlook:
        if duel.us.fighter.fainted:
            return max((self.outlook(_send(duel, True, i)) for i in duel.us.able()), key=lambda o: o.win)
        if duel.them.fighter.fainted:
            return self.outlook(_send(duel, False, duel.them.able()[0]))
        odds = self.duel(duel)
        won = self.outlook(_leave(duel, False, odds.our_hp_left, odds.heals_used))
        lost = self.outlook(_leave(duel, True, odds.their_hp_left, odds.heals_used))
        p = odds.win
        return Outlook(
            win=p * won.win + (1 - p) * lost.win,
            kept=p * won.kept + (1 - p) * lost.kept,
            standing=p * won.standing + (1 - p) * lost.standing,
        )


class Outlook(NamedTuple):
    win: float
    kept: float  # expected share of our party's HP left at the end (0 when we lose)
    standing: float  # expected share of our members still standing at the end (0 when we lose)


def _standing(side: Side) -> float:
    return sum(not m.fainted for m in side.members) / max(1, len(side.members))


def _kept(side: Side) -> float:
    return sum(m.hp for m in side.members) / max(1, sum(m.max_hp for m in side.members))


def _leave(duel: Duel, ours_lost: bool, winner_hp: int, heals_used: int = 0) -> Duel:
    """After a duel: the loser is down; the winner keeps `winner_hp` and its state; the healing items the
    duel counted on are spent."""
    us = duel.us._replace(heals=duel.us.heals[heals_used:]) if heals_used else duel.us
    loser, winner = (us, duel.them) if ours_lost else (duel.them, us)
    loser = loser.with_fighter(loser.fighter.with_hp(0))
    winner_fighter = winner.fighter
    winner = winner.with_fighter(winner_fighter.with_hp(min(winner_fighter.hp, winner_hp)))
    return (
        Duel(us=loser, them=winner, wild=duel.wild)
        if ours_lost
        else Duel(us=winner, them=loser, wild=duel.wild)
    )


def _send(duel: Duel, ours: bool, member: int) -> Duel:
    side = duel.side(ours)
    coming = fresh(side.members[member], side.badges)
    sent: Side = side._replace(active=member, turns_out=0)
    return duel.with_side(ours, sent.with_fighter(coming))


def win_probability(duel: Duel) -> float:
    """The chance of winning the whole battle from this position, with no search (fast: for planning)."""
    return Judge(status_plans=True).battle(duel)
