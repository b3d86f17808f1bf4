"""The prompts of the buttons and vision harness levels: the model's notes first (a stable prefix the
provider can cache), then the step's screen, what RAM says (buttons level only), the reading of the
screen from pixels (vision level, when the config gives it), the skills that apply and the last steps."""

from __future__ import annotations

from engine.harness.levels import shows_ram
from engine.harness.steps import ButtonRequest
from engine.llm.answers import SHAPES
from engine.llm.render import fill

NO_NOTES = "(none yet)"


def render_buttons(request: ButtonRequest, notes: str, skills: str, history: str) -> tuple[str, str]:
    """(system, user) for one step. At the vision level nothing read from RAM reaches the text."""
    ram = request.ram_text if shows_ram(request.level) else ""
    what_else = "Beside it you get a short text of what the game's memory says." if ram else ""
    system = fill("buttons_system.md", what_else=what_else, notes=notes.strip() or NO_NOTES)
    user = fill(
        "buttons_user.md",
        step=str(request.step),
        ram=f"What the game's memory says:\n{ram}" if ram else "",
        reading=f"What the screen reader sees:\n{request.screen_text}" if request.screen_text else "",
        skills=skills.strip(),
        history=f"Your last steps, oldest first:\n{history}" if history else "",
        shape=SHAPES["buttons"],
    )
    return system, user
