"""The harness levels end to end on the scripted game: the real conductor, the real gateway and SDKs
against a local stub model, on `--local` and on a real local Ray instance. What the model answers is
pressed exactly; a bad answer is repaired once and then counted as a no-op; every level records the same
summary fields."""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from engine.actors.factory import EmulatorFactory
from engine.config import EngineConfig, config_from_mapping
from engine.errors import UserInputError
from engine.layout import RunPaths
from engine.runtime.launch import _check_harness
from engine.runtime.local import run_local
from engine.runtime.options import RunOptions
from engine.runtime.summary import RunSummary
from tests.conftest import GEN1_FIXTURES
from tests.support.button_model import button_answer, pressing, raw
from tests.support.fake_emulator import WILD_BATTLE, FakeEmulator
from tests.support.sensible_model import sensible
from tests.support.stub_llm import Responder, StubLLMServer

KEY_ENV = "ENGINE_TEST_HARNESS_KEY"
SECRETS = {KEY_ENV: "sk-test-harness-not-a-real-key"}
WALK = ("red_bedroom_overworld", "red_pallet_town_overworld")
BAD = {
    "malformed JSON": '{"button_presses": ["up"]',
    "extra text": "Here you go: " + button_answer(["up"]),
    "four buttons": button_answer(["up", "up", "up", "a"]),
    "an unknown button": button_answer(["x"]),
    "an over-long field": button_answer(["up"], reasoning="r" * 250),
}


@pytest.fixture
def stub() -> Iterator[StubLLMServer]:
    with StubLLMServer(sensible) as server:
        yield server


def config_for(server: StubLLMServer, level: str, **harness: Any) -> EngineConfig:
    tier = {"provider": "openai", "model": "stub-buttons", "base_url": server.openai_base_url,
            "api_key_env": KEY_ENV, "timeout_s": 2.0, "price_input_per_mtok": 1.0,
            "price_output_per_mtok": 5.0}  # fmt: skip
    return config_from_mapping({
        "runtime": {"namespace": "engine-tests"},
        "models": {"acting": tier, "thinking": None},
        "llm": {"retry_attempts": 1, "breaker_failures": 50},
        "harness": {"level": level, **harness},
    })  # fmt: skip


def play(
    config: EngineConfig, tmp_path: Path, script: tuple[str, ...], decisions: int, ray: bool = False
) -> tuple[RunSummary, list[dict[str, Any]], RunPaths]:
    paths = RunPaths(tmp_path / "data", f"harness-{config.harness.level}")
    paths.create()
    options = RunOptions(rom=tmp_path / "fake.gb", max_decisions=decisions, harness=config.harness)
    factory: EmulatorFactory = partial(FakeEmulator, fixtures=GEN1_FIXTURES, script=script,
                                       travel_moves_on=True)  # fmt: skip
    if ray:
        from engine.runtime.ray_run import run_on_ray

        summary = run_on_ray(config, options, paths, factory, secrets=SECRETS)
    else:
        summary = run_local(config, options, paths, emulator_factory=factory, secrets=SECRETS)
    lines = paths.decisions.read_text(encoding="utf-8").splitlines()
    return summary, [json.loads(line) for line in lines], paths


def serve(server: StubLLMServer, responder: Responder) -> None:
    server.responder = responder


def test_the_buttons_level_presses_what_the_model_answered(stub: StubLLMServer, tmp_path: Path) -> None:
    serve(stub, pressing(["down", "a"], notes="the stairs are top right"))
    summary, steps, paths = play(config_for(stub, "buttons"), tmp_path, WALK, decisions=3)
    assert summary.harness == "buttons" and summary.stopped == "max_decisions"
    assert [step["action"] for step in steps] == ["down,a"] * 3
    assert all(step["kind"] == "buttons" and step["model"]["tier"] == "acting" for step in steps)
    assert summary.harness_fallbacks == 0 and summary.llm.calls == 3
    first = stub.requests[0]
    assert first.image_count == 1 and "What the game's memory says" in first.last_user_text
    assert "map: REDS_HOUSE_2F" in first.last_user_text
    # The notes the model rewrote are kept for its (level, model) and shown at the front of the next prompt.
    assert "the stairs are top right" in stub.requests[1].system_text
    notes = list(paths.procedural.glob("buttons-*/notes.md"))
    assert len(notes) == 1 and notes[0].read_text(encoding="utf-8").strip() == "the stairs are top right"
    # The skills shown before leave_house was reached (the second look, in Pallet Town) are credited.
    assert "leave_house" in [split.name for split in summary.milestones]
    records = [path.read_text(encoding="utf-8") for path in notes[0].parent.glob("skills/*.md")]
    assert any("successes: 1" in record for record in records), records
    assert all("uses: 0" not in record or "successes: 0" in record for record in records)


