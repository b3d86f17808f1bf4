"""The whole battle from a position: duels chained member after member, with what our side keeps.

The winner of a duel (engine/combat/race.py) goes on with the HP it is expected to keep, our next member is
the one with the best chance against the enemy in front of it, a trainer's next member is the next in its
party. Remembered within one decision: the search's branches share most positions.

A full tree of duels is exponential in the party sizes (six against six took seconds), so the judge spends
its work where the chance is: each position carries the chance of being reached, our next member is weighed
over the whole battle only where that chance is large (elsewhere the best duel decides), unlikely positions
follow only their likeliest path, a knocked-out member is just a place in the party, and the HP a winner
keeps is rounded to a sixteenth of its bar. Races are remembered across decisions.
"""

from __future__ import annotations

from typing import NamedTuple

from engine.combat.collector import collector_paused
from engine.combat.fighter import VOLATILE, Duel, Fighter, Side, Switch, fresh
from engine.combat.memo import keep
from engine.combat.race import DuelOdds, duel_odds, race_key
from engine.combat.turn import enemy_answers, resolve_turn

# Races and knocked-out members remembered across decisions, at most (a six-against-six search races a few
# hundred; ~1 KB an entry).
KEPT = 1 << 12
_RACES: dict[tuple[object, ...], DuelOdds] = {}
_DOWN: dict[Fighter, Fighter] = {}
# Below this chance of being reached, a position's battle is sketched along its likeliest path: 2% in the
# search (its leaves are many), 0.1% for a forecast (one position, and a sure win must really be sure).
SKETCH_MASS = 0.02
FORECAST_SKETCH_MASS = 0.001
# At or above this chance of being reached, our next member after a knock-out is, of the WEIGHED with the
# best duels, the one whose whole battle goes best (each weighed with an even share of the chance); below
# it, the one with the best duel.
WEIGH_MASS = 0.1
WEIGHED = 2  # the members with the best duels weighed over the whole battle (the rest rarely win it)


