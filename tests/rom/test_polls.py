"""The session's record of JoypadLowSensitivity's last run (taken off its hook while the game spins in a
text box or a menu) equals what a hook on the routine records, at the end of every tick of a real intro."""

from __future__ import annotations

import io
import warnings
from pathlib import Path

import pytest

from engine.config import PlayerConfig
from engine.emulator.session import EmulatorSession
from engine.game.buttons import Button
from engine.mechanics.intro import reach_overworld
from tests.support.scenarios import set_party

with warnings.catch_warnings():
    warnings.simplefilter("ignore", UserWarning)
    from pyboy import PyBoy

pytestmark = pytest.mark.rom


def _hooked_replay(
    rom: Path, events: list[tuple[int, int]], frames: int, address: int, party: tuple[int, int, bytes]
) -> list[int | None]:
    """Plain PyBoy with a hook on the routine, one frame a tick: its record after each frame. `party`:
    (frame, address, bytes) written as the session wrote them."""
    pyboy = PyBoy(str(rom), window="null", sound_emulated=False, log_level="ERROR",
                  ram_file=io.BytesIO(bytes(0x8000)))  # fmt: skip
    pyboy.set_emulation_speed(0)
    last: list[int | None] = [None]

    def record(_: object) -> None:
        last[0] = pyboy.frame_count

    pyboy.hook_register(0, address, record, None)
    after: list[int | None] = [None]  # after[f]: the record once PyBoy has made f frames
    pending = list(events)
    while pyboy.frame_count < frames:
        if pyboy.frame_count == party[0]:
            pyboy.memory[party[1] : party[1] + len(party[2])] = list(party[2])
        while pending and pending[0][0] <= pyboy.frame_count:
            pyboy.send_input(pending.pop(0)[1])
        pyboy.tick(1, False, False)
        after.append(last[0])
    pyboy.stop(save=False)
    return after


def _wait_at_the_first_menu(session: EmulatorSession, routine: tuple[int, int]) -> None:
    """Boot until the main menu polls the joypad, then leave it waiting for a second, two frames a tick."""
    for _ in range(2_000):
        session.tick(2)
        if session.frames_since_call(*routine) == 1:
            break
    else:
        pytest.fail("no menu polled the joypad within 4,000 frames of power-on")
    for _ in range(30):
        session.tick(2)


def _wait_in_the_start_menu(session: EmulatorSession) -> tuple[int, int, bytes]:
    """The start menu, then the party menu (its mini sprites animate: a frame's wait in every poll).
    Returns the party written into RAM: (PyBoy frame, address, bytes)."""
    set_party(session, [("SQUIRTLE", 5), ("PIDGEY", 3)])
    start, end = session.ram_map.wPartyCount, session.ram_map.wPokedexOwned
    party = (session.pyboy.frame_count, start, session.read(start, end - start))
    session.press(Button.START)
    for _ in range(30):
        session.tick(2)
    session.press(Button.A)  # POKéMON: the first entry before the Pokédex is given
    for _ in range(30):
        session.tick(2)
    for button in (Button.B, Button.B):
        session.press(button)
        for _ in range(10):
            session.tick(2)
    return party


def test_the_record_equals_a_hook_at_every_tick_of_the_intro(rom_path: Path) -> None:
    seen: list[tuple[int, int | None, bool]] = []  # (PyBoy frame, record, hooked during the tick)
    with EmulatorSession(rom_path) as session:
        session.input_log = []
        routine = (0, session.ram_map.JoypadLowSensitivity)
        session.track_calls(*routine)
        polls = session._polls
        assert polls is not None
        after_tick = polls.after_tick

        def watched() -> None:
            hooked = polls.hooked
            after_tick()
            seen.append((session.pyboy.frame_count, session._last_call_frame[routine], hooked))

        polls.after_tick = watched  # type: ignore[method-assign]
        _wait_at_the_first_menu(session, routine)
        reach_overworld(session, PlayerConfig(player_name="ASH", rival_name="GARY"))
        party = _wait_in_the_start_menu(session)
        events, frames = list(session.input_log), session.pyboy.frame_count
    hooked_record = _hooked_replay(rom_path, events, frames, routine[1], party)
    differing = [(frame, ours, hooked_record[frame]) for frame, ours, _ in seen
                 if ours != hooked_record[frame]]  # fmt: skip
    assert differing == []
    # The menus were waited on with the hook off for most of their ticks.
    assert sum(not hooked for _, _, hooked in seen) >= 20
