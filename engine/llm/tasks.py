"""What a role asks the model gateway, and what it gets back (both cross the gateway actor's boundary)."""

from __future__ import annotations

from typing import Literal, TypeVar

from engine.config import Tier
from engine.frozen import Frozen
from engine.llm.answers import Answer, AnswerKind
from engine.llm.errors import AnswerInvalid
from engine.llm.wire import ImagePart
from engine.messages import Selection

AnswerT = TypeVar("AnswerT", bound=Frozen)
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
    cache_system: bool = False  # the system prompt is a stable prefix worth the provider's cache


class ModelOutcome(Frozen):
    """`answer` is the validated answer, or None: the caller decides on the rule-based tier, and
    `selection.steps` say why."""

    kind: Literal["model_outcome"] = "model_outcome"
    answer: Answer | None
    selection: Selection

    def answer_as(self, kind: type[AnswerT]) -> AnswerT | None:
        """The answer as the kind the task asked for (None when the decision fell back)."""
        if self.answer is None:
            return None
        if not isinstance(self.answer, kind):
            raise AnswerInvalid(
                f"expected a {kind.__name__}, the gateway returned a {type(self.answer).__name__}"
            )
        return self.answer
