"""Lesson arithmetic (decay, equivalence, merge, relevance) and the hashing embedding; no Chroma store."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from engine.memory.embedding import HashingEmbedding
from engine.memory.lessons import (
    MAX_PROVENANCE,
    Lesson,
    LessonContext,
    Measurement,
    decayed_confidence,
    equivalence_key,
    merge,
    relevance_score,
)


def make(**overrides: Any) -> Lesson:
    fields: dict[str, Any] = {
        "lesson_id": "l1",
        "kind": "type_matchup",
        "text": "WATER moves crush ROCK types",
        "attacker_types": ("WATER",),
        "defender_types": ("ROCK",),
        "confidence": 0.8,
        "evidence": 1,
        "provenance": ("battle-1",),
        "created_play_hours": 0.0,
        "updated_play_hours": 0.0,
    }
    fields.update(overrides)
    return Lesson(**fields)


def test_decay_exact_values() -> None:
    lesson = make(confidence=0.8, updated_play_hours=1.0)
    assert decayed_confidence(lesson, 3.0, 0.5) == pytest.approx(0.4)
    assert decayed_confidence(lesson, 1.0, 0.5) == pytest.approx(0.8)
    # A clock that went backwards (restored checkpoint) means no decay, never a boost.
    assert decayed_confidence(lesson, 0.0, 0.5) == pytest.approx(0.8)


def test_lesson_validation() -> None:
    with pytest.raises(ValueError):
        make(text="x" * 301)
    with pytest.raises(ValueError):
        make(confidence=1.5)
    with pytest.raises(ValueError):
        make(evidence=0)
    with pytest.raises(ValueError):
        make(unknown="field")


def test_equivalence_ignores_order_and_case() -> None:
    a = make(defender_types=("ROCK", "GROUND"), text="one wording")
    b = make(lesson_id="l2", defender_types=("ground", "Rock"), text="another wording")
    assert equivalence_key(a) == equivalence_key(b)


def test_equivalence_distinguishes_moves_and_kinds() -> None:
    surf = make(kind="move", move="SURF")
    tackle = make(kind="move", move="tackle")
    assert equivalence_key(surf) != equivalence_key(tackle)
    assert equivalence_key(make(kind="move", move="surf")) == equivalence_key(surf)
    assert equivalence_key(make(kind="sequence")) != equivalence_key(make(kind="type_matchup"))


def test_equivalence_uses_text_without_structured_keys() -> None:
    bare: dict[str, Any] = {"kind": "resource", "attacker_types": (), "defender_types": ()}
    a = make(text="Heal  before the GYM", **bare)
    b = make(text="heal before the gym", **bare)
    c = make(text="buy potions in Pewter", **bare)
    assert equivalence_key(a) == equivalence_key(b)
    assert equivalence_key(a) != equivalence_key(c)


def test_merge_sums_evidence_and_weights_decayed_confidence() -> None:
    existing = make(confidence=0.8, evidence=3, updated_play_hours=2.0, provenance=("b1", "b2"))
    new = make(
        lesson_id="l9",
        text="newer text",
        confidence=0.5,
        evidence=1,
        updated_play_hours=4.0,
        created_play_hours=4.0,
        provenance=("b2", "b3"),
    )
    merged = merge(existing, new, 4.0, rate_per_hour=0.5)
    assert merged.lesson_id == "l1"
    assert merged.evidence == 4
    # existing decays to 0.8 / (1 + 0.5·2) = 0.4; weighted: (0.4·3 + 0.5·1) / 4
    assert merged.confidence == pytest.approx((0.4 * 3 + 0.5) / 4)
    assert merged.provenance == ("b1", "b2", "b3")
    assert merged.text == "newer text"
    assert merged.updated_play_hours == 4.0
    assert merged.created_play_hours == 0.0


def test_merge_caps_provenance_keeping_newest() -> None:
    existing = make(provenance=tuple(f"b{i}" for i in range(MAX_PROVENANCE)))
    new = make(provenance=("b-new",))
    merged = merge(existing, new, 0.0, rate_per_hour=0.05)
    assert len(merged.provenance) == MAX_PROVENANCE
    assert merged.provenance[-1] == "b-new"
    assert "b0" not in merged.provenance


def test_merge_pools_measurements_by_uses() -> None:
    existing = make(measured=Measurement(uses=3, damage_percent=30.0, hit_rate=1.0))
    new = make(measured=Measurement(uses=1, damage_percent=10.0, hit_rate=0.0))
    merged = merge(existing, new, 0.0).measured
    assert merged == Measurement(uses=4, damage_percent=25.0, hit_rate=0.75)
    # One side without numbers keeps the other's; a missing mean does not dilute the other.
    assert merge(existing, make(), 0.0).measured == existing.measured
    partial = make(measured=Measurement(uses=1, damage_percent=None, hit_rate=0.0))
    pooled = merge(existing, partial, 0.0).measured
    assert pooled is not None and pooled.damage_percent == 30.0 and pooled.hit_rate == 0.75


GEODUDE = LessonContext(our_types=("WATER",), enemy_types=("ROCK", "GROUND"), species=("GEODUDE",))


def test_structured_match_outranks_non_match() -> None:
    match = make()
    miss = make(attacker_types=("FIRE",), defender_types=("GRASS",))
    assert relevance_score(0.5, match, GEODUDE, 0.0, 0.05) > relevance_score(0.5, miss, GEODUDE, 0.0, 0.05)


def test_more_evidence_ranks_higher() -> None:
    low = make(evidence=1)
    high = make(evidence=8)
    assert relevance_score(0.5, high, GEODUDE, 0.0, 0.05) > relevance_score(0.5, low, GEODUDE, 0.0, 0.05)


def test_stale_lesson_ranks_lower() -> None:
    fresh = make(updated_play_hours=10.0)
    stale = make(updated_play_hours=0.0)
    assert relevance_score(0.5, fresh, GEODUDE, 10.0, 0.05) > relevance_score(0.5, stale, GEODUDE, 10.0, 0.05)


def test_recent_use_counts_as_recency() -> None:
    used = make(last_used_play_hours=10.0)
    unused = make()
    assert relevance_score(0.5, used, GEODUDE, 10.0, 0.0) > relevance_score(0.5, unused, GEODUDE, 10.0, 0.0)


def test_perfect_lesson_scores_its_confidence() -> None:
    perfect = make(evidence=10, confidence=0.9)
    assert relevance_score(1.0, perfect, GEODUDE, 0.0, 0.05) == pytest.approx(0.9)


def test_embedding_is_deterministic_and_unit_norm() -> None:
    texts = ["WATER beats ROCK", "Use SURF against GEODUDE", ""]
    first = np.array(HashingEmbedding()(texts))
    again = np.array(HashingEmbedding()(texts))
    assert np.array_equal(first, again)
    assert first.shape == (3, 256)
    for row in first:
        assert math.isclose(float(np.linalg.norm(row)), 1.0, rel_tol=1e-5)


def test_embedding_similar_texts_are_closer() -> None:
    embed = HashingEmbedding()
    a, b, c = (
        np.array(v)
        for v in embed(
            [
                "water moves are super effective against rock pokemon",
                "use a water move against the rock type geodude",
                "buy potions at the pewter city mart before the gym",
            ]
        )
    )
    assert float(a @ b) > float(a @ c)


def test_embedding_config_round_trip() -> None:
    embed = HashingEmbedding(dimensions=64)
    rebuilt = HashingEmbedding.build_from_config(embed.get_config())
    assert rebuilt.dimensions == 64
    assert HashingEmbedding.name() == "engine-hashing-v1"
    assert np.array_equal(np.array(embed(["x y"])), np.array(rebuilt(["x y"])))
