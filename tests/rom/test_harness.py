"""The harness levels on the cartridge, from power-on, with the real SDKs against a local stub model:
a scripted player pressing one button a step leaves the house (buttons level, `--local` and Ray); the
vision level plays on pixels alone; the decisions level asks the model every choice."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from engine.cli import main
from tests.support.button_model import pressing, walker
from tests.support.sensible_model import sensible
from tests.support.stub_llm import Responder, StubLLMServer

pytestmark = pytest.mark.rom

KEY_ENV = "ENGINE_TEST_MODEL_KEY"


@pytest.fixture
def keyed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(KEY_ENV, "sk-test-not-a-real-key-123456")


def write_config(server: StubLLMServer, tmp_path: Path, **harness: Any) -> Path:
    tier = {"provider": "anthropic", "model": "stub-anthropic", "base_url": server.anthropic_base_url,
            "api_key_env": KEY_ENV, "timeout_s": 5.0, "price_input_per_mtok": 1.0,
            "price_output_per_mtok": 5.0}  # fmt: skip
    config = {"models": {"acting": tier, "thinking": None}, "harness": harness,
              "runtime": {"namespace": "engine-tests"}}  # fmt: skip
    path = tmp_path / "harness.yaml"
    path.write_text(yaml.safe_dump(config), encoding="utf-8")
    return path


def run(
    rom_path: Path, tmp_path: Path, responder: Responder, args: list[str], **harness: Any
) -> dict[str, Any]:
    with StubLLMServer(responder) as server:
        config = write_config(server, tmp_path, **harness)
        summary_path = tmp_path / "summary.json"
        data = tmp_path / "data"
        code = main(["run", "--rom", str(rom_path), "--config", str(config), "--data-dir", str(data),
                     "--summary", str(summary_path), *args])  # fmt: skip
        prompts = [request.last_user_text for request in server.requests]
    summary: dict[str, Any] = json.loads(summary_path.read_text(encoding="utf-8"))
    summary["exit_code"], summary["prompts"] = code, prompts
    return summary


def milestone_names(summary: dict[str, Any]) -> list[str]:
    return [split["name"] for split in summary["milestones"]]


@pytest.mark.parametrize("where", ["--local", "--address"])
def test_a_scripted_player_pressing_buttons_leaves_the_house(
    rom_path: Path, tmp_path: Path, keyed: None, where: str, request: pytest.FixtureRequest
) -> None:
    args = ["--local"] if where == "--local" else []
    if where == "--address":
        request.getfixturevalue("ray_instance")
        args = ["--address", "auto"]
    summary = run(rom_path, tmp_path, walker(), [*args, "--harness", "buttons", "--until", "leave_house",
                                                 "--max-decisions", "60"])  # fmt: skip
    assert summary["exit_code"] == 0, summary
    assert summary["stopped"] == "until" and "leave_house" in milestone_names(summary)
    assert summary["harness"] == "buttons" and summary["harness_fallbacks"] == 0
    assert 15 <= summary["decisions"] <= 40  # about twenty single presses, turns included
    assert summary["llm"]["calls"] == summary["decisions"]
    assert "map: REDS_HOUSE_1F" in summary["prompts"][-1]  # the last step asked: out of the door


def test_the_vision_level_plays_on_pixels_alone(rom_path: Path, tmp_path: Path, keyed: None) -> None:
    args = ["--local", "--harness", "vision", "--max-decisions", "4"]
    summary = run(rom_path, tmp_path, pressing(["a"]), args, screen_reading=True)
    assert summary["exit_code"] == 0 and summary["harness"] == "vision" and summary["decisions"] == 4
    for prompt in summary["prompts"]:
        assert "memory says" not in prompt and "REDS_HOUSE" not in prompt
        assert "What the screen reader sees:" in prompt
    assert "Screen: overworld" in summary["prompts"][0]  # the bedroom, before A is pressed at the SNES
    assert any("Screen: dialog" in prompt for prompt in summary["prompts"][1:])


def test_the_decisions_level_asks_the_model_for_every_leg(
    rom_path: Path, tmp_path: Path, keyed: None
) -> None:
    args = ["--local", "--harness", "decisions", "--until", "get_starter", "--max-decisions", "200"]
    summary = run(rom_path, tmp_path, sensible, args)
    assert summary["exit_code"] == 0 and summary["stopped"] == "until"
    assert summary["harness"] == "decisions" and summary["harness_fallbacks"] == 0
    asked = [prompt for prompt in summary["prompts"] if '"choice_id"' in prompt]
    assert len(asked) >= 3 and summary["llm"]["calls"] >= len(asked)
