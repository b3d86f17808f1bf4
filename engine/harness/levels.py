"""What each harness level lets the model do and shows it (docs/harness.md has the long form)."""

from __future__ import annotations

from engine.config import HarnessLevel

LEVEL_WORDS: dict[HarnessLevel, str] = {
    "engine": "rule-based mechanics; models at the decision points the routing names",
    "decisions": "every decision asked of the models with the legal options; rule-based only as fallback",
    "buttons": "the model presses up to three buttons a step, seeing the screen and what RAM says",
    "vision": "the model presses up to three buttons a step, seeing only the screen and its own notes",
}


def presses_buttons(level: HarnessLevel) -> bool:
    """The levels where the model, not the engine's closed loops, presses the buttons."""
    return level in ("buttons", "vision")


def shows_ram(level: HarnessLevel) -> bool:
    """Pure vision never shows RAM to the model: it is read for milestones, checkpoints and scoring."""
    return level != "vision"


def asks_every_decision(level: HarnessLevel) -> bool:
    return level == "decisions"
