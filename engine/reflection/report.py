"""What one reflection found and did, as written to runs/<run id>/reflections/<battle id>.json."""

from __future__ import annotations

from typing import Literal

from engine.battles.models import Outcome
from engine.frozen import Frozen
from engine.llm.answers import ReflectionAnswer
from engine.memory.lessons import Lesson
from engine.messages import Selection
from engine.reflection.detect import Failure
from engine.reflection.forensics import Forensics
from engine.reflection.validation import Rejection

# stored: the memory service took the accepted lessons; nothing_to_store: none were accepted;
# no_memory: no memory is configured, so nothing was stored; failed: the memory call failed (see error).
MemoryStatus = Literal["stored", "nothing_to_store", "no_memory", "failed"]


class ReflectionReport(Frozen):
    kind: Literal["reflection_report"] = "reflection_report"
    battle_id: str
    run_id: str
    outcome: Outcome
    battle_type: Literal["wild", "trainer"]
    opponent: str
    failure: Failure
    forensics: Forensics
    synthesized_by: tuple[str, ...]  # "rule_based", then the model tier that answered, if any
    model_skipped: str | None = None  # why the model was not asked, when it was not
    model_summary: str | None = None  # the model's account of the battle
    answer: ReflectionAnswer | None = None  # the model's validated answer
    accepted: tuple[Lesson, ...] = ()
    rejected: tuple[Rejection, ...] = ()
    memory: MemoryStatus
    stored: tuple[str, ...] = ()  # lesson ids the memory returned (a merged lesson keeps its stored id)
    selection: Selection | None = None  # the model call's tier, cost and steps, when one was made
    error: str | None = None
