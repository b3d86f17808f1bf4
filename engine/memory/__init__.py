"""Long-term lesson memory: lesson models and scoring (pure) and the Chroma-backed lesson store."""

from __future__ import annotations

from engine.memory.errors import MemoryStoreError
from engine.memory.lessons import (
    Lesson,
    LessonContext,
    LessonKind,
    decayed_confidence,
    equivalence_key,
    merge,
    relevance_score,
)

__all__ = [
    "Lesson",
    "LessonContext",
    "LessonKind",
    "MemoryStoreError",
    "decayed_confidence",
    "equivalence_key",
    "merge",
    "relevance_score",
]
