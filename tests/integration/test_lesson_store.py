"""LessonStore on a real embedded Chroma directory (tmp_path); offline, no server."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.memory.errors import MemoryStoreError
from engine.memory.lessons import Lesson, LessonContext, Measurement
from engine.memory.store import LessonStore


def make(lesson_id: str, **overrides: Any) -> Lesson:
    fields: dict[str, Any] = {
        "lesson_id": lesson_id,
        "kind": "type_matchup",
        "text": "WATER moves are super effective against ROCK types like GEODUDE",
        "attacker_types": ("WATER",),
        "defender_types": ("ROCK", "GROUND"),
        "confidence": 0.8,
        "evidence": 1,
        "provenance": (f"battle-{lesson_id}",),
        "created_play_hours": 1.0,
        "updated_play_hours": 1.0,
    }
    fields.update(overrides)
    return Lesson(**fields)


UNRELATED = [
    make(
        "fire-grass",
        text="FIRE moves burn through GRASS types like ODDISH",
        attacker_types=("FIRE",),
        defender_types=("GRASS",),
    ),
    make(
        "potions",
        kind="resource",
        text="Buy potions at the mart before a gym leader",
        attacker_types=(),
        defender_types=(),
    ),
    make(
        "brock",
        kind="opponent",
        text="BROCK leads with GEODUDE then ONIX",
        attacker_types=(),
        defender_types=(),
        opponent="BROCK",
        species=("GEODUDE", "ONIX"),
    ),
]
GEODUDE_BATTLE = LessonContext(our_types=("WATER",), enemy_types=("ROCK", "GROUND"), species=("GEODUDE",))


@pytest.fixture
def store(tmp_path: Path) -> Iterator[LessonStore]:
    lesson_store = LessonStore(tmp_path / "lessons")
    yield lesson_store
    lesson_store.close()


def test_add_get_count(store: LessonStore) -> None:
    lesson = make("water-rock", move="SURF", last_used_play_hours=1.0)
    assert store.add(lesson, 1.0) == lesson
    assert store.count() == 1
    assert store.get("water-rock") == lesson
    assert store.get("missing") is None
    assert store.all() == [lesson]


def test_measurements_survive_the_store(store: LessonStore) -> None:
    lesson = make("bubble-onix", measured=Measurement(uses=3, damage_percent=38.5, hit_rate=2 / 3))
    store.add(lesson, 1.0)
    assert store.get("bubble-onix") == lesson
    merged = store.add(make("again", measured=Measurement(uses=1, damage_percent=42.5)), 1.0)
    assert merged.measured == Measurement(uses=4, damage_percent=39.5, hit_rate=2 / 3)


def test_equivalent_lesson_merges(store: LessonStore) -> None:
    store.add(make("first"), 1.0)
    merged = store.add(make("second", defender_types=("ground", "rock"), updated_play_hours=2.0), 2.0)
    assert store.count() == 1
    assert merged.lesson_id == "first"
    assert merged.evidence == 2
    assert merged.provenance == ("battle-first", "battle-second")
    assert store.get("first") == merged


def test_retrieval_ranks_relevant_first_and_respects_k_and_threshold(store: LessonStore) -> None:
    store.add(make("water-rock"), 1.0)
    for lesson in UNRELATED:
        store.add(lesson, 1.0)
    results = store.retrieve(
        "battle against GEODUDE, a ROCK GROUND type", GEODUDE_BATTLE, 1.5, k=2, threshold=0.0
    )
    assert results[0][0].lesson_id == "water-rock"
    assert len(results) == 2
    assert results[0][1] >= results[1][1]
    # Returned lessons are marked used, in the store too.
    stored = store.get("water-rock")
    assert stored is not None and stored.last_used_play_hours == 1.5
    potions = store.get("potions")
    assert potions is not None and potions.last_used_play_hours is None

    everything = store.retrieve("battle against GEODUDE", GEODUDE_BATTLE, 1.5, k=10, threshold=0.0)
    assert len(everything) == 4
    strict = store.retrieve("battle against GEODUDE", GEODUDE_BATTLE, 1.5, k=10, threshold=0.35)
    assert 1 <= len(strict) < 4
    assert all(score >= 0.35 for _, score in strict)
    assert store.retrieve("anything", GEODUDE_BATTLE, 1.5, k=10, threshold=0.99) == []


def test_retrieve_on_empty_store(store: LessonStore) -> None:
    assert store.retrieve("anything", GEODUDE_BATTLE, 0.0) == []


def test_prune_removes_only_decayed(tmp_path: Path) -> None:
    with LessonStore(tmp_path / "lessons", rate_per_hour=0.5, floor=0.2) as store:
        store.add(make("old", confidence=0.3, updated_play_hours=0.0), 0.0)
        store.add(make("fresh", kind="move", move="SURF", confidence=0.3, updated_play_hours=10.0), 10.0)
        # At 10 h: old decays to 0.3 / 6 = 0.05 < 0.2; fresh is still 0.3.
        assert store.prune(10.0) == 1
        assert [lesson.lesson_id for lesson in store.all()] == ["fresh"]
        assert store.prune(10.0) == 0


def test_reopening_the_directory_sees_the_lessons(tmp_path: Path) -> None:
    first = LessonStore(tmp_path / "lessons")
    first.add(make("water-rock"), 1.0)
    first.close()
    second = LessonStore(tmp_path / "lessons")
    try:
        assert second.count() == 1
        assert second.get("water-rock") == make("water-rock")
        results = second.retrieve("GEODUDE", GEODUDE_BATTLE, 2.0, threshold=0.0)
        assert results and results[0][0].lesson_id == "water-rock"
    finally:
        second.close()


def test_path_that_is_a_file_raises(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("x")
    with pytest.raises(MemoryStoreError, match="not a directory"):
        LessonStore(blocker)
    # Below a file: Chroma itself fails (an obscure InternalError), and the store wraps it.
    with pytest.raises(MemoryStoreError, match="lesson store"):
        LessonStore(blocker / "lessons")


def test_needs_exactly_one_backend(tmp_path: Path) -> None:
    with pytest.raises(MemoryStoreError):
        LessonStore()
    with pytest.raises(MemoryStoreError):
        LessonStore(tmp_path, http=("127.0.0.1", 8000))


def test_many_lessons_stay_fast(store: LessonStore) -> None:
    start = time.perf_counter()
    for index in range(50):
        store.add(make(f"m{index}", kind="move", move=f"MOVE{index}", text=f"move number {index} works"), 1.0)
    results = store.retrieve("move number 7 works", LessonContext(moves=("MOVE7",)), 1.0, k=3, threshold=0.0)
    assert results[0][0].lesson_id == "m7"
    assert time.perf_counter() - start < 30
