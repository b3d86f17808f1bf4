"""Comparing a replayed battle with its log: pure functions of the two records."""

from __future__ import annotations

from collections.abc import Sequence

from engine.battles.models import BattleLog, DecisionRecord, SideView
from engine.mechanics.battle_driver import Step
from engine.replay.models import DecisionCheck, Divergence


def _side_words(side: SideView | None) -> str:
    if side is None:
        return "nobody"
    return f"{side.species} L{side.level} {side.hp_percent:g}% {side.status}"


def _seen(side: SideView | None) -> tuple[object, ...] | None:
    """What is compared of a side: who is out and its HP and status (logs written by other versions may
    carry more or fewer details, such as the moves)."""
    if side is None:
        return None
    return side.species, side.level, side.hp, side.max_hp, side.hp_percent, side.status


def _differences(logged: DecisionRecord, replayed: DecisionRecord) -> list[str]:
    found = []
    if logged.point is not replayed.point:
        found.append(f"point: logged {logged.point.value}, replayed {replayed.point.value}")
    if logged.action != replayed.action:
        found.append(f"action: logged '{logged.action}', replayed '{replayed.action}'")
    if _seen(logged.ours) != _seen(replayed.ours):
        found.append(f"our side: logged {_side_words(logged.ours)}, replayed {_side_words(replayed.ours)}")
    if _seen(logged.enemy) != _seen(replayed.enemy):
        found.append(f"enemy: logged {_side_words(logged.enemy)}, replayed {_side_words(replayed.enemy)}")
    # Logs written before options were kept have none: nothing to compare then.
    if logged.options and logged.options != replayed.options:
        found.append(f"options: logged {list(logged.options)}, replayed {list(replayed.options)}")
    return found


def _hp(side: SideView | None) -> float | None:
    return side.hp_percent if side is not None else None


def _check(
    index: int, logged: DecisionRecord, start_frame: int, step: Step | None, missing: str
) -> DecisionCheck:
    frame = logged.frame - start_frame if logged.frame is not None else None
    if step is None:
        return DecisionCheck(
            index=index, point=logged.point, action=logged.action, replayed_point=None,
            ours_hp=_hp(logged.ours), enemy_hp=_hp(logged.enemy), replayed_ours_hp=None,
            replayed_enemy_hp=None, frame=frame, replayed_frame=None, matches=False, difference=missing,
        )  # fmt: skip
    replayed = step.record
    differences = _differences(logged, replayed)
    return DecisionCheck(
        index=index, point=logged.point, action=logged.action, replayed_point=replayed.point,
        ours_hp=_hp(logged.ours), enemy_hp=_hp(logged.enemy), replayed_ours_hp=_hp(replayed.ours),
        replayed_enemy_hp=_hp(replayed.enemy), frame=frame, replayed_frame=step.frame,
        matches=not differences, difference="; ".join(differences) or None,
    )  # fmt: skip


def check_decisions(
    logged: BattleLog, steps: Sequence[Step], halted: str | None
) -> tuple[DecisionCheck, ...]:
    """Every logged decision next to its replay; `halted` says why the replay stopped early, if it did."""
    checks = []
    for index, record in enumerate(logged.decisions):
        step = steps[index] if index < len(steps) else None
        if index == len(steps):
            missing = halted or f"the replayed battle ended after {len(steps)} decisions"
        else:
            missing = "not replayed"
        checks.append(_check(index, record, logged.start_frame, step, missing))
    return tuple(checks)


def first_divergence(
    logged: BattleLog, checks: Sequence[DecisionCheck], replayed: BattleLog | None, halted: str | None
) -> Divergence | None:
    """The earliest difference: a decision, then a replay that went on past the log, then the end."""
    for check in checks:
        if not check.matches:
            return Divergence(decision=check.index, what=check.difference or "differs")
    if halted is not None:
        return Divergence(decision=len(checks), what=halted)
    if replayed is None:
        return Divergence(decision=None, what="the replay did not finish the battle")
    if replayed.summary.decisions != logged.summary.decisions:
        what = f"decisions: logged {logged.summary.decisions}, replayed {replayed.summary.decisions}"
        return Divergence(decision=None, what=what)
    if replayed.summary.outcome != logged.summary.outcome:
        what = f"outcome: logged {logged.summary.outcome}, replayed {replayed.summary.outcome}"
        return Divergence(decision=None, what=what)
    return None


def frames_match(logged: BattleLog, checks: Sequence[DecisionCheck], replayed: BattleLog | None) -> bool:
    """Every decision reached on the frame the log says, and the battle over on the same frame."""
    if replayed is None or replayed.summary.frames != logged.summary.frames:
        return False
    return all(check.frame is not None and check.frame == check.replayed_frame for check in checks)
