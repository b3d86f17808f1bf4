"""`engine goto` and `engine map` without a cartridge's maps: help, and one clear line for bad input."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.romgen import write_rom
from tests.unit.test_cli import assert_one_line_error, run_cli


@pytest.mark.parametrize(
    ("command", "flags"),
    [
        ("goto", ["--rom", "--state", "--to", "--save-state", "--max-steps", "--json", "--config"]),
        ("map", ["--rom", "--state", "--map", "--config"]),
    ],
)
def test_help_lists_every_flag(command: str, flags: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        run_cli([command, "--help"], capsys)
    assert exited.value.code == 0
    out = capsys.readouterr().out
    assert all(flag in out for flag in flags)


def test_goto_needs_a_place(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        run_cli(["goto", "--rom", str(tmp_path / "r.gb"), "--state", "s"], capsys)
    assert exited.value.code == 2
    assert "--to" in capsys.readouterr().err


def test_goto_refuses_a_missing_rom(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["goto", "--rom", str(tmp_path / "nope.gb"), "--state", "x.state", "--to", "VIRIDIAN_MART"]
    code, _, err = run_cli(args, capsys)
    assert_one_line_error(code, err, "ROM file not found")


@pytest.mark.parametrize("command", [["goto", "--to", "VIRIDIAN_MART"], ["map"]])
def test_a_cartridge_without_red_blue_maps_is_one_line(
    command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rom = write_rom(tmp_path, title=b"POKEMON RED")  # the right title, but no map tables in it
    state = tmp_path / "x.state"
    state.write_bytes(b"\x00")
    code, out, err = run_cli([command[0], "--rom", str(rom), "--state", str(state), *command[1:]], capsys)
    assert_one_line_error(code, err, "map data")
    assert out == ""


def test_goto_max_steps_must_be_positive(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        run_cli(["goto", "--rom", "r", "--state", "s", "--to", "X", "--max-steps", "0"], capsys)
    assert exited.value.code == 2
    assert "must be 1 or more" in capsys.readouterr().err
