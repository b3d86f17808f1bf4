"""The game session's parts that need no cartridge: buttons checked as the JSON format checks them, the
text state from decoded RAM captures, the story's milestones, battle action ids, the server's save-state
slots, the game's thread with its time limit, and tool failures turned into tool errors."""

from __future__ import annotations

import threading
import time
from typing import Any, get_args

import anyio
import pytest
from mcp import Client

from engine.commands import mcp as mcp_command
from engine.config import HarnessLevel
from engine.game.actions import legal_actions
from engine.game.buttons import Button
from engine.game.capture import load_capture
from engine.game.models import GameState
from engine.game.ram import RED_BLUE
from engine.game.state import decode_state
from engine.mcp_server.errors import CallTimeout
from engine.mcp_server.server import build_server
from engine.mcp_server.slots import MAX_SLOTS, Slots
from engine.mcp_server.tools import BUTTON_TOOLS, GameTools
from engine.mcp_server.worker import GameWorker
from engine.play.battle import _chosen
from engine.play.buttons import parse_buttons
from engine.play.errors import PlayError
from engine.play.looking import observation
from engine.play.models import Pressed
from engine.play.progress import StoryProgress
from tests.conftest import GEN1_FIXTURES


def captured(name: str) -> GameState:
    return decode_state(load_capture(GEN1_FIXTURES / name), RED_BLUE)


# -- buttons ---------------------------------------------------------------------------------------------
def test_buttons_are_the_json_formats_names_one_to_three_in_order() -> None:
    assert parse_buttons(["up", "a", "start"]) == (Button.UP, Button.A, Button.START)
    assert parse_buttons("b") == (Button.B,)  # one name given bare is one button, not letters


@pytest.mark.parametrize(
    ("names", "words"),
    [
        ([], "not none"),
        (["a", "a", "a", "a"], "at most 3 buttons at a time, not 4"),
        (["A"], "not a button: 'A'"),
        (["a", "jump"], "not a button: 'jump' (one of a, b, start, select, up, down, left, right)"),
        ("ab", "not a button: 'ab'"),
    ],
)
def test_other_buttons_are_refused_in_one_line(names: Any, words: str) -> None:
    with pytest.raises(PlayError) as refused:
        parse_buttons(names)
    assert words in str(refused.value) and "\n" not in str(refused.value)


# -- the text state --------------------------------------------------------------------------------------
def test_the_text_state_out_of_battle() -> None:
    state = captured("red_pallet_town_overworld")
    seen = observation(state, None, "meet_oak - meet Professor Oak", ("leave_house",), frame=99)
    assert (seen.map, seen.x, seen.y) == ("PALLET_TOWN", state.overworld.x, state.overworld.y)
    assert seen.battle is None and seen.minimap == "" and seen.frame == 99
    text = seen.as_text()
    assert text.startswith(f"map: PALLET_TOWN at (x {state.overworld.x}, y {state.overworld.y})")
    assert "next objective: meet_oak" in text and "milestones done: leave_house" in text


def test_the_text_state_in_a_battle_shows_both_sides() -> None:
    state = captured("red_wild_main_menu")
    seen = observation(state, None, None, (), frame=1)
    assert seen.battle is not None and seen.battle.kind == "wild" and seen.battle.trainer is None
    assert seen.party and seen.party[0].species == state.party[0].species_name
    assert "% HP" in seen.battle.enemy  # the enemy's HP as its bar shows it, not the number
    assert "battle (wild, wild): ours" in seen.as_text()


# -- the story -------------------------------------------------------------------------------------------
def test_milestones_done_before_the_session_are_marked_so_and_later_ones_get_their_frame() -> None:
    progress = StoryProgress()
    outside = captured("red_pallet_town_overworld")
    progress.note(outside, frame=10)
    assert "leave_house" in progress.done_names(outside)
    first = progress.milestones(outside).milestones[0]
    assert (first.name, first.done, first.at_start, first.frame) == ("leave_house", True, True, None)
    fresh = StoryProgress()
    fresh.note(captured("red_bedroom_overworld"), frame=10)
    fresh.note(outside, frame=500)
    first = fresh.milestones(outside).milestones[0]
    assert (first.done, first.at_start, first.frame) == (True, False, 500)
    assert fresh.milestones(captured("red_bedroom_overworld")).milestones[0].done is False