class Judge:
    """Whole-battle odds, remembered within one decision (positions repeat across the search's branches).

    `status_plans`: count on putting the enemy to sleep, paralysing or poisoning it. Right for a forecast;
    wrong at the search's leaves, where a plan that can always start next turn makes starting it now look
    no better, so the search would put it off for ever."""

    def __init__(self, status_plans: bool = False, sketch_mass: float | None = None) -> None:
        self.status_plans = status_plans
        self.sketch_mass = SKETCH_MASS if sketch_mass is None else sketch_mass
        self._battles: dict[Duel, Outlook] = {}
        self._sketches: dict[Duel, Outlook] = {}
        self.positions = 0  # judged so far, for a caller's budget

    def duel(self, duel: Duel, coming: int | None = None, plans: bool = True) -> DuelOdds:
        """The race of the members in front (its setup and status plans only with `plans`), or with our
        member `coming` sent out first (looked up before that position is built: most are remembered).
        Races are remembered across decisions too: the next turn's search meets the same members, fresh
        from the bench, against the same enemies."""
        ours = None if coming is None else fresh(duel.us.members[coming], duel.us.badges)
        key = (race_key(duel, ours), self.status_plans, plans)
        found = _RACES.get(key)
        if found is None:
            sent = duel if coming is None else _send(duel, True, coming)
            found = keep(_RACES, key, duel_odds(sent, self.status_plans, plans), KEPT)
        return found

    def battle(self, duel: Duel) -> float:
        """The chance we win the whole battle from here."""
        return self.outlook(duel).win

    def outlook(self, duel: Duel, mass: float = 1.0) -> Outlook:
        """The chance we win the whole battle from here, and the share of our party's HP we keep. `mass`:
        the chance of reaching this position at all (below the judge's sketch mass only its likeliest path
        is followed)."""
        if duel.them.defeated or (duel.wild and duel.them.fighter.fainted):
            return Outlook(win=1.0, kept=_kept(duel.us), standing=_standing(duel.us))
        if duel.us.defeated:
            return Outlook(win=0.0, kept=0.0, standing=0.0)
        memo = self._battles if mass >= self.sketch_mass else self._sketches
        found = memo.get(duel)
        if found is None:
            found = memo[duel] = self._chain(duel, mass)
        return found

    def _chain(self, duel: Duel, mass: float) -> Outlook:
        self.positions += 1
        if duel.us.fighter.fainted:
            ranked = self._ranked(duel)
            if mass >= WEIGH_MASS and len(ranked) > 1:
                weighed = ranked[:WEIGHED]
                share = mass / len(weighed)
                sent = (self.outlook(_send(duel, True, i), share) for i in weighed)
                return max(sent, key=lambda o: o.win)
            return self.outlook(_send(duel, True, ranked[0]), mass)
        if duel.them.fighter.fainted:
            return self.outlook(_their_next(duel), mass)
        # A sketched position races plainly: its setup plans would cost more than its mass can repay.
        odds = self.duel(duel, plans=mass >= self.sketch_mass)
        p = odds.win
        if mass < self.sketch_mass:
            # A position this unlikely is sketched: the battle after it follows whichever way the duel
            # most likely goes (a chain, not a tree); what it gets wrong weighs at most its mass.
            if p >= 0.5:
                return self.outlook(_their_next(_leave(duel, False, odds.our_hp_left, odds.heals_used)), mass)
            return self.outlook(_leave(duel, True, odds.their_hp_left, odds.heals_used), mass)
        won_at = _their_next(_leave(duel, False, odds.our_hp_left, odds.heals_used))
        lost_at = _leave(duel, True, odds.their_hp_left, odds.heals_used)
        won = self.outlook(won_at, mass * p)
        lost = self.outlook(lost_at, mass * (1 - p))
        return Outlook(
            win=p * won.win + (1 - p) * lost.win,
            kept=p * won.kept + (1 - p) * lost.kept,
            standing=p * won.standing + (1 - p) * lost.standing,
        )

    def next_position(self, duel: Duel) -> Duel:
        """After a knock-out: a trainer's next member out, and ours as the judge would send it."""
        if duel.them.fighter.fainted and not duel.wild:
            duel = _their_next(duel)
        if duel.us.fighter.fainted and not duel.us.defeated:
            duel = _send(duel, True, self._ranked(duel)[0])
        return duel

    def _ranked(self, duel: Duel) -> list[int]:
        """Our members who could come out after a knock-out, the best duel against the enemy in front
        first (its chance of winning, then the share of HP it keeps)."""
        able = duel.us.able()
        if len(able) == 1:
            return able

        def prospect(member: int) -> tuple[float, float]:
            odds = self.duel(duel, coming=member)
            return odds.win, odds.our_hp_left / max(1, duel.us.members[member].max_hp)

        return sorted(able, key=prospect, reverse=True)


class Outlook(NamedTuple):
    win: float
    kept: float  # expected share of our party's HP left at the end (0 when we lose)
    standing: float  # expected share of our members still standing at the end (0 when we lose)


def _standing(side: Side) -> float:
    return sum(not m.fainted for m in side.members) / max(1, len(side.members))


def _kept(side: Side) -> float:
    return sum(m.hp for m in side.members) / max(1, sum(m.max_hp for m in side.members))


def _leave(duel: Duel, ours_lost: bool, winner_hp: int, heals_used: int = 0) -> Duel:
    """After a duel: the loser is down; the winner keeps `winner_hp` and its state but for what the duel's
    race spent (a charged move's hit, a THRASH, Bide, a trapping move, a recharge); the healing items the
    duel counted on are spent."""
    us = duel.us._replace(heals=duel.us.heals[heals_used:]) if heals_used else duel.us
    loser, winner = (us, duel.them) if ours_lost else (duel.them, us)
    loser = loser.with_fighter(_down(loser.fighter))
    winner_fighter = _spent(winner.fighter)
    kept = _bucketed(min(winner_fighter.hp, winner_hp), winner_fighter.max_hp)
    # The PP the duel used are not followed; what the winner has left is kept coarsely (the race rations a
    # move only where its PP runs out within the duel), so positions after it share the rest of the battle.
    pp = winner_fighter.pp
    winner = winner.with_fighter(winner_fighter.with_hp_pp(kept, _PP_KEPT.get(pp) or _coarse_pp(pp)))
    return (
        Duel(us=loser, them=winner, wild=duel.wild)
        if ours_lost
        else Duel(us=winner, them=loser, wild=duel.wild)
    )


