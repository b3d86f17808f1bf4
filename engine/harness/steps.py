"""One step at the buttons and vision levels: what the model was shown, what it answered, what was
pressed. These cross actor boundaries, so they are frozen models."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal, Protocol

from pydantic import Field

from engine.config import HarnessLevel
from engine.frozen import Frozen
from engine.game.buttons import Button
from engine.messages import Selection
from engine.world.goals import Leg

HISTORY_SHOWN = 8


class ReadScreen(Protocol):
    """The Vision module's reading of a screen from pixels, as the harness uses it."""

    @property
    def screen(self) -> str: ...
    def as_text(self) -> str: ...


class ButtonRequest(Frozen):
    """What the tactician needs to ask for one step. `ram_text` is empty at the vision level;
    `screen_text` is the Vision module's reading from pixels, when the config gives it."""

    kind: Literal["button_request"] = "button_request"
    level: HarnessLevel
    step: int = Field(ge=1)
    screen_png: bytes
    ram_text: str = ""
    screen_text: str = ""
    screen_kind: str = "any"  # for matching skills: RAM's screen kind (buttons) or the reading's (vision)
    map_name: str = "any"


class ButtonChoice(Frozen):
    """The buttons to press (empty: a no-op), and the model's words. `fallback`: the model failed (no
    valid answer after one repair) and the step is a counted no-op."""

    kind: Literal["button_choice"] = "button_choice"
    buttons: tuple[Button, ...] = ()
    reasoning: str = ""
    observations: str = ""
    context: str = "unknown"
    confidence: str = "low"
    fallback: bool = False
    selection: Selection
    notes_verdict: str = ""  # what became of a notes rewrite, in one line ("" when none was asked)
    skill_verdict: str = ""


class Screens(Frozen):
    """One rendered frame as PNG twice: as the Game Boy draws it (for the Vision module's reading) and
    scaled up for the model (vision models read an 8-pixel font badly)."""

    kind: Literal["screens"] = "screens"
    plain: bytes
    scaled: bytes


class PressReport(Frozen):
    kind: Literal["press_report"] = "press_report"
    frames: int = Field(ge=0)  # emulated for the step: each button held and let go, then the settle


def history_lines(choices: Iterable[tuple[int, ButtonChoice]]) -> str:
    """The last steps as the prompt shows them: the step, what was pressed, what the model saw."""
    lines = []
    for step, choice in list(choices)[-HISTORY_SHOWN:]:
        pressed = ", ".join(button.value for button in choice.buttons) or "nothing"
        seen = f" (saw: {choice.observations[:120]})" if choice.observations else ""
        lines.append(f"- step {step}: pressed {pressed}{seen}")
    return "\n".join(lines)


class LegChoice(Frozen):
    """The decisions level out of battle: the leg chosen among the options the engine could carry out,
    and the tier that chose it (rule-based when the model failed: a counted fallback)."""

    kind: Literal["leg_choice"] = "leg_choice"
    leg: Leg
    label: str
    selection: Selection
    options: tuple[str, ...] = ()
