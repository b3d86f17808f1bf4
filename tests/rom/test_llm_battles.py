"""Whole battles with model tiers on a real cartridge: the real SDKs against a local stub model. A model
that answers sensibly plays the battle; a model that fails every call costs nothing but the fallback."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from engine.cli import main
from engine.emulator.session import EmulatorSession
from tests.support.scenarios import set_party, start_battle
from tests.support.sensible_model import failing, sensible
from tests.support.stub_llm import StubLLMServer

pytestmark = pytest.mark.rom

KEY_ENV = "ENGINE_TEST_MODEL_KEY"
KEY = "sk-test-not-a-real-key-123456"


@pytest.fixture
def stub() -> Iterator[StubLLMServer]:
    with StubLLMServer(sensible) as server:
        yield server


def model_config(server: StubLLMServer, tmp_path: Path) -> Path:
    def tier(provider: str) -> dict[str, Any]:
        base = server.anthropic_base_url if provider == "anthropic" else server.openai_base_url
        return {"provider": provider, "model": f"stub-{provider}", "base_url": base, "api_key_env": KEY_ENV,
                "timeout_s": 2.0, "price_input_per_mtok": 1.0, "price_output_per_mtok": 5.0}  # fmt: skip

    config = {
        "models": {"acting": tier("openai"), "thinking": tier("anthropic")},
        "llm": {"retry_attempts": 2, "retry_initial_seconds": 0.01, "retry_max_seconds": 0.02,
                "breaker_failures": 3, "breaker_reset_seconds": 600},
    }  # fmt: skip
    path = tmp_path / "models.yaml"
    path.write_text(yaml.safe_dump(config), encoding="utf-8")
    return path


def play_brock(
    game: EmulatorSession, rom_path: Path, tmp_path: Path, config: Path
) -> tuple[int, dict[str, Any], Path]:
    set_party(game, [("SQUIRTLE", 13)])
    start_battle(game, "BROCK", 1)
    state = tmp_path / "brock.state"
    state.write_bytes(game.save_state())
    summary_path = tmp_path / "summary.json"
    code = main(["run", "--local", "--rom", str(rom_path), "--state", str(state), "--config", str(config),
                 "--max-battles", "1", "--data-dir", str(tmp_path / "data"),
                 "--summary", str(summary_path)])  # fmt: skip
    (run_dir,) = (tmp_path / "data" / "runs").iterdir()
    return code, json.loads(summary_path.read_text(encoding="utf-8")), run_dir


def decisions(run_dir: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (run_dir / "decisions.jsonl").read_text().splitlines()]


def test_a_sensible_model_plays_a_boss_battle(
    game: EmulatorSession,
    rom_path: Path,
    tmp_path: Path,
    stub: StubLLMServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(KEY_ENV, KEY)
    code, summary, run_dir = play_brock(game, rom_path, tmp_path, model_config(stub, tmp_path))
    assert code == 0
    (battle,) = summary["battles"]
    assert battle["outcome"] == "victory"
    assert summary["llm_calls"] > 0 and summary["cost_usd"] > 0
    # One SQUIRTLE against BROCK's two: outnumbered, the first moves go to thinking; once GEODUDE is
    # down it is one against one and the boss default, acting, takes over. Plans and reflection: thinking.
    assert summary["llm"]["by_tier"]["acting"]["calls"] > 0
    assert summary["llm"]["by_tier"]["thinking"]["calls"] > 0
    made = [d for d in decisions(run_dir) if d["kind"] == "battle"]
    moves = [d["model"]["tier"] for d in made if d["point"] == "battle_main_menu"]
    assert moves[0] == "thinking" and moves[-1] == "acting"
    assert all("most damage" in d["reason"] for d in made)
    assert {r.wire for r in stub.requests} == {"anthropic", "openai"}
    assert (run_dir / "reflections" / f"{battle['battle_id']}.json").is_file()
    assert KEY not in (run_dir / "llm.jsonl").read_text()


def test_a_failing_model_still_wins_on_rule_based(
    game: EmulatorSession,
    rom_path: Path,
    tmp_path: Path,
    stub: StubLLMServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(KEY_ENV, KEY)
    stub.responder = failing
    code, summary, run_dir = play_brock(game, rom_path, tmp_path, model_config(stub, tmp_path))
    assert code == 0 and summary["error"] is None
    (battle,) = summary["battles"]
    assert battle["outcome"] == "victory"
    assert summary["llm_calls"] == 0 and summary["cost_usd"] == 0.0
    assert summary["llm"]["fallbacks"] > 0
    made = [d for d in decisions(run_dir) if d["kind"] == "battle"]
    assert all(d["model"]["tier"] == "rule_based" for d in made)
    assert any("circuit breaker open" in " ".join(d["model"]["steps"]) for d in made)
    # Both endpoints' breakers opened after 3 failures each; later calls never reached the stub.
    assert len(stub.requests) <= 2 * 3 * 2
