"""The gap between the forecasts bosses were entered on and what happened, per bar key, and the bar a plan
trains for once the gap is known.

The method: for one key, fights i with forecast f_i, result r_i (1 won, 0 lost) and weight w_i. The boss's
true chance at the forecasts it is entered on is given a Beta prior centred on the weighted mean forecast
f̄ and worth PRIOR_FIGHTS fights (the battle model is trusted as much as that many fights):
Beta(K·f̄, K·(1 − f̄)). The fights update it to Beta(K·f̄ + Σ w·r, K·(1 − f̄) + Σ w·(1 − r)), whose mean less
f̄ is the gap: Σ w·(r − f) / (K + Σ w). A boss lost at a forecast of 70% gives −0.14; won there, +0.06.
The bar is lowered by the gap (raised when it is negative), by at most MAX_LOWER, within MIN_BAR and MAX_BAR.

A fight's weight is its lesson's confidence now (it fades with play hours), halved for each later fight of
the same key that ended the other way: a result the next fights contradict stops counting, so a wrong
record cannot hold a plan back for long.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pydantic import Field

from engine.experience.outcomes import FightOutcome
from engine.frozen import Frozen

PRIOR_FIGHTS = 4.0
# A fight's weight is multiplied by this for each later fight of its key that ended the other way.
CONTRADICTED = 0.5
MIN_BAR = 0.4  # no record lowers a bar below this: what a few fights showed is no licence for a long shot
# ...nor more than this under the bar the plan sets: a fight lost costs a whiteout, the walk back and the
# training after it, far more than the levels a lower bar saves (raising has no such limit).
MAX_LOWER = 0.1
MAX_BAR = 0.95
SHOWN_GAP = 0.01  # smaller gaps change no bar and are not named in a reason


class KeyCalibration(Frozen):
    key: str
    gap: float = Field(ge=-1.0, le=1.0)
    fights: int = Field(ge=0)
    won: int = Field(ge=0)
    mean_forecast: float = Field(ge=0.0, le=1.0)

    def bar(self, bar: float) -> float:
        """The bar `bar` moved by the gap, within MIN_BAR and MAX_BAR (a bar outside them is left alone:
        0 after a spent training budget, or one no forecast reaches)."""
        if not MIN_BAR <= bar <= MAX_BAR or abs(self.gap) < SHOWN_GAP:
            return bar
        return min(MAX_BAR, max(MIN_BAR, bar - MAX_LOWER, bar - self.gap))

    def words(self, bar: float) -> str:
        moved = self.bar(bar)
        return (f"lesson: {self.key} won {self.won} of {self.fights} earlier fights entered at a mean "
                f"forecast of {self.mean_forecast:.0%}, so the bar is {moved:.0%} not {bar:.0%}")  # fmt: skip


class Calibration(Frozen):
    """Per bar key, the gap earlier fights showed (empty: no record, every bar as the plan sets it)."""

    keys: tuple[KeyCalibration, ...] = ()

    def of(self, key: str) -> KeyCalibration | None:
        return next((found for found in self.keys if found.key == key and abs(found.gap) >= SHOWN_GAP), None)


def calibrate(fights: Sequence[tuple[FightOutcome, float]]) -> Calibration:
    """The calibration of every key in `fights`: (record, weight) pairs, oldest first."""
    keys = dict.fromkeys(outcome.key for outcome, _ in fights)
    per_key = (_one_key(key, [pair for pair in fights if pair[0].key == key]) for key in keys)
    return Calibration(keys=tuple(per_key))


def _one_key(key: str, fights: list[tuple[FightOutcome, float]]) -> KeyCalibration:
    weights = list(_contradicted(fights))
    total = sum(weights)
    outcomes = [outcome for outcome, _ in fights]
    mean = sum(w * o.forecast for w, o in zip(weights, outcomes, strict=True)) / total if total > 0 else 0.0
    residual = sum(w * (float(o.won) - o.forecast) for w, o in zip(weights, outcomes, strict=True))
    gap = residual / (PRIOR_FIGHTS + total)
    return KeyCalibration(key=key, gap=gap, fights=len(outcomes), won=sum(o.won for o in outcomes),
                          mean_forecast=min(1.0, max(0.0, mean)))  # fmt: skip


def _contradicted(fights: list[tuple[FightOutcome, float]]) -> Iterable[float]:
    for at, (outcome, weight) in enumerate(fights):
        against = sum(later.won != outcome.won for later, _ in fights[at + 1 :])
        yield max(0.0, weight) * CONTRADICTED**against
