"""Which of two battle endings is better: pure rules, shared by counterfactuals and lessons.

Outcomes are ordered defeat < draw < flee < victory: winning beats escaping, escaping beats losing.
A battle the player left on purpose (ran, or caught the enemy: the game books both as an escape) is not
ranked that way: leaving was the goal, so an alternative that fought on and won is not better for it; it
can only be better by escaping with clearly more HP. With the same outcome, an alternative is better
when it keeps clearly more of the party's HP (HP_MARGIN percentage points of the party's total); two
defeats are never better than each other (nothing was kept either way).
"""

from __future__ import annotations

from engine.battles.models import Outcome
from engine.replay.models import RolloutResult

OUTCOME_RANK: dict[Outcome, int] = {"defeat": 0, "draw": 1, "flee": 2, "victory": 3}
# One rollout follows one path of the game's random numbers: a few points of HP either way is noise.
HP_MARGIN = 20.0


def outcome_better(candidate: Outcome | None, reference: Outcome | None) -> bool:
    """Strictly better by outcome order; an unfinished battle (None) is never better nor worse."""
    if candidate is None or reference is None:
        return False
    return OUTCOME_RANK[candidate] > OUTCOME_RANK[reference]


def changed_outcome(baseline: RolloutResult, alternative: RolloutResult) -> bool:
    return baseline.outcome != alternative.outcome


def better(baseline: RolloutResult, alternative: RolloutResult) -> bool:
    """The alternative ended better than the baseline (see the module docstring for the rules)."""
    if baseline.outcome is None or alternative.outcome is None:
        return False
    more_hp = alternative.party_hp_percent >= baseline.party_hp_percent + HP_MARGIN
    if baseline.deliberate_escape:
        return alternative.outcome == "flee" and more_hp
    if alternative.outcome != baseline.outcome:
        return outcome_better(alternative.outcome, baseline.outcome)
    return alternative.outcome != "defeat" and more_hp


def regret(baseline: RolloutResult, alternative: RolloutResult, logged: Outcome) -> bool:
    """The alternative would have turned this battle into a better one: a better outcome than the
    baseline from the same decision, and than what the logged battle ended in."""
    return (
        better(baseline, alternative)
        and outcome_better(alternative.outcome, baseline.outcome)
        and outcome_better(alternative.outcome, logged)
    )
