"""Which rollouts a replayed battle calls for, and what their results say.

At every decision with a choice, the logged action is rolled out too (it, then the rule-based policy):
that baseline is what each alternative is compared with, not the logged battle, whose later choices
were not the rule-based policy's. Both start from the same state in the same way. (Even where the policy
would have chosen as logged, a baseline need not repeat the logged battle: a rollout starts from a loaded
state and waits for the game's next joypad poll, a frame or two the live battle did not wait, and the
game's random numbers move on with every frame.)
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.battles.models import Outcome
from engine.game.models import DecisionPoint
from engine.mechanics.battle_driver import Step
from engine.replay import judge
from engine.replay.defaults import DEFAULT_MAX_DECISIONS
from engine.replay.models import Counterfactual, RolloutResult
from engine.replay.rollouts import RolloutTask


def plan(
    steps: Sequence[Step],
    max_decisions: int = DEFAULT_MAX_DECISIONS,
    screenshots: bool = False,
    max_rollouts: int | None = None,
) -> list[RolloutTask]:
    """A baseline and one rollout per other legal action, at each decision that offered a choice. With
    `max_rollouts`, the latest decisions first, as many whole as fit: a lost battle is most often decided
    near its end, and a rollout plays the battle to its end."""
    chosen: list[list[RolloutTask]] = []
    for index, step in enumerate(steps):
        labels = [option.label for option in step.options]
        if len(labels) < 2:
            continue
        logged = step.record.action
        chosen.append([
            RolloutTask(decision=index, action=label, baseline=label == logged, max_decisions=max_decisions,
                        screenshots=screenshots)
            for label in [logged, *(label for label in labels if label != logged)]
        ])  # fmt: skip
    if max_rollouts is not None:
        kept: list[list[RolloutTask]] = []
        for tasks in reversed(chosen):
            if sum(map(len, kept)) + len(tasks) > max_rollouts:
                break
            kept.insert(0, tasks)
        chosen = kept
    return [task for tasks in chosen for task in tasks]


def turn_numbers(steps: Sequence[Step]) -> list[int]:
    """The battle's turn at each decision: main-menu choices so far, this one included (at least 1)."""
    turns, count = [], 0
    for step in steps:
        count += step.record.point is DecisionPoint.BATTLE_MAIN_MENU
        turns.append(max(1, count))
    return turns


def _entry(
    step: Step, turn: int, baseline: RolloutResult, result: RolloutResult, logged: Outcome
) -> Counterfactual:
    moves = {option.label: option.move for option in step.options}
    record = step.record
    return Counterfactual(
        decision=baseline.decision, turn=turn, point=record.point, ours=record.ours, enemy=record.enemy,
        logged_action=record.action, logged_move=moves.get(record.action), alternative=result.action,
        alternative_move=moves.get(result.action), baseline_outcome=baseline.outcome,
        alternative_outcome=result.outcome, changed_outcome=judge.changed_outcome(baseline, result),
        better=judge.better(baseline, result), regret=judge.regret(baseline, result, logged),
        baseline=baseline, result=result,
    )  # fmt: skip


def assemble(
    steps: Sequence[Step], results: Sequence[RolloutResult], logged: Outcome
) -> list[Counterfactual]:
    """One entry per alternative, in decision order; `logged` is the logged battle's outcome."""
    turns = turn_numbers(steps)
    baselines = {result.decision: result for result in results if result.baseline}
    return [
        _entry(steps[result.decision], turns[result.decision], baselines[result.decision], result, logged)
        for result in results
        if not result.baseline
    ]
