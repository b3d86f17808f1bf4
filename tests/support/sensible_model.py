"""A stub model that answers sensibly: for a tactical prompt it picks the legal action whose note expects
the most damage (as a reasonable model would), and it writes short valid directives and reflections. Used
with `StubLLMServer` so whole battles can be played through the real SDKs."""

from __future__ import annotations

import json
import re

from tests.support.stub_llm import StubReply, StubRequest

ACTION_LINE = re.compile(r"^\s*(\d+): (.+?)(?: — (.*))?$", re.MULTILINE)
EXPECTED = re.compile(r"~(\d+)% of its")


def best_action(prompt: str) -> tuple[int, str]:
    """(id, label) of the option with the highest expected damage; the first option if none says."""
    section = prompt.split("Legal actions", 1)[-1]
    options = [(int(i), label, note or "") for i, label, note in ACTION_LINE.findall(section)]
    if not options:
        raise ValueError("no legal actions in the prompt")

    def expected(option: tuple[int, str, str]) -> int:
        found = EXPECTED.search(option[2])
        return int(found.group(1)) if found else -1

    chosen = max(options, key=expected)
    return chosen[0], chosen[1]


def sensible(request: StubRequest) -> StubReply:
    prompt = request.last_user_text
    if '"action_id"' in prompt:
        action_id, label = best_action(prompt)
        answer: dict[str, object] = {"action_id": action_id, "reasoning": f"{label[:150]}: most damage",
                                     "observations": "stub model", "confidence": 0.7}  # fmt: skip
    elif '"choice_id"' in prompt:
        answer = {"choice_id": 0, "reasoning": "the engine's first option moves the story on"}
    elif '"objective"' in prompt:
        answer = {"objective": "win with super effective moves", "priorities": ["keep HP above half"],
                  "warnings": []}  # fmt: skip
    elif '"insights"' in prompt:
        # Written the way the reflection prompt asks (game names in capitals, a checkable type claim), so
        # it passes reflection's validation against the type chart.
        lesson = "WATER moves are super effective against ROCK types"
        insight = {"lesson": lesson, "applies_to": "WATER vs ROCK", "confidence": 0.6}
        answer = {"summary": "a stub reflection", "insights": [insight]}
    else:
        raise ValueError("the stub model does not know this prompt")
    return StubReply(text=json.dumps(answer), input_tokens=len(prompt) // 4, output_tokens=40)


def failing(_request: StubRequest) -> StubReply:
    return StubReply(status=500)
