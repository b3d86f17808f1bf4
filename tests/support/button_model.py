"""Stub models for the harness levels, answered through `StubLLMServer` and the real SDKs.

`pressing(buttons)` answers every buttons prompt with the same buttons; `walker(route)` reads the
position from the RAM text of a buttons-level prompt and presses one direction a step towards the next
waypoint of its map, as a scripted player would; `raw(text)` answers any text at all (for the malformed
answers the engine must repair or count as no-ops)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence

from tests.support.sensible_model import sensible
from tests.support.stub_llm import Responder, StubReply, StubRequest

WHERE = re.compile(r"map: (\w+) at \(x (\d+), y (\d+)\)")
Square = tuple[int, int]

# From power-on, the engine's intro leaves the player in the bedroom at (3, 6): the stairs at (7, 1), then
# down the ground floor to the door mat at (3, 7) and one step more out of the door (pret maps
# RedsHouse2F / RedsHouse1F; the squares were found by walking them on the cartridge).
LEAVE_THE_HOUSE: dict[str, tuple[Square, ...]] = {
    "REDS_HOUSE_2F": ((4, 6), (4, 1), (7, 1)),
    "REDS_HOUSE_1F": ((7, 6), (3, 6), (3, 8)),
}


def button_answer(buttons: Sequence[str], **changes: object) -> str:
    answer: dict[str, object] = {"button_presses": list(buttons), "reasoning": "scripted",
                                 "observations": "a stub model", "context_detected": "navigation",
                                 "confidence": "medium", "notes": "", "new_skill": ""}  # fmt: skip
    answer.update(changes)
    return json.dumps(answer)


def _reply(text: str, request: StubRequest) -> StubReply:
    return StubReply(text=text, input_tokens=len(request.last_user_text) // 4 + 100, output_tokens=30)


def pressing(buttons: Sequence[str], **changes: object) -> Responder:
    def respond(request: StubRequest) -> StubReply:
        if '"button_presses"' not in request.last_user_text:
            return sensible(request)
        return _reply(button_answer(buttons, **changes), request)

    return respond


def raw(text: str) -> Responder:
    def respond(request: StubRequest) -> StubReply:
        return _reply(text, request)

    return respond


def walker(route: Mapping[str, Sequence[Square]] = LEAVE_THE_HOUSE) -> Responder:
    reached: dict[str, int] = {}

    def respond(request: StubRequest) -> StubReply:
        found = WHERE.search(request.last_user_text)
        if found is None:
            return _reply(button_answer([], reasoning="no position in the prompt"), request)
        name, x, y = found.group(1), int(found.group(2)), int(found.group(3))
        waypoints = route.get(name, ())
        for index, square in enumerate(waypoints):
            if square == (x, y):
                reached[name] = max(reached.get(name, -1), index)
        target = waypoints[min(reached.get(name, -1) + 1, len(waypoints) - 1)] if waypoints else (x, y)
        return _reply(button_answer([_toward((x, y), target)], reasoning=f"towards {target}"), request)

    return respond


def _toward(here: Square, there: Square) -> str:
    if there[0] != here[0]:
        return "right" if there[0] > here[0] else "left"
    if there[1] != here[1]:
        return "down" if there[1] > here[1] else "up"
    return "a"
