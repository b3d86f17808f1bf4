"""The prompt of the decisions harness level for a choice that is not a battle action (the next leg out
of battle): the situation as RAM says it, the standing orders and the options the engine can carry out."""

from __future__ import annotations

from collections.abc import Sequence

from engine.game.models import GameState
from engine.harness.ram_text import describe_state
from engine.llm.answers import SHAPES
from engine.llm.render import ActionOption, fill
from engine.messages import Directive


def render_choice(
    question: str, state: GameState, directive: Directive | None, options: Sequence[ActionOption]
) -> tuple[str, str]:
    ids = ", ".join(str(option.id) for option in options)
    orders = ""
    if directive is not None:
        plan = "".join(f"\n  - {step}" for step in directive.plan[:4])
        orders = f"Standing orders: {directive.objective}{plan}"
    user = fill(
        "choice_user.md",
        question=question,
        state=describe_state(state),
        directive=orders,
        options="\n".join(f"{o.id}: {o.label}" + (f" — {o.note}" if o.note else "") for o in options),
        shape=SHAPES["choice"].replace("<one of the ids>", f"<one of {ids}>"),
    )
    return fill("choice_system.md"), user
