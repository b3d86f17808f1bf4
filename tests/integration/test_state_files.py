"""State files on real PyBoy with a generated cartridge: the engine writes them packed, reads packed and
plain ones alike, and `engine plain-state` gives back what plain PyBoy loads."""

from __future__ import annotations

import io
import warnings
from pathlib import Path

import pytest

from engine.cli import main
from engine.emulator.errors import SaveStateError
from engine.emulator.session import EmulatorSession
from engine.emulator.state_file import FOOTER_BYTES, is_packed, read_state, unseal
from engine.game.cartridge import Game
from tests.support.romgen import FRAME_COUNTER_AT, write_rom

with warnings.catch_warnings():
    warnings.simplefilter("ignore", UserWarning)  # pysdl2 announcing the SDL it found
    from pyboy import PyBoy


def played(session: EmulatorSession, frames: int) -> int:
    session.tick(frames)
    return session.read_u8(FRAME_COUNTER_AT)


def test_an_exported_state_is_packed_and_loads_back(session: EmulatorSession) -> None:
    counter = played(session, 60)
    exported = session.export_state()
    machine = session.save_state()
    assert is_packed(unseal(exported).machine) and len(exported) * 5 < len(machine)
    played(session, 30)
    session.load_state(exported)
    assert session.read_u8(FRAME_COUNTER_AT) == counter


def test_plain_pyboy_states_and_those_of_earlier_engines_still_load(session: EmulatorSession) -> None:
    counter = played(session, 45)
    plain = session.save_state()  # what PyBoy itself writes
    unpacked_with_footer = plain + session.export_state()[-FOOTER_BYTES:]  # an earlier engine: no packing
    assert read_state(unpacked_with_footer).made_with == session.cartridge
    for data in (plain, unpacked_with_footer):
        played(session, 30)
        session.load_state(data)
        assert session.read_u8(FRAME_COUNTER_AT) == counter


def test_a_damaged_packed_state_is_refused_and_the_game_stays(session: EmulatorSession) -> None:
    exported = session.export_state()
    counter = played(session, 20)
    with pytest.raises(SaveStateError, match="compressed save state"):
        session.load_state(exported[: len(exported) // 2])
    assert session.read_u8(FRAME_COUNTER_AT) == counter


def test_plain_state_writes_what_plain_pyboy_loads(
    test_rom: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with EmulatorSession(test_rom, game=Game.RED) as session:
        counter = played(session, 75)
        (tmp_path / "kept.state").write_bytes(session.export_state())
    out = tmp_path / "plain.state"
    assert main(["plain-state", str(tmp_path / "kept.state"), "--out", str(out)]) == 0
    assert "a plain PyBoy save state (kept.state was compressed, naming " in capsys.readouterr().err
    pyboy = PyBoy(str(test_rom), window="null", sound_emulated=False, log_level="ERROR")
    try:
        pyboy.load_state(io.BytesIO(out.read_bytes()))
        assert pyboy.memory[FRAME_COUNTER_AT] == counter
    finally:
        pyboy.stop(save=False)
    with EmulatorSession(test_rom, game=Game.RED) as again:  # and the engine still knows its cartridge
        again.load_state_file(out)
        assert read_state(out.read_bytes()).made_with == again.cartridge


def test_plain_state_takes_a_checkpoint_folder_and_refuses_what_is_not_there(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = write_rom(tmp_path, "other.gb")
    with EmulatorSession(other, game=Game.RED) as session:
        machine = session.save_state()
        folder = tmp_path / "checkpoints" / "r1" / "000001-stop"
        folder.mkdir(parents=True)
        (folder / "emulator.state").write_bytes(session.export_state()[:-FOOTER_BYTES])  # packed, no footer
    assert main(["plain-state", str(folder), "--out", str(tmp_path / "out.state")]) == 0
    assert (tmp_path / "out.state").read_bytes() == machine
    capsys.readouterr()
    assert main(["plain-state", str(tmp_path / "missing.state"), "--out", str(tmp_path / "x.state")]) == 2
    missing = tmp_path / "missing.state"
    assert capsys.readouterr().err.strip() == f"engine: error: save state not found: {missing}"
