"""`engine` command line: help texts, inspect on captures, one-line errors for bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.cli import main
from engine.emulator.session import EmulatorSession
from tests.conftest import GEN1_FIXTURES
from tests.support.romgen import write_rom


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_line_error(code: int, err: str, *fragments: str) -> None:
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("engine: error: ")
    for fragment in fragments:
        assert fragment in lines[0]
    assert "Traceback" not in err


@pytest.mark.parametrize("command", [[], ["inspect"]])
def test_help_describes_every_command(command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main([*command, "--help"])
    assert exited.value.code == 0
    out = capsys.readouterr().out
    assert "usage: engine" in out
    assert "inspect" in out


def test_inspect_capture_prints_the_decoded_state(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(["inspect", "--capture", str(GEN1_FIXTURES / "red_wild_main_menu")], capsys)
    assert code == 0
    state = json.loads(out)
    assert state["decision_point"] == "battle_main_menu"
    assert state["battle"]["enemy"]["species_name"] == "PIDGEY"
    assert state["party"][0]["species_name"] == "SQUIRTLE"


def test_missing_rom(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(["inspect", "--rom", str(tmp_path / "nope.gb")], capsys)
    assert_one_line_error(code, err, "ROM file not found")


def test_file_that_is_not_a_rom(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = tmp_path / "notes.gb"
    text.write_text("hello")
    code, _, err = run_cli(["inspect", "--rom", str(text)], capsys)
    assert_one_line_error(code, err, "not a Game Boy ROM")


def test_rom_with_a_broken_header(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rom = bytearray((write_rom(tmp_path)).read_bytes())
    rom[0x14D] ^= 0xFF
    broken = tmp_path / "broken.gb"
    broken.write_bytes(rom)
    code, _, err = run_cli(["inspect", "--rom", str(broken)], capsys)
    assert_one_line_error(code, err, "header checksum")


@pytest.mark.parametrize(
    ("title", "destination", "fragment"),
    [
        (b"TETRIS", 1, "unsupported game 'TETRIS'"),
        (b"POKEMON YELLOW", 1, "Yellow"),
        (b"POKEMON RED", 0, "Japanese"),
    ],
)
def test_unsupported_games_name_the_supported_ones(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], title: bytes, destination: int, fragment: str
) -> None:
    rom = write_rom(tmp_path, title=title, destination=destination)
    code, _, err = run_cli(["inspect", "--rom", str(rom)], capsys)
    assert_one_line_error(code, err, fragment, "Pokémon Red and Pokémon Blue")


def test_invalid_config_names_the_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "bad.yaml"
    config.write_text("emulator:\n  hold_frames: 0\n")
    rom = write_rom(tmp_path, title=b"POKEMON RED")
    code, _, err = run_cli(["inspect", "--rom", str(rom), "--config", str(config)], capsys)
    assert_one_line_error(code, err, "emulator.hold_frames")


def test_state_flag_needs_a_rom(capsys: pytest.CaptureFixture[str]) -> None:
    capture = str(GEN1_FIXTURES / "red_wild_main_menu")
    code, _, err = run_cli(["inspect", "--capture", capture, "--state", "x.state"], capsys)
    assert_one_line_error(code, err, "--state needs --rom")


def test_truncated_state_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rom = write_rom(tmp_path, title=b"POKEMON RED")
    state = tmp_path / "cut.state"
    state.write_bytes(b"\x0a" * 100)
    code, _, err = run_cli(["inspect", "--rom", str(rom), "--state", str(state)], capsys)
    assert_one_line_error(code, err, str(state), "save state")


def test_a_state_from_another_cartridge_is_refused_by_inspect_and_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    red, blue = (
        write_rom(tmp_path, f"{n}.gb", title=f"POKEMON {n.upper()}".encode()) for n in ("red", "blue")
    )
    state = tmp_path / "red.state"
    with EmulatorSession(red) as session:
        session.tick(120)
        state.write_bytes(session.export_state())
    code, out, err = run_cli(["inspect", "--rom", str(blue), "--state", str(state)], capsys)
    assert_one_line_error(code, err, "made with another cartridge (POKEMON RED")
    assert out == ""
    monkeypatch.chdir(tmp_path)
    code, _, err = run_cli(["run", "--rom", str(blue), "--state", str(state), "--local"], capsys)
    assert_one_line_error(code, err, "made with another cartridge (POKEMON RED")
    assert not (tmp_path / "runs").exists()


def test_a_directory_is_not_a_rom(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for command in (["inspect", "--rom", str(tmp_path)], ["run", "--rom", str(tmp_path), "--local"]):
        code, _, err = run_cli(command, capsys)
        assert_one_line_error(code, err, f"ROM path is a directory, not a cartridge image: {tmp_path}")


def _rejected_cartridges(folder: Path) -> dict[str, Path]:
    junk = folder / "junk.gb"
    junk.write_bytes(bytes(range(256)) * 128)
    bad_header = bytearray(write_rom(folder, "bad.gb", title=b"POKEMON RED").read_bytes())
    bad_header[0x14D] ^= 0xFF
    (folder / "bad.gb").write_bytes(bad_header)
    short = folder / "short.gb"
    short.write_bytes(b"\x00" * 1000)
    return {
        "junk": junk,
        "bad header": folder / "bad.gb",
        "short": short,
        "yellow": write_rom(folder, "yellow.gb", title=b"POKEMON YELLOW"),
        "another game": write_rom(folder, "tetris.gb", title=b"TETRIS"),
    }


def test_a_rejected_cartridge_leaves_nothing_behind(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    roms = tmp_path / "roms"
    roms.mkdir()
    for name, rom in _rejected_cartridges(roms).items():
        for where in (["--local"], ["--address", "auto"]):
            data = tmp_path / "data"
            code, out, err = run_cli(["run", "--rom", str(rom), "--data-dir", str(data), *where], capsys)
            assert_one_line_error(code, err)  # only the error line: nothing else was said or started
            assert out == "" and not data.exists(), name


def test_installed_script_prints_no_traceback(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "engine.cli", "inspect", "--rom", str(tmp_path / "missing.gb")],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 2
    assert result.stderr.strip() == f"engine: error: ROM file not found: {tmp_path / 'missing.gb'}"


def test_cartridge_the_emulator_cannot_load(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rom = write_rom(tmp_path, title=b"POKEMON RED", cartridge_type=0xFC)  # a camera cartridge: no mapper
    code, _, err = run_cli(["inspect", "--rom", str(rom)], capsys)
    assert_one_line_error(code, err, "the emulator cannot load")


def test_run_help_lists_every_flag(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["run", "--help"])
    out = capsys.readouterr().out
    for flag in (
        "--rom",
        "--state",
        "--config",
        "--local",
        "--max-battles",
        "--max-decisions",
        "--summary",
        "--data-dir",
    ):
        assert flag in out


@pytest.mark.parametrize(
    ("extra", "fragment"),
    [
        (["--state", "missing.state"], "save state not found"),
        (["--summary", "no/such/folder/s.json"], "does not exist"),
    ],
)
def test_run_refuses_bad_paths_before_playing(
    extra: list[str],
    fragment: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    rom = write_rom(tmp_path, title=b"POKEMON RED")
    code, _, err = run_cli(["run", "--rom", str(rom), "--local", *extra], capsys)
    assert_one_line_error(code, err, fragment)
    assert not (tmp_path / "runs").exists()


def test_run_refuses_a_missing_rom(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(["run", "--rom", str(tmp_path / "nope.gb"), "--data-dir", str(tmp_path)], capsys)
    assert_one_line_error(code, err, "ROM file not found")


def test_run_refuses_a_zero_battle_limit(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["run", "--rom", "x.gb", "--max-battles", "0"])
    assert exited.value.code == 2
    assert "must be 1 or more" in capsys.readouterr().err


def test_building_the_parser_loads_no_heavy_package() -> None:
    """`engine --help` stays instant: neither the emulator, Ray, Chroma nor even pydantic is imported."""
    script = (
        "import sys; import engine.cli; engine.cli.build_parser(); "
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'pydantic', 'pyboy', 'ray', 'chromadb'}))"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True
    )
    assert result.stdout.strip() == "[]"


def test_until_is_the_runs_aim_unless_the_config_names_one_and_a_wrong_aim_is_refused() -> None:
    from engine.commands.run import _aimed
    from engine.config import ConfigError, EngineConfig, StoryConfig

    assert _aimed(EngineConfig(), "get_bicycle").story.aim == "get_bicycle"
    assert _aimed(EngineConfig(), None).story.aim is None
    chosen = EngineConfig(story=StoryConfig(aim="beat_koga"))
    assert _aimed(chosen, "get_bicycle").story.aim == "beat_koga"
    with pytest.raises(ConfigError, match=r"story\.aim: no story objective called 'beat_kogaa'.*beat_koga"):
        _aimed(EngineConfig(story=StoryConfig(aim="beat_kogaa")), None)
