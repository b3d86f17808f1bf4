"""LessonStore on a real embedded Chroma directory (tmp_path); offline, no server."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.memory import store as store_module
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


def test_add_many_stores_what_adding_one_by_one_stores(tmp_path: Path) -> None:
    """Equivalent lessons merge into one stored before them, or earlier in the same call; the result is
    the store `add` builds one lesson at a time, including ids, evidence and merged numbers."""
    incoming = [
        make("second", defender_types=("ground", "rock"), updated_play_hours=2.0),
        *UNRELATED,
        make("bubble", kind="move", move="BUBBLE", text="BUBBLE hits ONIX hard",
             measured=Measurement(uses=2, damage_percent=30.0)),
        make("third", updated_play_hours=3.0),
        make("bubble-again", kind="move", move="BUBBLE", text="BUBBLE still hits ONIX hard",
             measured=Measurement(uses=1, damage_percent=45.0)),
    ]  # fmt: skip
    with LessonStore(tmp_path / "one") as one, LessonStore(tmp_path / "many") as many:
        one.add(make("first"), 1.0)
        many.add(make("first"), 1.0)
        for lesson in incoming:
            one.add(lesson, 3.0)
        written = many.add_many(incoming, 3.0)
        assert sorted(many.all(), key=lambda x: x.lesson_id) == sorted(one.all(), key=lambda x: x.lesson_id)
        assert many.count() == 5  # first (with second and third), three unrelated, bubble (with its repeat)
        assert {lesson.lesson_id for lesson in written} == {
            "first",
            "bubble",
            *(u.lesson_id for u in UNRELATED),
        }
        first, bubble = many.get("first"), many.get("bubble")
        assert first is not None and first.evidence == 3
        assert bubble is not None and bubble.measured == Measurement(uses=3, damage_percent=35.0)
        assert many.add_many([], 3.0) == []


def test_add_many_goes_in_batches_of_chromas_largest(
    store: LessonStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store._client, "get_max_batch_size", lambda: 7)
    lessons = [
        make(f"m{index}", kind="move", move=f"MOVE{index}", text=f"move number {index} works")
        for index in range(20)
    ]
    store.add_many([*lessons, make("m3-again", kind="move", move="MOVE3", text="move number 3 works")], 1.0)
    assert store.count() == 20
    again = store.get("m3")
    assert again is not None and again.evidence == 2


def test_marks_are_written_in_batches_and_read_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """retrieve marks what it returns used; the store's reads see the marks before they are written, and
    they are written once MARKS_PER_WRITE are pending, on flush and on close."""
    monkeypatch.setattr(store_module, "MARKS_PER_WRITE", 3)
    with LessonStore(tmp_path / "lessons") as store:
        store.add_many([make("water-rock"), *UNRELATED], 1.0)
        writes: list[list[str]] = []
        update = store._collection.update

        def counting_update(**kwargs: Any) -> None:
            writes.append(list(kwargs["ids"]))
            update(**kwargs)

        monkeypatch.setattr(store._collection, "update", counting_update)
        (found,) = store.retrieve("GEODUDE ROCK", GEODUDE_BATTLE, 2.0, k=1, threshold=0.0)
        assert found[0].lesson_id == "water-rock" and found[0].last_used_play_hours == 2.0
        assert writes == []  # pending, but seen by every read
        assert store.get("water-rock") == found[0]
        assert store.where({"kind": "type_matchup"})[0].last_used_play_hours == 2.0
        # Marked again at the same play time: nothing changes, nothing is pending twice.
        store.retrieve("GEODUDE ROCK", GEODUDE_BATTLE, 2.0, k=1, threshold=0.0)
        assert writes == []
        store.retrieve("FIRE GRASS ODDISH", GEODUDE_BATTLE, 3.0, k=4, threshold=0.0)  # all four: 4 >= 3
        assert len(writes) == 1 and sorted(writes[0]) == sorted(
            ["water-rock", *(u.lesson_id for u in UNRELATED)]
        )
        store.retrieve("BROCK", GEODUDE_BATTLE, 4.0, k=1, threshold=0.0)
        store.flush()
        assert len(writes) == 2
        store.flush()
        assert len(writes) == 2  # nothing left to write
        store.retrieve("potions at the mart", LessonContext(), 5.0, k=1, threshold=0.0)
    with LessonStore(tmp_path / "lessons") as reopened:  # the last mark was written on close
        marked = {lesson.lesson_id: lesson.last_used_play_hours for lesson in reopened.all()}
        assert max(hours for hours in marked.values() if hours is not None) == 5.0
        assert marked["water-rock"] is not None


def test_unmarked_retrieval_writes_nothing(store: LessonStore) -> None:
    store.add(make("water-rock"), 1.0)
    store.retrieve("GEODUDE", GEODUDE_BATTLE, 2.0, threshold=0.0, mark_used=False)
    stored = store.get("water-rock")
    assert stored is not None and stored.last_used_play_hours is None


def test_a_read_asked_again_is_answered_from_memory_until_the_store_writes(
    store: LessonStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    store.add_many([make("water-rock"), *UNRELATED], 1.0)
    asked: list[str] = []
    query, get = store._collection.query, store._collection.get
    monkeypatch.setattr(store._collection, "query", lambda **kwargs: asked.append("query") or query(**kwargs))
    monkeypatch.setattr(store._collection, "get", lambda **kwargs: asked.append("get") or get(**kwargs))
    first = [lesson.lesson_id for lesson, _ in store.retrieve("GEODUDE ROCK", GEODUDE_BATTLE, 2.0, k=2)]
    again = store.retrieve("GEODUDE ROCK", GEODUDE_BATTLE, 2.0, k=2)
    assert [lesson.lesson_id for lesson, _ in again] == first and again[0][0].last_used_play_hours == 2.0
    assert store.where({"kind": "opponent"}) == store.where({"kind": "opponent"})
    assert asked == ["query", "get"]
    # A write (here the pending marks) makes every read go to Chroma again, and see it.
    store.flush()
    assert store.where({"kind": "type_matchup"})[0].last_used_play_hours == 2.0
    store.add(make("brock", kind="opponent", text="BROCK's ONIX uses BIDE", attacker_types=(),
                   defender_types=(), opponent="BROCK", species=("ONIX",)), 3.0)  # fmt: skip
    assert store.where({"kind": "opponent"})[0].text == "BROCK's ONIX uses BIDE"
    assert asked.count("get") == 4  # the flushed read, add's own lookup, the read after it
    # What another writer of a shared server did is seen once the answers are forgotten (the memory
    # forgets them at every battle's end).
    store.forget_answers()
    store.where({"kind": "opponent"})
    assert asked.count("get") == 5
