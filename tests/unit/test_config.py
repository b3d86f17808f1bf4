"""Config: defaults, the documented default.yaml, overlays and error messages naming the key."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from engine.config import ConfigError, EngineConfig, config_from_mapping, load_config
from tests.conftest import REPO_ROOT


def test_documented_defaults_equal_the_built_in_defaults() -> None:
    documented = yaml.safe_load((REPO_ROOT / "configs" / "default.yaml").read_text())
    assert documented == EngineConfig().model_dump(mode="json")


def test_no_file_means_defaults() -> None:
    assert load_config(None) == EngineConfig()


def test_a_file_overlays_only_its_keys(tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text("player:\n  player_name: ASH\n")
    config = load_config(path)
    assert config.player.player_name == "ASH"
    assert config.player.rival_name == EngineConfig().player.rival_name
    assert config.emulator == EngineConfig().emulator


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("emulator:\n  hold_frames: -1\n", "emulator.hold_frames"),
        ("emulator:\n  hold_fames: 3\n", "emulator.hold_fames: unknown key"),
        ("player:\n  player_name: ash\n", "player.player_name"),
        ("- just\n- a list\n", "mapping"),
        ("emulator: [unclosed\n", "invalid YAML"),
    ],
)
def test_bad_values_name_the_key(tmp_path: Path, text: str, fragment: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    with pytest.raises(ConfigError) as raised:
        load_config(path)
    assert fragment in str(raised.value)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not found"):
        load_config(tmp_path / "absent.yaml")


def test_config_is_frozen() -> None:
    config = EngineConfig()
    with pytest.raises(ValueError):
        config.emulator.hold_frames = 9  # type: ignore[misc]


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"emulator:\n  hold\xff_frames: 4\n", "line 2, column 7: not UTF-8 text (byte 0xff)"),
        # A file cut in the middle of a two-byte character at its very end.
        (b"player:\n  player_name: R\xc3", "line 2, column 17: not UTF-8 text (byte 0xc3)"),
        (b"emulator:\n  hold_frames: 4\n  x: [1, 2\n", "line 4, column 1: invalid YAML: expected ','"),
        (b"a: b: c\n", "line 1, column 5: invalid YAML: mapping values are not allowed here"),
        (b"\tplayer: {}\n", "line 1, column 1: invalid YAML: found character '\\t'"),
    ],
)
def test_an_unreadable_file_is_one_line_naming_the_file_line_and_column(
    tmp_path: Path, data: bytes, expected: str
) -> None:
    path = tmp_path / "mine.yaml"
    path.write_bytes(data)
    with pytest.raises(ConfigError) as raised:
        load_config(path)
    message = str(raised.value)
    assert message.startswith(f"config file {path}, ") and expected in message
    assert "\n" not in message


def test_a_directory_is_not_a_config_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="is a directory, not a file"):
        load_config(tmp_path)


def test_a_species_kept_unevolved_must_be_written_as_a_name() -> None:
    with pytest.raises(ConfigError, match=r"team\.keep_unevolved"):
        config_from_mapping({"team": {"keep_unevolved": ["pikachu"]}})
    assert config_from_mapping({"team": {"keep_unevolved": ["PIKACHU"]}}).team.keep_unevolved == ("PIKACHU",)
