"""What each model tier must answer: frozen pydantic models, and the JSON schema sent to providers.

The models enforce every limit locally. Providers' structured-output features accept only a subset of
JSON schema (OpenAI strict mode, Anthropic structured outputs), so `answer_schema` sends a closed,
fully required schema without the keywords they refuse; the limits still reach the model through each
field's description and the prompt.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints, ValidationInfo, field_validator
from pydantic_core import PydanticCustomError

from engine.frozen import Frozen

AnswerKind = Literal["tactical", "strategic", "reflection", "buttons", "choice"]


class TacticalAnswer(Frozen):
    action_id: int = Field(description="the id of one of the legal actions listed in the prompt")
    reasoning: str = Field(min_length=1, max_length=200, description="why this action, at most 200 chars")
    observations: str = Field("", max_length=300, description="what stands out now, at most 300 chars")
    confidence: float = Field(ge=0.0, le=1.0, description="0.0 to 1.0")

    @field_validator("action_id")
    @classmethod
    def _offered(cls, value: int, info: ValidationInfo) -> int:
        return offered(value, info, "action_id", "legal actions")


def offered(value: int, info: ValidationInfo, field: str, words: str) -> int:
    """An id the prompt offered. The set changes every decision, so it arrives as validation context
    (`action_ids`), not in the model."""
    legal = (info.context or {}).get("action_ids")
    if legal is not None and value not in legal:
        raise PydanticCustomError(
            "not_offered",
            "{field} {value} is not one of the {words} {legal}",
            {"field": field, "value": value, "words": words, "legal": ", ".join(str(i) for i in legal)},
        )
    return value


PriorityText = Annotated[str, StringConstraints(min_length=1, max_length=120)]
WarningText = Annotated[str, StringConstraints(max_length=120)]


class StrategicAnswer(Frozen):
    objective: str = Field(min_length=1, max_length=200, description="one goal, at most 200 chars")
    priorities: list[PriorityText] = Field(
        max_length=4, description="at most 4, most important first, each at most 120 chars"
    )
    warnings: list[WarningText] = Field(
        default_factory=list, max_length=3, description="at most 3, each at most 120 chars"
    )


class Insight(Frozen):
    """One lesson in the model's words. Reflection reads its keys (types, species, moves, trainers) from
    the game names it uses, so the prompt asks for names as the game spells them."""

    lesson: str = Field(
        min_length=1,
        max_length=240,
        description="a specific, checkable lesson naming species, moves, types and trainers as the game "
        "spells them (ONIX, WATER_GUN, ROCK, BROCK #1), at most 240 chars",
    )
    applies_to: str = Field(
        min_length=1,
        max_length=80,
        description='when it applies, e.g. "vs BROCK #1", "WATER vs ROCK", "low HP"',
    )
    confidence: float = Field(ge=0.0, le=1.0, description="0.0 to 1.0")


class ReflectionAnswer(Frozen):
    summary: str = Field(min_length=1, max_length=300, description="what happened, at most 300 chars")
    insights: list[Insight] = Field(max_length=5, description="at most 5 lessons")


ButtonName = Literal["up", "down", "left", "right", "a", "b", "start", "select"]
MAX_BUTTONS = 3
NOTES_LIMIT = 2500


class ButtonAnswer(Frozen):
    """The buttons and vision harness levels: the model presses up to three buttons itself. `notes`
    (when not empty) replaces the model's notes; `new_skill` (when not empty) proposes a skill in the
    library's markdown form. Both are screened before they are kept."""

    button_presses: list[ButtonName] = Field(
        max_length=MAX_BUTTONS, description="0 to 3 of up, down, left, right, a, b, start, select, in order"
    )
    reasoning: str = Field(max_length=200, description="why these buttons, at most 200 chars")
    observations: str = Field(max_length=300, description="what the screen shows now, at most 300 chars")
    context_detected: Literal["battle", "navigation", "menu", "unknown"]
    confidence: Literal["high", "medium", "low"]
    notes: str = Field("", max_length=NOTES_LIMIT, description='your notes rewritten whole, or "" to keep')
    new_skill: str = Field("", max_length=1200, description='a skill to keep (markdown), or ""')


