"""Answer text to validated answers: JSON extraction, validation errors a model can act on, schemas."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.llm.answers import (
    ANSWERS,
    ReflectionAnswer,
    StrategicAnswer,
    TacticalAnswer,
    answer_schema,
)
from engine.llm.errors import AnswerInvalid
from engine.llm.structured import extract_json, parse_answer, repair_prompt

TACTICAL = '{"action_id": 2, "reasoning": "BUBBLE is 4x on GEODUDE", "observations": "", "confidence": 0.9}'


def test_bare_json() -> None:
    assert extract_json(' {"a": 1} ') == {"a": 1}


@pytest.mark.parametrize("fence", ["```json", "```", "```JSON"])
def test_fenced_json(fence: str) -> None:
    assert extract_json(f'{fence}\n{{"a": [1, 2]}}\n```') == {"a": [1, 2]}


def test_json_wrapped_in_prose() -> None:
    assert extract_json('Here is my answer: {"a": {"b": 2}} Good luck!') == {"a": {"b": 2}}


def test_braces_and_escaped_quotes_inside_strings() -> None:
    text = 'ok {"reasoning": "a } brace, a { brace and a \\"quote}\\"", "n": 1} done'
    assert extract_json(text) == {"reasoning": 'a } brace, a { brace and a "quote}"', "n": 1}


def test_the_first_of_two_objects_wins() -> None:
    assert extract_json('{"first": 1}\n{"second": 2}') == {"first": 1}


def test_a_brace_in_prose_before_the_answer_is_skipped() -> None:
    assert extract_json('I weighed {the options}. {"a": 1}') == {"a": 1}


@pytest.mark.parametrize("text", ["", "I choose BUBBLE.", "[1, 2, 3]"])
def test_no_json_object(text: str) -> None:
    with pytest.raises(AnswerInvalid, match="no JSON object"):
        extract_json(text)


def test_broken_json_names_the_position() -> None:
    with pytest.raises(AnswerInvalid, match=r"does not parse: .* line 1 column \d+"):
        extract_json('{"action_id": 1, "reasoning": "x",}')


def test_a_cut_off_object() -> None:
    with pytest.raises(AnswerInvalid, match="never closed"):
        extract_json('{"action_id": 1, "reasoning": "the answer stops her')


def test_a_valid_tactical_answer() -> None:
    answer = parse_answer(f"```json\n{TACTICAL}\n```", "tactical", {"action_ids": [0, 1, 2, 3]})
    assert answer == TacticalAnswer(action_id=2, reasoning="BUBBLE is 4x on GEODUDE", confidence=0.9)


def test_observations_may_be_left_out() -> None:
    answer = parse_answer('{"action_id": 0, "reasoning": "x", "confidence": 1}', "tactical")
    assert isinstance(answer, TacticalAnswer) and answer.observations == ""


def test_any_action_id_without_context() -> None:
    answer = parse_answer('{"action_id": 42, "reasoning": "x", "confidence": 0}', "tactical")
    assert isinstance(answer, TacticalAnswer) and answer.action_id == 42


def test_over_long_reasoning_is_named() -> None:
    text = f'{{"action_id": 0, "reasoning": "{"x" * 201}", "confidence": 0.5}}'
    with pytest.raises(
        AnswerInvalid, match=r"reasoning: String should have at most 200 characters \(it has 201\)"
    ):
        parse_answer(text, "tactical")


def test_confidence_out_of_range() -> None:
    with pytest.raises(AnswerInvalid, match="confidence: Input should be less than or equal to 1"):
        parse_answer('{"action_id": 0, "reasoning": "x", "confidence": 1.5}', "tactical")


def test_an_illegal_action_lists_the_legal_ids() -> None:
    text = '{"action_id": 7, "reasoning": "x", "confidence": 0.5}'
    with pytest.raises(AnswerInvalid) as caught:
        parse_answer(text, "tactical", {"action_ids": [0, 1, 2, 3]})
    assert str(caught.value) == "action_id: action_id 7 is not one of the legal actions 0, 1, 2, 3"


def test_extra_fields_are_refused() -> None:
    with pytest.raises(AnswerInvalid, match="move: Extra inputs are not permitted"):
        parse_answer('{"action_id": 0, "reasoning": "x", "confidence": 0.5, "move": "BUBBLE"}', "tactical")


def test_only_the_first_errors_are_told() -> None:
    bad = {"objective": "", "priorities": 3, "warnings": 4, "plan": "x"}
    with pytest.raises(AnswerInvalid) as caught:
        parse_answer(json.dumps(bad), "strategic")
    message = str(caught.value)
    assert message.count(";") == 3 and message.endswith("and 1 more")
    assert "plan" not in message


def test_error_messages_stay_short() -> None:
    with pytest.raises(AnswerInvalid) as caught:
        parse_answer(
            json.dumps({"x" * 600: 1, "action_id": 0, "reasoning": "r", "confidence": 0}), "tactical"
        )
    assert len(str(caught.value)) <= 400


def test_a_strategic_answer() -> None:
    answer = parse_answer(
        'Sure. {"objective": "beat BROCK", "priorities": ["lead with WARTORTLE"], "warnings": []}',
        "strategic",
    )
    assert answer == StrategicAnswer(objective="beat BROCK", priorities=["lead with WARTORTLE"])


def test_a_strategic_answer_with_too_many_priorities() -> None:
    with pytest.raises(AnswerInvalid, match="priorities: List should have at most 4 items"):
        parse_answer(json.dumps({"objective": "x", "priorities": ["a"] * 5, "warnings": []}), "strategic")


def test_an_over_long_priority_names_its_index() -> None:
    with pytest.raises(AnswerInvalid, match=r"priorities\[1\]: String should have at most 120"):
        parse_answer(
            json.dumps({"objective": "x", "priorities": ["a", "b" * 121], "warnings": []}), "strategic"
        )


def test_a_reflection_answer() -> None:
    text = json.dumps(
        {
            "summary": "Won with BUBBLE.",
            "insights": [{"lesson": "Lead with water moves", "applies_to": "vs BROCK", "confidence": 0.8}],
        }
    )
    answer = parse_answer(text, "reflection")
    assert isinstance(answer, ReflectionAnswer)
    assert answer.insights[0].applies_to == "vs BROCK"


def test_a_bad_insight_names_its_path() -> None:
    text = json.dumps({"summary": "s", "insights": [{"lesson": "", "applies_to": "x", "confidence": 0.5}]})
    with pytest.raises(AnswerInvalid, match=r"insights\[0\]\.lesson: String should have at least 1"):
        parse_answer(text, "reflection")


@pytest.mark.parametrize("kind", sorted(ANSWERS))
def test_schemas_are_closed_and_fully_required(kind: str) -> None:
    schema = answer_schema(ANSWERS[kind])
    objects = list(_objects(schema))
    assert objects and objects[0] is schema
    for node in objects:
        assert node["additionalProperties"] is False
        assert sorted(node["required"]) == sorted(node["properties"])
    assert "$defs" not in schema and "$ref" not in str(schema)
    for refused in ("default", "maxLength", "minLength", "minimum", "maximum", "maxItems"):
        assert f"'{refused}'" not in str(schema)


def test_the_schema_reaches_the_nested_insight() -> None:
    insights = answer_schema(ReflectionAnswer)["properties"]["insights"]["items"]
    assert insights["required"] == ["lesson", "applies_to", "confidence"]


def test_repair_prompt_names_the_error_and_asks_for_json_only() -> None:
    error = AnswerInvalid("action_id: action_id 7 is not one of the legal actions 0, 1, 2, 3")
    text = repair_prompt(error, "tactical")
    assert str(error) in text
    assert "JSON object only" in text
    assert '"action_id"' in text and "$" not in text


def _objects(node: Any) -> Any:
    if isinstance(node, dict):
        if node.get("type") == "object":
            yield node
        for value in node.values():
            yield from _objects(value)
    elif isinstance(node, list):
        for item in node:
            yield from _objects(item)