def _spent(fighter: Fighter) -> Fighter:
    """A duel's winner without the turns its race already counted: a charge kept would land its hit again
    in every duel after (a BLASTOISE charging SKULL BASH judged every later enemy a turn behind)."""
    locked = fighter.thrashing or fighter.bide or fighter.trapping or fighter.recharging
    if fighter.charging < 0 and not locked:
        return fighter
    return fighter._replace(charging=-1, thrashing=0, bide=0, bide_damage=0, trapping=0, recharging=False)


HP_STEPS = 16
_PP_STEPS = (16, 8, 4, 3, 2, 1)  # a winner's PP left, rounded down to one of these (or 0)
_PP_KEPT: dict[tuple[int, ...], tuple[int, ...]] = {}


def _coarse_pp(pp: tuple[int, ...]) -> tuple[int, ...]:
    coarse = tuple(next((step for step in _PP_STEPS if left >= step), 0) for left in pp)
    return keep(_PP_KEPT, pp, coarse, KEPT)


def _bucketed(hp: int, max_hp: int) -> int:
    """The HP a duel's winner is expected to keep, to the nearest step of its bar (never 0): the race's
    estimate is no finer, and the positions after it then share the rest of the battle."""
    step = max_hp / HP_STEPS
    return max(1, min(max_hp, round(round(hp / step) * step)))


def _down(fighter: Fighter) -> Fighter:
    """A knocked-out member as the rest of the battle sees it: nothing but its place. Positions that differ
    only in how the member went down (its stages, PP or status at the end) then share what follows."""
    found = _DOWN.get(fighter)
    if found is None:
        found = keep(_DOWN, fighter, _knocked_out(fighter), KEPT)
        _DOWN[found] = found
    return found


def _knocked_out(fighter: Fighter) -> Fighter:
    return fighter._replace(**VOLATILE, hp=0, status="OK", sleep_turns=0, pp=(0,) * len(fighter.pp))


def _their_next(duel: Duel) -> Duel:
    """After the enemy's member is knocked out, a trainer's next one is out at once: its order is fixed,
    so the position in between needs no judging of its own (a quarter of the positions of a long battle)."""
    if duel.wild:
        return duel
    able = duel.them.able()
    return _send(duel, False, able[0]) if able else duel


def _send(duel: Duel, ours: bool, member: int) -> Duel:
    side = duel.side(ours)
    if side.fighter.fainted:
        side = side.with_fighter(_down(side.fighter))
    coming = fresh(side.members[member], side.badges)
    sent: Side = side._replace(active=member, turns_out=0)
    return duel.with_side(ours, sent.with_fighter(coming))


# The turn detail of a forecast's switches (damage groups, sleep lengths): one switch a member, so coarse.
SWITCH_DETAIL = 2


@collector_paused
def win_probability(duel: Duel) -> float:
    """The chance of winning the whole battle from this position, with no search (fast: for planning):
    the better of fighting on with the member in front and switching now to one on the bench (who takes
    the enemy's move of this turn). A player leads a weak member into a boss and switches at once; a
    forecast that could not would call the battle lost."""
    judge = Judge(status_plans=True, sketch_mass=FORECAST_SKETCH_MASS)
    stay = judge.battle(duel)
    if stay >= _SURE_ENOUGH or duel.us.fighter.fainted or duel.over:
        return stay
    return max([stay] + [_switched(judge, duel, member) for member in duel.us.able()])


_SURE_ENOUGH = 0.995  # past this, no switch is weighed: it could add half a percent at most


def _switched(judge: Judge, duel: Duel, member: int) -> float:
    switch = Switch(member)
    return sum(
        q * p * judge.battle(after)
        for q, answer in enemy_answers(duel, switch)
        for p, after in resolve_turn(duel, switch, answer, SWITCH_DETAIL)
    )