class ChoiceAnswer(Frozen):
    """The decisions harness level: one of the options the rule-based tier weighs, by its id."""

    choice_id: int = Field(description="the id of one of the options listed in the prompt")
    reasoning: str = Field(min_length=1, max_length=200, description="why this option, at most 200 chars")

    @field_validator("choice_id")
    @classmethod
    def _offered(cls, value: int, info: ValidationInfo) -> int:
        return offered(value, info, "choice_id", "options")


Answer = TacticalAnswer | StrategicAnswer | ReflectionAnswer | ButtonAnswer | ChoiceAnswer

ANSWERS: dict[str, type[Answer]] = {
    "tactical": TacticalAnswer,
    "strategic": StrategicAnswer,
    "reflection": ReflectionAnswer,
    "buttons": ButtonAnswer,
    "choice": ChoiceAnswer,
}
# Answers that must be the JSON object and nothing else: text around it is an error to repair, not
# something to look past (the buttons format says "nothing outside the JSON").
STRICT_ANSWERS = frozenset({"buttons"})

# What the answer looks like, as the prompts show it: one line each, the limits spelled out.
SHAPES: dict[str, str] = {
    "tactical": '{"action_id": <one of the ids>, "reasoning": "...≤200 chars", '
    '"observations": "...≤300 chars", "confidence": 0.0-1.0}',
    "strategic": '{"objective": "...≤200 chars", "priorities": ["...≤120 chars", ...up to 4], '
    '"warnings": ["...≤120 chars", ...up to 3]}',
    "reflection": '{"summary": "...≤300 chars", "insights": [{"lesson": "...≤240 chars", '
    '"applies_to": "...≤80 chars", "confidence": 0.0-1.0}, ...up to 5]}',
    "buttons": '{"button_presses": ["up"|"down"|"left"|"right"|"a"|"b"|"start"|"select", ...up to 3], '
    '"reasoning": "...≤200 chars", "observations": "...≤300 chars", '
    '"context_detected": "battle"|"navigation"|"menu"|"unknown", "confidence": "high"|"medium"|"low", '
    '"notes": "" or your notes rewritten whole (≤2500 chars), "new_skill": "" or a skill in markdown}',
    "choice": '{"choice_id": <one of the ids>, "reasoning": "...≤200 chars"}',
}

# Keywords OpenAI strict mode or Anthropic structured outputs reject (in some versions); the pydantic
# model still enforces what they say.
_UNSUPPORTED = frozenset(
    {
        "default",
        "minLength",
        "maxLength",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "minItems",
        "maxItems",
        "pattern",
        "format",
    }
)


def answer_schema(model_cls: type[BaseModel]) -> dict[str, Any]:
    """The answer's JSON schema for providers: references inlined, every object closed and fully
    required, unsupported keywords removed."""
    raw = model_cls.model_json_schema()
    definitions = raw.pop("$defs", {})
    cleaned: dict[str, Any] = _clean(raw, definitions)
    return cleaned


def _clean(node: Any, definitions: dict[str, Any]) -> Any:
    if isinstance(node, list):
        return [_clean(item, definitions) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        # Inlined because not every provider version resolves $defs; the answers are not recursive.
        target = definitions[node["$ref"].rsplit("/", 1)[-1]]
        return _clean({**target, **{k: v for k, v in node.items() if k != "$ref"}}, definitions)
    cleaned: dict[str, Any] = {}
    for key, value in node.items():
        if key in _UNSUPPORTED:
            continue
        if key == "properties":
            cleaned[key] = {name: _clean(sub, definitions) for name, sub in value.items()}
        else:
            cleaned[key] = _clean(value, definitions)
    if cleaned.get("type") == "object":
        cleaned["additionalProperties"] = False
        cleaned["required"] = list(cleaned.get("properties", {}))
    return cleaned
