"""From a model's answer text to a validated answer model, and the repair message when that fails.

Models wrap JSON in code fences or prose despite being told not to; the first balanced top-level object
is taken. Every failure is an `AnswerInvalid` with a short message written for the model to read, since
it goes back to the model verbatim in the one repair prompt.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import ValidationError

from engine.llm.answers import ANSWERS, SHAPES, STRICT_ANSWERS, Answer, AnswerKind
from engine.llm.errors import AnswerInvalid
from engine.llm.render import fill

MAX_ERRORS = 3
MAX_MESSAGE = 400


def extract_json(text: str) -> object:
    """The first top-level JSON object in `text`, parsed: bare, fenced or wrapped in prose."""
    start = text.find("{")
    first_error: json.JSONDecodeError | None = None
    while start != -1:
        end = _object_end(text, start)
        if end is None:
            if first_error is not None:
                break
            raise AnswerInvalid("the JSON object is never closed (was the answer cut off?)")
        try:
            return json.loads(text[start:end])
        except json.JSONDecodeError as exc:
            first_error = first_error or exc
        # A span that does not parse is skipped whole: an object nested in it is not the answer.
        start = text.find("{", end)
    if first_error is not None:
        raise AnswerInvalid(
            f"the JSON does not parse: {first_error.msg} at line {first_error.lineno} "
            f"column {first_error.colno}"
        )
    raise AnswerInvalid("no JSON object found in the answer")


def _object_end(text: str, start: int) -> int | None:
    """The index just past the `}` that closes the `{` at `start`; braces inside strings do not count."""
    depth = 0
    in_string = False
    escaped = False
    for index in range(start, len(text)):
        char = text[index]
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                return index + 1
    return None


def parse_answer(text: str, kind: AnswerKind, context: dict[str, Any] | None = None) -> Answer:
    """The answer as its kind's model; `context` carries what the validators check against (the legal
    action ids of a tactical answer)."""
    data = extract_json(text)
    if kind in STRICT_ANSWERS:
        only_json(text)
    try:
        return ANSWERS[kind].model_validate(data, context=context)
    except ValidationError as exc:
        raise AnswerInvalid(describe_errors(exc)) from exc


def only_json(text: str) -> None:
    """The answer must be one JSON object with nothing before or after it (not even a code fence)."""
    stripped = text.strip()
    end = _object_end(stripped, 0) if stripped.startswith("{") else None
    if end is None or end != len(stripped):
        raise AnswerInvalid("text outside the JSON object: answer with the JSON object only")


def describe_errors(error: ValidationError) -> str:
    """A compact account a model can act on: field path and message, the first few errors only."""
    errors = error.errors(include_url=False)
    parts = [f"{_path(e['loc'])}: {_message(e)}" for e in errors[:MAX_ERRORS]]
    if len(errors) > MAX_ERRORS:
        parts.append(f"and {len(errors) - MAX_ERRORS} more")
    message = "; ".join(parts)
    return message if len(message) <= MAX_MESSAGE else message[: MAX_MESSAGE - 1] + "…"


def _path(loc: tuple[int | str, ...]) -> str:
    path = ""
    for part in loc:
        path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else str(part))
    return path or "answer"


def _message(error: Any) -> str:
    message = str(error["msg"])
    value = error.get("input")
    if error["type"] == "string_too_long" and isinstance(value, str):
        # The model cannot count its own characters: telling it how far over it went helps it cut.
        message += f" (it has {len(value)})"
    return message


def repair_prompt(error: AnswerInvalid, kind: AnswerKind) -> str:
    """The one message sent back after an invalid answer."""
    return fill("repair.md", error=str(error), shape=SHAPES[kind])
