"""The harness levels' pure parts: the buttons answer's strict format, the text of what RAM says, the
prompts each level shows, and the counts that stop a run whose model keeps failing."""

from __future__ import annotations

import pytest

from engine.config import HarnessConfig
from engine.game.buttons import Button
from engine.game.capture import load_capture
from engine.game.models import GameState
from engine.game.ram import RED_BLUE
from engine.game.state import decode_state
from engine.harness.levels import presses_buttons, shows_ram
from engine.harness.ram_text import describe_state
from engine.harness.steps import ButtonChoice, ButtonRequest, Screens, history_lines
from engine.llm.answers import ButtonAnswer
from engine.llm.button_prompts import render_buttons
from engine.llm.errors import AnswerInvalid
from engine.llm.structured import parse_answer
from engine.messages import RULE_BASED_DEFAULT
from engine.runtime.button_steps import ButtonSteps
from tests.conftest import GEN1_FIXTURES
from tests.support.button_model import button_answer

BAD_ANSWERS = {
    "malformed JSON": '{"button_presses": ["up"], "reasoning": "x"',
    "extra text": "Sure! " + button_answer(["up"]),
    "a code fence": "```json\n" + button_answer(["up"]) + "\n```",
    "four buttons": button_answer(["up", "up", "a", "b"]),
    "an unknown button": button_answer(["jump"]),
    "over-long reasoning": button_answer(["up"], reasoning="r" * 201),
    "over-long observations": button_answer(["up"], observations="o" * 301),
    "a context outside the list": button_answer(["up"], context_detected="overworld"),
    "a numeric confidence": button_answer(["up"], confidence=0.9),
    "an extra field": button_answer(["up"], mood="happy"),
}


def state_of(name: str) -> GameState:
    return decode_state(load_capture(GEN1_FIXTURES / name), RED_BLUE)


def test_a_well_formed_answer_gives_its_buttons_in_order() -> None:
    answer = parse_answer(button_answer(["up", "a", "start"]), "buttons")
    assert isinstance(answer, ButtonAnswer)
    assert answer.button_presses == ["up", "a", "start"]
    assert answer.confidence == "medium"


@pytest.mark.parametrize("text", BAD_ANSWERS.values(), ids=BAD_ANSWERS.keys())
def test_every_departure_from_the_format_is_invalid(text: str) -> None:
    with pytest.raises(AnswerInvalid):
        parse_answer(text, "buttons")


def test_other_answers_may_still_come_wrapped_in_prose() -> None:
    """Only the buttons format is strict: the tactical answer keeps its tolerance of a fence."""
    text = '```json\n{"action_id": 0, "reasoning": "r", "observations": "", "confidence": 0.5}\n```'
    assert parse_answer(text, "tactical", {"action_ids": [0]}).model_dump()["action_id"] == 0


def test_ram_text_says_where_the_player_stands_and_what_the_screen_shows() -> None:
    state = state_of("red_pallet_town_overworld")
    text = describe_state(state)
    where = state.overworld
    assert f"map: {where.map_name} at (x {where.x}, y {where.y})" in text
    assert "party: " not in text  # before Oak's lab there is no party to speak of
    battle = describe_state(state_of("red_wild_main_menu"))
    ours = state_of("red_wild_main_menu").party[0]
    assert f"{ours.species_name} L{ours.level} {ours.hp}/{ours.max_hp} HP" in battle
    assert "battle (wild, wild)" in battle and "% HP" in battle
    dialog = describe_state(state_of("red_mom_dialog"))
    assert "text on screen: " in dialog


def test_the_vision_level_shows_no_ram_and_the_buttons_level_does() -> None:
    state = state_of("red_pallet_town_overworld")
    ram = describe_state(state)
    for level in ("buttons", "vision"):
        request = ButtonRequest(level=level, step=3, screen_png=b"png", ram_text=ram)
        system, user = render_buttons(request, "remember the stairs", "", "- step 2: pressed up")
        assert ("What the game's memory says" in user) is (level == "buttons")
        assert (state.overworld.map_name in user) is (level == "buttons")
        assert "remember the stairs" in system and "Step 3." in user
    assert shows_ram("buttons") and not shows_ram("vision")
    assert presses_buttons("vision") and not presses_buttons("decisions")


def test_history_shows_the_last_steps_pressed_and_seen() -> None:
    choice = ButtonChoice(buttons=(Button.UP,), observations="a bedroom", selection=RULE_BASED_DEFAULT)
    noop = ButtonChoice(fallback=True, selection=RULE_BASED_DEFAULT)
    lines = history_lines([(1, choice), (2, noop)])
    assert lines.splitlines() == ["- step 1: pressed up (saw: a bedroom)", "- step 2: pressed nothing"]


def test_noops_in_a_row_and_an_unchanging_game_stop_the_run() -> None:
    steps = ButtonSteps(HarnessConfig(level="buttons", max_noops_in_row=3, stall_steps=4))
    noop = ButtonChoice(fallback=True, selection=RULE_BASED_DEFAULT)
    pressed = ButtonChoice(buttons=(), selection=RULE_BASED_DEFAULT)
    for digest in ("a", "b"):
        steps.record(noop, digest)
    assert steps.stop_reason() is None
    steps.record(pressed, "c")  # an answer resets the no-op count
    for digest in ("d", "e", "f"):
        steps.record(noop, digest)
    assert steps.stop_reason() == "model_failing"
    still = ButtonSteps(HarnessConfig(level="buttons", stall_steps=3))
    for _ in range(4):
        still.record(pressed, "same")
    assert still.stop_reason() == "stalled"


def test_the_request_of_each_level() -> None:
    state = state_of("red_pallet_town_overworld")
    screens = Screens(plain=b"plain", scaled=b"scaled")
    buttons = ButtonSteps(HarnessConfig(level="buttons")).request(1, state, screens, None)
    assert buttons.screen_png == b"scaled" and buttons.map_name == state.overworld.map_name
    assert buttons.screen_kind == "overworld" and "map: " in buttons.ram_text
    vision = ButtonSteps(HarnessConfig(level="vision")).request(1, state, screens, None)
    assert vision.ram_text == "" and vision.map_name == "any" and vision.screen_kind == "any"


def test_a_choice_outside_the_options_is_invalid() -> None:
    text = '{"choice_id": 3, "reasoning": "the third"}'
    with pytest.raises(AnswerInvalid, match="choice_id 3 is not one of the options 0, 1, 2"):
        parse_answer(text, "choice", {"action_ids": [0, 1, 2]})
    assert parse_answer(
        '{"choice_id": 1, "reasoning": "r"}', "choice", {"action_ids": [0, 1]}
    ).model_dump() == {
        "choice_id": 1,
        "reasoning": "r",
    }