def test_the_vision_level_shows_the_screen_and_nothing_from_ram(stub: StubLLMServer, tmp_path: Path) -> None:
    serve(stub, pressing(["up"], notes="pixels only"))
    # The scripted game has no cartridge to read a font from: the Vision module's reading (for skills and
    # `screen_reading`) is left off here; tests/rom/test_harness.py plays this level with it.
    config = config_for(stub, "vision", skills=False)
    summary, steps, paths = play(config, tmp_path, WALK, decisions=2)
    assert summary.harness == "vision" and len(steps) == 2
    for request in stub.requests:
        assert request.image_count == 1
        text = request.system_text + request.last_user_text
        assert "memory says" not in text and "REDS_HOUSE" not in text and "PALLET" not in text
    # Each level keeps its own notes folder: nothing of the buttons level's reaches this one.
    assert [path.parent.name.split("-")[0] for path in paths.procedural.glob("*/notes.md")] == ["vision"]
    assert "pixels only" in stub.requests[1].system_text


@pytest.mark.parametrize("text", BAD.values(), ids=BAD.keys())
def test_a_bad_answer_is_repaired_once_then_counted_as_a_no_op(
    stub: StubLLMServer, tmp_path: Path, text: str
) -> None:
    serve(stub, raw(text))
    summary, steps, _ = play(config_for(stub, "buttons"), tmp_path, WALK, decisions=2)
    assert [step["action"] for step in steps] == ["no-op", "no-op"]
    assert summary.harness_fallbacks == 2
    assert summary.llm.calls == 4 and summary.llm.repairs == 2  # the answer and its one repair, each step
    assert "could not be used" in stub.requests[1].last_user_text


def test_a_repaired_answer_is_pressed(stub: StubLLMServer, tmp_path: Path) -> None:
    answers = iter([BAD["four buttons"], button_answer(["left"])] * 2)
    serve(stub, lambda request: raw(next(answers))(request))
    summary, steps, _ = play(config_for(stub, "buttons"), tmp_path, WALK, decisions=2)
    assert [step["action"] for step in steps] == ["left", "left"]
    assert summary.harness_fallbacks == 0 and summary.llm.repairs == 2


def test_a_model_that_keeps_failing_stops_the_run(stub: StubLLMServer, tmp_path: Path) -> None:
    serve(stub, raw("no JSON here"))
    config = config_for(stub, "buttons", max_noops_in_row=3)
    summary, steps, _ = play(config, tmp_path, WALK, decisions=50)
    assert summary.stopped == "model_failing" and len(steps) == 3


def test_the_levels_that_press_buttons_need_a_model() -> None:
    with pytest.raises(UserInputError, match="needs a model to press the buttons"):
        acting = {"provider": "openai", "model": "m", "api_key_env": "ENGINE_TEST_UNSET_KEY"}
        _check_harness(config_from_mapping({"harness": {"level": "vision"},
                                            "models": {"thinking": None, "acting": acting}}))  # fmt: skip
    _check_harness(config_from_mapping({"harness": {"level": "decisions"}}))  # falls back, counted


def test_the_decisions_level_asks_the_model_every_battle_choice(stub: StubLLMServer, tmp_path: Path) -> None:
    summary, steps, _ = play(config_for(stub, "decisions"), tmp_path, WILD_BATTLE, decisions=3)
    battle = [step for step in steps if step["kind"] == "battle"]
    assert battle and all(step["model"]["tier"] == "acting" for step in battle)
    assert all("decisions level" in step["model"]["reason"] for step in battle)
    assert summary.harness == "decisions" and summary.harness_fallbacks == 0


def test_the_decisions_level_counts_each_fallback(tmp_path: Path) -> None:
    with StubLLMServer(raw("not an answer")) as server:
        summary, steps, _ = play(config_for(server, "decisions"), tmp_path, WILD_BATTLE, decisions=3)
    asked = [step for step in steps if step.get("model", {}).get("steps")]
    assert asked and all(step["model"]["tier"] == "rule_based" for step in asked)
    assert summary.harness_fallbacks >= len(asked)


@pytest.mark.ray
@pytest.mark.parametrize("level", ["buttons", "vision", "decisions"])
def test_every_level_plays_the_same_on_ray(ray_instance: Any, tmp_path: Path, level: str) -> None:
    script = WILD_BATTLE if level == "decisions" else WALK
    results = []
    for ray in (False, True):
        with StubLLMServer(pressing(["b"])) as server:
            config = config_for(server, level, skills=False)  # no cartridge, no font to read the screen with
            summary, steps, _ = play(config, tmp_path / str(ray), script, 3, ray=ray)
        results.append(([(step["kind"], step["action"]) for step in steps], summary.harness,
                        summary.harness_fallbacks, summary.llm.calls))  # fmt: skip
    assert results[0] == results[1]
    assert results[0][1] == level