def test_the_next_objective_is_the_first_open_one_with_its_step() -> None:
    state = captured("red_bedroom_overworld")
    objectives = StoryProgress().objectives(state)
    assert objectives.open[0].name == "leave_house" and objectives.open[0].next_step
    assert StoryProgress().next_objective(state) == objectives.open[0].as_text()


# -- battle action ids -----------------------------------------------------------------------------------
def test_an_action_id_not_offered_is_refused_with_the_offer() -> None:
    state = captured("red_wild_main_menu")
    legal = legal_actions(state)
    assert _chosen(legal, 0, state) == legal[0]
    with pytest.raises(PlayError, match=r"no legal action 9 \(choose one of 0: use "):
        _chosen(legal, 9, state)
    with pytest.raises(PlayError, match="nothing to choose"):
        _chosen([], 0, state)


# -- save-state slots ------------------------------------------------------------------------------------
def test_states_are_kept_by_name() -> None:
    slots = Slots()
    slots.keep("start", b"one")
    slots.keep("before-brock.1", b"two")
    assert slots.get("before-brock.1") == b"two"
    with pytest.raises(PlayError, match=r"no state saved as 'later' \(saved: before-brock.1, start\)"):
        slots.get("later")
    with pytest.raises(PlayError, match="a state's name is"):
        slots.keep("../etc/passwd", b"")
    for number in range(MAX_SLOTS - 2):
        slots.keep(f"s{number}", b"")
    slots.keep("start", b"again")  # saving over a name is always possible
    with pytest.raises(PlayError, match=f"{MAX_SLOTS} states are kept already"):
        slots.keep("one-more", b"")


# -- the game's thread -----------------------------------------------------------------------------------
def test_a_call_past_its_time_is_answered_at_once_and_the_next_waits_for_it() -> None:
    worker = GameWorker(seconds=0.3)
    finished = threading.Event()
    order: list[str] = []

    def slow() -> str:
        time.sleep(0.8)
        order.append("slow")
        finished.set()
        return "slow"

    async def main() -> None:
        started = time.monotonic()
        with pytest.raises(CallTimeout, match=r"did not finish within 0\.3 s"):
            await worker.run(slow, "goto")
        assert time.monotonic() - started < 0.7
        with pytest.raises(CallTimeout):  # queued behind the slow one: dropped, never run
            await worker.run(lambda: order.append("dropped"), "observe")
        finished.wait(5)
        assert await worker.run(lambda: "next", "observe") == "next"

    anyio.run(main)
    worker.close(lambda: order.append("closed"))
    assert order == ["slow", "closed"]


# -- tool failures ---------------------------------------------------------------------------------------
class FailingGame:
    """Answers presses; fails observe as the game does (PlayError) and screenshot as a bug would."""

    def press(self, buttons: list[str]) -> Pressed:
        return Pressed(buttons=tuple(parse_buttons(buttons)), frames=48)

    def observe(self) -> object:
        raise PlayError("the game froze inside the emulator at frame 12")

    def screenshot(self, scale: int) -> bytes:
        raise KeyError("a bug of ours")


def test_failures_are_tool_errors_and_the_session_goes_on() -> None:
    worker = GameWorker(seconds=10.0)
    tools = GameTools(FailingGame(), worker, "buttons", scale=2)  # type: ignore[arg-type]

    async def main() -> None:
        async with Client(build_server(tools)) as client:
            assert [tool.name for tool in (await client.list_tools()).tools] == list(BUTTON_TOOLS)
            froze = await client.call_tool("observe", {})
            assert froze.is_error and "froze inside the emulator at frame 12" in froze.content[0].text  # type: ignore[union-attr]
            bug = await client.call_tool("screenshot", {})
            assert bug.is_error and "KeyError" in bug.content[0].text  # type: ignore[union-attr]
            pressed = await client.call_tool("press_buttons", {"buttons": ["a"]})
            assert not pressed.is_error and pressed.structured_content == {"buttons": ["a"], "frames": 48}

    anyio.run(main)
    worker.close(lambda: None)


def test_the_commands_levels_are_the_configs() -> None:
    assert get_args(HarnessLevel) == mcp_command.LEVELS
