"""`LessonStore`: the one owner of the Chroma collection that holds lessons.

Two writers on one embedded Chroma directory corrupt it silently, so exactly one process (the memory
actor) opens the directory; other processes go through that actor, or every process uses a Chroma server
(`http=(host, port)`). Lessons are stored as document = text, metadata = flat scalars (Chroma metadata
cannot hold lists, nested values or be empty), id = lesson_id. Decay is applied when reading, so stored
confidence only changes when a lesson is re-learned.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import chromadb
from chromadb.config import Settings
from pydantic import ValidationError

from engine.experience.outcomes import FightOutcome
from engine.memory.embedding import EmbeddingName, embedding_function
from engine.memory.errors import MemoryStoreError
from engine.memory.lessons import (
    Lesson,
    LessonContext,
    Measurement,
    decayed_confidence,
    equivalence_key,
    merge,
    relevance_score,
)

T = TypeVar("T")

# Equivalence keys per `$in` filter when add_many looks up stored lessons (SQLite bounds the number of
# bound variables in one statement).
_KEYS_PER_LOOKUP = 500
# Marking lessons used is a metadata write, and a Chroma write costs ~15-50 ms (it is applied to the index
# before it returns) against ~3 ms for the query itself: `retrieve` only notes its marks, and they are
# written in one update once this many are pending, on `flush()`, before a prune and on close. Every read
# of this store sees the pending marks; a crash loses only marks not yet written (recency, not lessons).
MARKS_PER_WRITE = 256
ANSWERS_KEPT = 256  # distinct reads remembered between two writes

# Tuples are stored joined with this separator; lesson keys (types, species, battle ids) never contain it.
_SEP = ","
_TUPLE_FIELDS = ("attacker_types", "defender_types", "species", "provenance")
_SCALAR_FIELDS = (
    "kind",
    "move",
    "opponent",
    "confidence",
    "evidence",
    "created_play_hours",
    "updated_play_hours",
    "last_used_play_hours",
    "prefer",
    "instead_of",
)
# Chroma metadata is flat: the measurement's fields are stored as measured_uses, measured_hit_rate, ...,
# a fight's record's as fight_key, fight_forecast, ...
_MEASURED_PREFIX = "measured_"
_FIGHT_PREFIX = "fight_"


def _to_metadata(lesson: Lesson) -> dict[str, str | int | float]:
    metadata: dict[str, str | int | float] = {"equivalence": equivalence_key(lesson)}
    for field in _TUPLE_FIELDS:
        values: tuple[str, ...] = getattr(lesson, field)
        if values:  # empty tuples are omitted, like None: Chroma keeps only what is there
            metadata[field] = _SEP.join(values)
    for field in _SCALAR_FIELDS:
        value = getattr(lesson, field)
        if value is not None:
            metadata[field] = value
    for prefix, part in ((_MEASURED_PREFIX, lesson.measured), (_FIGHT_PREFIX, lesson.fight)):
        if part is not None:
            for field, value in part.model_dump().items():
                if value is not None:
                    metadata[prefix + field] = value
    return metadata


def _prefixed(metadata: Mapping[str, Any], prefix: str) -> dict[str, Any]:
    return {key.removeprefix(prefix): value for key, value in metadata.items() if key.startswith(prefix)}


def _from_record(lesson_id: str, document: str | None, metadata: Mapping[str, Any] | None) -> Lesson:
    if document is None or metadata is None:
        raise MemoryStoreError(f"lesson {lesson_id!r} is stored without text or metadata")
    fields: dict[str, Any] = {"lesson_id": lesson_id, "text": document}
    for field in _TUPLE_FIELDS:
        raw = metadata.get(field)
        fields[field] = tuple(raw.split(_SEP)) if isinstance(raw, str) and raw else ()
    for field in _SCALAR_FIELDS:
        if field in metadata:
            fields[field] = metadata[field]
    measured = _prefixed(metadata, _MEASURED_PREFIX)
    fight = _prefixed(metadata, _FIGHT_PREFIX)
    try:
        if measured:
            fields["measured"] = Measurement.model_validate(measured)
        if fight:
            fields["fight"] = FightOutcome.model_validate(fight)
        return Lesson.model_validate(fields)
    except ValidationError as error:
        raise MemoryStoreError(f"lesson {lesson_id!r} in the store is malformed: {error}") from error


@contextmanager
def _chroma_errors(action: str) -> Iterator[None]:
    """Chroma raises its own errors, ValueError, OSError and Rust-side exceptions; callers see one class."""
    try:
        yield
    except MemoryStoreError:
        raise
    except Exception as error:
        raise MemoryStoreError(f"lesson store: {action} failed: {type(error).__name__}: {error}") from error


class LessonStore:
    def __init__(
        self,
        path: Path | None = None,
        *,
        http: tuple[str, int] | None = None,
        collection: str = "lessons",
        embedding: EmbeddingName = "hashing",
        rate_per_hour: float = 0.05,
        floor: float = 0.05,
    ) -> None:
        if (path is None) == (http is None):
            raise MemoryStoreError(
                "LessonStore needs exactly one of a directory path or an http (host, port)"
            )
        self.rate_per_hour = rate_per_hour
        self.floor = floor
        self._marks: dict[str, float] = {}  # lesson id -> last used (play hours), not yet written
        # What Chroma answered to each query and filter since this store last wrote (see `_cached`).
        self._answers: dict[str, Any] = {}
        # Telemetry off: it would try to reach the internet, and runs must work offline.
        settings = Settings(anonymized_telemetry=False)
        client: Any
        if path is not None:
            if path.exists() and not path.is_dir():
                raise MemoryStoreError(f"lesson store path {path} exists and is not a directory")
            with _chroma_errors(f"opening {path}"):
                client = chromadb.PersistentClient(path=str(path), settings=settings)
        else:
            assert http is not None
            host, port = http
            with _chroma_errors(f"connecting to {host}:{port}"):
                client = chromadb.HttpClient(host=host, port=port, settings=settings)
        self._client = client
        try:
            with _chroma_errors(f"opening collection {collection!r}"):
                self._collection = client.get_or_create_collection(
                    name=collection,
                    embedding_function=embedding_function(embedding),
                    configuration={"hnsw": {"space": "cosine"}},
                )
        except MemoryStoreError:
            self.close()
            raise

    def _call(self, action: str, fn: Callable[[], T]) -> T:
        with _chroma_errors(action):
            return fn()

    def _cached(self, key: str, action: str, fn: Callable[[], T]) -> T:
        """Chroma's answer to a read, asked again only after this store wrote (a query costs ~3 ms, and a
        battle's decisions ask the same few). The raw answer is kept, so pending marks still apply. Another
        writer's changes (a shared `chroma run` server) are seen once `forget_answers` is called."""
        if key not in self._answers:
            if len(self._answers) >= ANSWERS_KEPT:
                self._answers.clear()
            self._answers[key] = self._call(action, fn)
        answer: T = self._answers[key]
        return answer

    def forget_answers(self) -> None:
        self._answers.clear()

    def _upsert(self, lessons: list[Lesson]) -> None:
        if not lessons:
            return
        self.forget_answers()
        self._call(
            "upsert",
            lambda: self._collection.upsert(
                ids=[lesson.lesson_id for lesson in lessons],
                documents=[lesson.text for lesson in lessons],
                metadatas=[_to_metadata(lesson) for lesson in lessons],
            ),
        )

    def _read(self, lesson_id: str, document: str | None, metadata: Mapping[str, Any] | None) -> Lesson:
        lesson = _from_record(lesson_id, document, metadata)
        marked = self._marks.get(lesson_id)
        if marked is None or marked == lesson.last_used_play_hours:
            return lesson
        return lesson.model_copy(update={"last_used_play_hours": marked})

    def _get_where(self, **kwargs: Any) -> list[Lesson]:
        key = "get " + json.dumps(kwargs, sort_keys=True)
        result = self._cached(
            key, "get", lambda: self._collection.get(include=["documents", "metadatas"], **kwargs)
        )
        documents = result["documents"] or []
        metadatas = result["metadatas"] or []
        return [
            self._read(lesson_id, document, metadata)
            for lesson_id, document, metadata in zip(result["ids"], documents, metadatas, strict=True)
        ]

    def _delete(self, ids: list[str]) -> None:
        self.forget_answers()
        self._call("delete", lambda: self._collection.delete(ids=ids))
        for lesson_id in ids:
            self._marks.pop(lesson_id, None)

    def add(self, lesson: Lesson, now_play_hours: float) -> Lesson:
        """Store a lesson, merging it into an equivalent stored one if there is one; return what is stored."""
        matches = self._get_where(where={"equivalence": equivalence_key(lesson)})
        stored = lesson
        if matches:
            # Keep the oldest id, so references to the lesson stay valid as it accumulates evidence.
            existing = min(matches, key=lambda match: match.created_play_hours)
            stored = merge(existing, lesson, now_play_hours, rate_per_hour=self.rate_per_hour)
            extras = [match.lesson_id for match in matches if match.lesson_id != existing.lesson_id]
            if extras:  # duplicates can only come from an older writer; fold them away
                self._delete(extras)
        self._upsert([stored])
        return stored

    def add_many(self, lessons: Sequence[Lesson], now_play_hours: float) -> list[Lesson]:
        """Store many lessons as `add` would one after the other (each merged into an equivalent one
        stored before it, or earlier in `lessons`), with one lookup and one upsert per batch of Chroma's
        maximum size rather than per lesson; return what was written, one lesson per record."""
        written: list[Lesson] = []
        batch = max(1, self._call("max batch size", self._client.get_max_batch_size))
        for start in range(0, len(lessons), batch):
            written.extend(self._add_batch(lessons[start : start + batch], now_play_hours))
        return written

    def _add_batch(self, lessons: Sequence[Lesson], now_play_hours: float) -> list[Lesson]:
        keys = list(dict.fromkeys(equivalence_key(lesson) for lesson in lessons))
        stored: dict[str, list[Lesson]] = {}
        for start in range(0, len(keys), _KEYS_PER_LOOKUP):
            chunk = keys[start : start + _KEYS_PER_LOOKUP]
            where = {"equivalence": chunk[0]} if len(chunk) == 1 else {"equivalence": {"$in": chunk}}
            for match in self._get_where(where=where):
                stored.setdefault(equivalence_key(match), []).append(match)
        current: dict[str, Lesson] = {}
        extras: list[str] = []
        for key, matches in stored.items():
            existing = min(matches, key=lambda match: match.created_play_hours)
            current[key] = existing
            extras.extend(match.lesson_id for match in matches if match.lesson_id != existing.lesson_id)
        changed: dict[str, Lesson] = {}  # by equivalence key, in the order first written
        for lesson in lessons:
            key = equivalence_key(lesson)
            held = current.get(key)
            kept = (
                lesson
                if held is None
                else merge(held, lesson, now_play_hours, rate_per_hour=self.rate_per_hour)
            )
            current[key] = changed[key] = kept
        if extras:
            self._delete(extras)
        # One record per id: a later lesson with the same id replaces an earlier one, as repeated adds do.
        records = list({lesson.lesson_id: lesson for lesson in changed.values()}.values())
        self._upsert(records)
        return records

    def put(self, lessons: Sequence[Lesson]) -> None:
        """Write lessons as they are, over the stored ones with their ids (no merging)."""
        self._upsert(list(lessons))

    def get(self, lesson_id: str) -> Lesson | None:
        found = self._get_where(ids=[lesson_id])
        return found[0] if found else None

    def all(self) -> list[Lesson]:
        return self._get_where()

    def where(self, condition: dict[str, Any]) -> list[Lesson]:
        """Lessons whose metadata matches a Chroma `where` filter (e.g. {"kind": "move"})."""
        return self._get_where(where=condition)

    def count(self) -> int:
        counted: int = self._call("count", self._collection.count)
        return counted

    def retrieve(
        self,
        query_text: str,
        context: LessonContext,
        now_play_hours: float,
        k: int = 5,
        threshold: float = 0.2,
        *,
        mark_used: bool = True,
    ) -> list[tuple[Lesson, float]]:
        """The k most relevant lessons scoring at least `threshold`, best first; marks them used unless
        told not to (a person browsing memory is not a decision using it). The marks are written later,
        in batches (see MARKS_PER_WRITE); this store's reads see them at once."""
        if k <= 0:
            return []
        # No count() first: Chroma returns what there is when asked for more (nothing from an empty store).
        result = self._cached(
            f"query {max(4 * k, 20)} {query_text}",
            "query",
            lambda: self._collection.query(
                query_texts=[query_text],
                n_results=max(4 * k, 20),
                include=["documents", "metadatas", "distances"],
            ),
        )
        ids = result["ids"][0]
        documents = (result["documents"] or [[]])[0]
        metadatas = (result["metadatas"] or [[]])[0]
        distances = (result["distances"] or [[]])[0]
        scored: list[tuple[Lesson, float]] = []
        for lesson_id, document, metadata, distance in zip(ids, documents, metadatas, distances, strict=True):
            lesson = self._read(lesson_id, document, metadata)
            similarity = 1.0 - float(distance)  # cosine space: distance = 1 - cosine similarity
            score = relevance_score(similarity, lesson, context, now_play_hours, self.rate_per_hour)
            if score >= threshold:
                scored.append((lesson, score))
        scored.sort(key=lambda pair: pair[1], reverse=True)
        top = scored[:k]
        if not mark_used:
            return top
        used = []
        for lesson, score in top:
            if lesson.last_used_play_hours != now_play_hours:
                self._marks[lesson.lesson_id] = now_play_hours
                lesson = lesson.model_copy(update={"last_used_play_hours": now_play_hours})
            used.append((lesson, score))
        if len(self._marks) >= MARKS_PER_WRITE:
            self.flush()
        return used

    def flush(self) -> None:
        """Write the pending last-used marks: one metadata-only update (Chroma merges the keys given and
        does not re-embed without documents)."""
        if not self._marks:
            return
        marks, self._marks = self._marks, {}
        self.forget_answers()  # the answers kept hold the metadata from before these marks
        try:
            self._call(
                "mark used",
                lambda: self._collection.update(
                    ids=list(marks), metadatas=[{"last_used_play_hours": hours} for hours in marks.values()]
                ),
            )
        except MemoryStoreError:
            self._marks = {**marks, **self._marks}  # kept for the next try
            raise

    def prune(self, now_play_hours: float) -> int:
        """Delete lessons whose decayed confidence fell below the floor; return how many."""
        self.flush()
        stale = [
            lesson.lesson_id
            for lesson in self.all()
            if decayed_confidence(lesson, now_play_hours, self.rate_per_hour) < self.floor
        ]
        if stale:
            self._delete(stale)
        return len(stale)

    def close(self) -> None:
        try:
            if self._client is not None:
                self.flush()
        finally:
            self._close_client()

    def _close_client(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            close = getattr(client, "close", None)
            if close is not None:
                with _chroma_errors("close"):
                    close()

    def __enter__(self) -> LessonStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
