"""What a role asks the model gateway, and what it gets back (both cross the gateway actor's boundary)."""

from __future__ import annotations

from typing import Any, Literal

from engine.frozen import Frozen
from engine.llm.answers import AnswerKind
from engine.llm.wire import ImagePart
from engine.messages import Selection, Tier

Asker = Literal["tactician", "strategist", "reflection"]


class ModelTask(Frozen):
    kind: Literal["model_task"] = "model_task"
    role: Asker
    answer: AnswerKind
    wanted: Tier
    reason: str  # why `wanted` was chosen (the router's words)
    system: str
    user: str
    images: tuple[ImagePart, ...] = ()
    action_ids: tuple[int, ...] | None = None  # for a tactical answer: the legal ids
    battle_id: str | None = None


class ModelOutcome(Frozen):
    """`answer` is the validated answer as JSON data, or None: the caller decides on the rule-based tier,
    and `selection.steps` say why."""

    kind: Literal["model_outcome"] = "model_outcome"
    answer: dict[str, Any] | None
    selection: Selection
