"""Counterfactual rollouts as experiments: their measured numbers pooled into validated move lessons."""

from __future__ import annotations

from engine.reflection.forensics import MoveMeasure, pool_measures
from engine.replay.lessons import measured_lessons
from engine.replay.models import Counterfactual
from tests.unit.test_replay import counterfactuals


def bubble(uses: int, damage: float, hits: int) -> MoveMeasure:
    return MoveMeasure(move="BUBBLE", move_type="WATER", species="GEODUDE", defender_types=("ROCK", "GROUND"),
                       attacker_types=("WATER",), users=("SQUIRTLE",), uses=uses, damage_percent=damage,
                       hits=hits, hit_known=uses, unknown_uses=0)  # fmt: skip


def test_pooling_adds_counts_and_weights_the_mean_by_uses() -> None:
    tackle = bubble(1, 5.0, 1).model_copy(update={"move": "TACKLE", "move_type": "NORMAL"})
    pooled = {m.move: m for m in pool_measures([bubble(1, 60.0, 1), bubble(3, 20.0, 2), tackle])}
    assert pooled["BUBBLE"].uses == 4 and pooled["BUBBLE"].damage_percent == 30.0
    assert (pooled["BUBBLE"].hits, pooled["BUBBLE"].hit_known) == (3, 4)
    assert pooled["TACKLE"] == tackle


def with_measures(entries: list[Counterfactual], measure: MoveMeasure) -> list[Counterfactual]:
    """Every rollout saw `measure` once; baselines are shared between the alternatives of a decision."""
    return [
        entry.model_copy(update={
            "baseline": entry.baseline.model_copy(update={"measures": (measure,)}),
            "result": entry.result.model_copy(update={"measures": (measure,)}),
        })
        for entry in entries
    ]  # fmt: skip


def test_rollouts_are_counted_once_and_pooled_into_a_measured_lesson() -> None:
    entries = with_measures(counterfactuals(), bubble(1, 40.0, 1))
    rollouts = {(r.decision, r.action) for e in entries for r in (e.baseline, e.result)}
    (lesson,) = measured_lessons(entries, "b1")
    assert lesson.move == "BUBBLE" and lesson.species == ("GEODUDE",) and lesson.provenance == ("b1",)
    assert lesson.measured is not None and lesson.measured.uses == len(rollouts)
    assert lesson.measured.damage_percent == 40.0 and lesson.measured.hit_rate == 1.0


def test_one_use_in_all_rollouts_is_too_little_to_keep() -> None:
    (entry,) = counterfactuals()[:1]
    only_result = entry.model_copy(
        update={"result": entry.result.model_copy(update={"measures": (bubble(1, 40.0, 1),)})}
    )
    assert measured_lessons([only_result], "b1") == ()
