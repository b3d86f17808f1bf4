"""The RAM copies a look takes are kept until the machine changes (EmulatorSession.memory_regions): a second
look at the same frame reuses them; a frame, an input, a loaded state, a written byte or anyone handed
`pyboy` makes the next look copy again, and what it copies is what the emulator holds."""

from __future__ import annotations

import pytest

from engine.emulator.session import EmulatorSession
from engine.game.buttons import Button
from engine.game.memory import DECODER_REGIONS

pytestmark = pytest.mark.rom


def fresh_copy(game: EmulatorSession) -> tuple[tuple[int, bytes], ...]:
    return tuple((start, game.read(start, end - start)) for start, end in DECODER_REGIONS)


def test_a_second_look_at_one_frame_reuses_the_copy(game: EmulatorSession) -> None:
    first = game.memory_image()
    assert game.memory_image() is first and game.memory_regions() == fresh_copy(game)


def test_whatever_changes_the_machine_makes_a_new_copy(game: EmulatorSession) -> None:
    state = game.save_state()
    changes = [
        lambda: game.tick(1),
        lambda: game.hold(Button.START),
        lambda: game.release(Button.START),
        lambda: game.load_state(state),
        lambda: game.write_u8(0xD347, 0x12),  # wPlayerMoney's first byte
        lambda: game.pyboy.memory.__setitem__(0xD347, 0x34),  # a scenario builder writes directly
    ]
    for change in changes:
        before = game.memory_image()
        change()
        after = game.memory_image()
        assert after is not before
        assert game.memory_regions() == fresh_copy(game)
    assert game.memory_image().u8(0xD347) == 0x34
