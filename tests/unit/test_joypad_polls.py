"""When the session takes its hook off JoypadLowSensitivity, and what it records then (no cartridge: a
stand-in for PyBoy's hook registry and memory; tests/rom/test_polls.py checks the record on a real game)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

import pytest

from engine.emulator.polls import LY, JoypadPolls
from engine.game.ram import RED_BLUE

RAM = RED_BLUE
TEXT_BOX = RAM.WaitForTextScrollButtonPress_polled
MENU = RAM.HandleMenuInput_polled


@dataclass
class Registers:
    SP: int = 0xDFF0


@dataclass
class FakePyBoy:
    """PyBoy's hook registry, memory, stack pointer and frame counter, as JoypadPolls uses them."""

    frame_count: int = 100
    memory: dict[int, int] = field(default_factory=dict)
    register_file: Registers = field(default_factory=Registers)
    hooks: dict[int, Callable[[Any], None]] = field(default_factory=dict)

    def hook_register(self, bank: int, address: int, callback: Callable[[Any], None], context: Any) -> None:
        assert bank == 0 and address not in self.hooks
        self.hooks[address] = callback

    def hook_deregister(self, bank: int, address: int) -> None:
        del self.hooks[address]

    def call_from(self, caller: int) -> None:
        """The game runs JoypadLowSensitivity from `caller` (its return address on the stack)."""
        sp = self.register_file.SP
        self.memory[sp], self.memory[sp + 1] = caller & 0xFF, caller >> 8
        if RAM.JoypadLowSensitivity in self.hooks:
            self.hooks[RAM.JoypadLowSensitivity](None)


def polls_on(pyboy: FakePyBoy) -> tuple[JoypadPolls, dict[tuple[int, int], int | None]]:
    pyboy.memory.update({RAM.hJoyInput: 0, RAM.hJoyLast: 0, RAM.hJoy5: 0, RAM.hJoy7: 0,
                         RAM.wMenuJoypadPollCount: 0, RAM.wPartyMenuAnimMonEnabled: 0, LY: 10})  # fmt: skip
    last: dict[tuple[int, int], int | None] = {(0, RAM.JoypadLowSensitivity): None}
    return JoypadPolls(cast(Any, pyboy), RAM, last), last


def polled_last_frame(pyboy: FakePyBoy, caller: int) -> None:
    pyboy.frame_count -= 1
    pyboy.call_from(caller)
    pyboy.frame_count += 1


def test_a_text_box_polled_last_frame_with_no_button_takes_the_hook_off_and_records_every_tick() -> None:
    pyboy = FakePyBoy()
    polls, last = polls_on(pyboy)
    polled_last_frame(pyboy, TEXT_BOX)
    polls.before_tick(holding=False)
    assert not polls.hooked and RAM.JoypadLowSensitivity not in pyboy.hooks
    pyboy.frame_count += 2
    polls.after_tick()
    assert last[(0, RAM.JoypadLowSensitivity)] == pyboy.frame_count - 1
    polls.before_tick(holding=True)  # a button: the frame the loop ends on is the hook's to see
    assert polls.hooked and RAM.JoypadLowSensitivity in pyboy.hooks


@pytest.mark.parametrize(
    ("caller", "memory", "holding"),
    [
        (0x1234, {}, False),  # another caller: it may wait a frame between polls
        (TEXT_BOX, {}, True),
        (TEXT_BOX, {RAM.hJoyInput: 0x01}, False),  # A pressed, not seen by a poll yet
        (TEXT_BOX, {RAM.hJoyInput: 0x01, RAM.hJoyLast: 0x01, RAM.hJoy7: 1}, False),  # held: it repeats
        (TEXT_BOX, {RAM.hJoy5: 0x01}, False),  # the last poll reported A: the text box may be gone
        (MENU, {RAM.wMenuJoypadPollCount: 1}, False),  # one poll and the menu returns
        (MENU, {RAM.wPartyMenuAnimMonEnabled: 1}, False),  # a frame's wait in every poll
    ],
)
def test_the_hook_stays_on_where_the_loop_could_end_or_does_not_spin(
    caller: int, memory: dict[int, int], holding: bool
) -> None:
    pyboy = FakePyBoy()
    polls, _ = polls_on(pyboy)
    pyboy.memory.update(memory)
    polled_last_frame(pyboy, caller)
    polls.before_tick(holding=holding)
    assert polls.hooked


def test_a_released_button_the_polls_have_seen_does_not_keep_the_hook() -> None:
    pyboy = FakePyBoy()
    polls, _ = polls_on(pyboy)
    pyboy.memory.update({RAM.hJoyInput: 0x80, RAM.hJoyLast: 0x80})  # DOWN, released since the last frame
    polled_last_frame(pyboy, MENU)
    polls.before_tick(holding=False)
    assert not polls.hooked


def test_a_poll_older_than_the_last_frame_keeps_the_hook() -> None:
    pyboy = FakePyBoy()
    polls, _ = polls_on(pyboy)
    pyboy.call_from(TEXT_BOX)
    pyboy.frame_count += 3
    polls.before_tick(holding=False)
    assert polls.hooked


@pytest.mark.parametrize(("line", "off"), [(10, True), (139, True), (141, False), (143, False), (145, True),
                                           (152, False)])  # fmt: skip
def test_a_text_box_beginning_mid_tick_takes_the_hook_off_only_where_its_first_poll_is_this_frame(
    line: int, off: bool
) -> None:
    pyboy = FakePyBoy()
    polls, _ = polls_on(pyboy)
    polls.before_tick(holding=False)
    pyboy.memory[LY] = line
    pyboy.memory[RAM.hJoy5] = 0x01  # the last text box's A: the new box's first poll comes before its check
    pyboy.hooks[RAM.WaitForTextScrollButtonPress](None)
    assert polls.hooked is not off


def test_a_menu_begins_when_delay_frames_returns_to_its_polling_loop() -> None:
    pyboy = FakePyBoy()
    polls, _ = polls_on(pyboy)
    polls.before_tick(holding=False)
    sp = pyboy.register_file.SP
    for returns_to, off in ((0x4000, False), (RAM.HandleMenuInput_loop2, True)):
        pyboy.memory[sp], pyboy.memory[sp + 1] = returns_to & 0xFF, returns_to >> 8
        pyboy.hooks[RAM.DelayFrames_ret](None)
        assert polls.hooked is not off


def test_a_loaded_state_puts_the_hook_back() -> None:
    pyboy = FakePyBoy()
    polls, _ = polls_on(pyboy)
    polled_last_frame(pyboy, MENU)
    polls.before_tick(holding=False)
    assert not polls.hooked
    polls.reset()
    assert polls.hooked and polls.caller == -1
