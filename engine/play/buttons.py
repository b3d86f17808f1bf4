"""Buttons as an agent names them, checked as the buttons level's JSON answer checks them
(engine/llm/answers.py `ButtonAnswer`): lower-case names of the eight buttons, in order, at most three."""

from __future__ import annotations

from collections.abc import Sequence

from engine.game.buttons import Button
from engine.llm.answers import MAX_BUTTONS
from engine.play.errors import PlayError

BUTTON_NAMES = tuple(button.value for button in Button)


def parse_buttons(names: Sequence[str]) -> tuple[Button, ...]:
    """The buttons named, in order; PlayError for none, more than three, or a name that is not one."""
    if isinstance(names, str):  # one name given bare would otherwise be read letter by letter
        names = [names]
    if not names:
        raise PlayError(f"press 1 to {MAX_BUTTONS} buttons, not none")
    if len(names) > MAX_BUTTONS:
        raise PlayError(f"press at most {MAX_BUTTONS} buttons at a time, not {len(names)}")
    unknown = [name for name in names if name not in BUTTON_NAMES]
    if unknown:
        raise PlayError(f"not a button: {unknown[0]!r} (one of {', '.join(BUTTON_NAMES)})")
    return tuple(Button(name) for name in names)
