"""What a talk presses on the screens it meets: a menu a person opens is closed, unless the talk takes its
first entry (the drink the Celadon roof's girl is offered); the START menu is always closed."""

from __future__ import annotations

from engine.game.buttons import Button
from engine.game.models import DecisionPoint as D
from engine.mechanics.walking import OverworldDriver
from engine.story.graph import story_graph


def press(point: D, menu: Button, answer: Button = Button.A) -> Button | None:
    driver = object.__new__(OverworldDriver)  # the choice reads no emulator
    return driver._button(point, answer, 0, menu)


def test_a_menu_is_closed_unless_the_talk_takes_its_first_entry() -> None:
    assert press(D.OTHER_MENU, Button.B) is Button.B
    assert press(D.OTHER_MENU, Button.A) is Button.A
    assert press(D.START_MENU, Button.A) is Button.B
    assert press(D.YES_NO_PROMPT, Button.A, answer=Button.B) is Button.B


def test_the_roof_girl_gets_the_first_drink_before_the_guard_gets_his() -> None:
    objective = next(o for o in story_graph().objectives if o.name == "reach_saffron")
    kinds = [step.do for step in objective.steps]
    girl = objective.steps[kinds.index("talk")]
    assert kinds.index("buy") < kinds.index("talk") < kinds.index("gate")
    assert (girl.map, girl.answer, girl.gives) == ("CELADON_MART_ROOF", "first", "TM_ICE_BEAM")
