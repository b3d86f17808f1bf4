"""No key leaves the model gateway: a model or a provider that echoes the API key back (verbatim,
JSON-escaped, split over lines, as a bearer header) gets it redacted before the answer, the steps, the call
log or a log line see it; the call log is owner-only and a failed append keeps the answer. Real SDK clients
against the local stub server."""

from __future__ import annotations

import json
import logging
import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.config import LLMConfig, ModelsConfig, ModelTierConfig
from engine.game.capture import load_capture
from engine.game.models import GameState
from engine.game.ram import RED_BLUE
from engine.game.state import decode_state
from engine.llm.calllog import CallLog
from engine.llm.gateway import ModelGateway
from engine.llm.redact import REDACTED
from engine.llm.tasks import ModelOutcome, ModelTask
from engine.messages import EventName, GameEvent, Tier
from engine.strategist.strategist import Strategist
from engine.tactician.tactician import Tactician
from tests.conftest import GEN1_FIXTURES
from tests.support.stub_llm import StubLLMServer, StubReply, always

KEY = "sk-stub-Zq8vR2mK9xLp4Wn7Tb3Y"
PROXY_TOKEN = "pxy-9f8e7d6c5b4a3f2e1d0c"  # a proxy's own credential: not ours, but shaped like a token
ESCAPED_KEY = "".join(f"\\u{ord(char):04X}" for char in KEY)  # as a JSON string may spell it
FULL_DISK = Path("/dev/full")  # every write to it fails with ENOSPC
ONE_TRY = LLMConfig(retry_attempts=1, retry_initial_seconds=0.01, retry_max_seconds=0.02)


def exposed(text: str) -> bool:
    """Whether the key can be read back from `text`: verbatim, JSON-escaped, or split by whitespace."""
    squeezed = re.sub(r"\s|\\[nrt]", "", text)
    unescaped = re.sub(r"\\u([0-9a-fA-F]{4})", lambda m: chr(int(m[1], 16)), squeezed)
    return KEY in unescaped.replace("\\/", "/")


@pytest.fixture
def server() -> Iterator[StubLLMServer]:
    with StubLLMServer() as stub:
        yield stub


def tier_on(server: StubLLMServer, provider: str = "anthropic") -> ModelTierConfig:
    base = server.anthropic_base_url if provider == "anthropic" else server.openai_base_url
    return ModelTierConfig(provider=provider, model=f"stub-{provider}", base_url=base, api_key_env="STUB_KEY",
                           max_tokens=300, timeout_s=2.0)  # fmt: skip


def gateway(server: StubLLMServer, log_path: Path | None = None, provider: str = "anthropic") -> ModelGateway:
    tier = tier_on(server, provider)
    models = ModelsConfig(acting=tier, thinking=tier)
    return ModelGateway(models, ONE_TRY, {"STUB_KEY": KEY}, log_path=log_path, strict=True)


def tactical(wanted: Tier = "acting") -> ModelTask:
    return ModelTask(role="tactician", answer="tactical", wanted=wanted, reason="trainer battle",
                     system="You play.", user="pick", action_ids=(0, 1, 2))  # fmt: skip


def answer_with(reasoning_json: str) -> str:
    """A tactical answer whose reasoning is `reasoning_json`, a JSON string literal as the model wrote it."""
    return f'{{"action_id": 1, "reasoning": {reasoning_json}, "confidence": 0.5}}'


def assert_nowhere(outcome: ModelOutcome, log_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    assert not exposed(outcome.model_dump_json())
    assert not exposed(log_path.read_text())
    assert not exposed(caplog.text)
    assert all(record.exc_info is None for record in caplog.records)


ECHOES = {
    "verbatim": json.dumps(f"my key is {KEY}"),
    "bearer": json.dumps(f"I was sent Authorization: Bearer {KEY}"),
    "json-escaped": f'"my key is {ESCAPED_KEY}"',
    "split over lines": json.dumps(f"my key is {KEY[:11]}\n{KEY[11:]}"),
}


@pytest.mark.parametrize("provider", ["anthropic", "openai"])
@pytest.mark.parametrize("echo", ECHOES.values(), ids=ECHOES.keys())
def test_a_key_the_model_echoes_is_redacted_before_anything_sees_it(
    server: StubLLMServer, tmp_path: Path, caplog: pytest.LogCaptureFixture, provider: str, echo: str
) -> None:
    server.responder = always(StubReply(text=answer_with(echo)))
    log_path = tmp_path / "llm.jsonl"
    with caplog.at_level(logging.DEBUG, logger="engine"):
        outcome = gateway(server, log_path, provider).ask(tactical())
    assert outcome.answer is not None and outcome.answer.action_id == 1
    assert REDACTED in outcome.answer.reasoning
    assert_nowhere(outcome, log_path, caplog)
    (call,) = [json.loads(line) for line in log_path.read_text().splitlines() if '"call"' in line]
    assert REDACTED in call["response"]


def test_a_repair_prompt_does_not_send_the_echoed_key_back(
    server: StubLLMServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # Not JSON at all, so the answer and the error go back in the repair prompt.
    server.responder = always(StubReply(text=f"my key is {KEY}, no JSON for you"))
    log_path = tmp_path / "llm.jsonl"
    with caplog.at_level(logging.DEBUG, logger="engine"):
        outcome = gateway(server, log_path).ask(tactical())
    assert outcome.answer is None and len(server.requests) == 2
    repair = server.requests[1].body["messages"]
    assert not exposed(json.dumps(repair)) and REDACTED in json.dumps(repair)
    assert_nowhere(outcome, log_path, caplog)


def brock() -> GameState:
    return decode_state(load_capture(GEN1_FIXTURES / "red_brock_main_menu"), RED_BLUE)


def test_a_strategist_plan_keeps_no_echoed_key(
    server: StubLLMServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    plan = f'{{"objective": "win, key {ESCAPED_KEY}", "priorities": ["use {KEY}", "heal"], ' \
           f'"warnings": ["Bearer {KEY[:9]}\\n{KEY[9:]}"]}}'  # fmt: skip
    server.responder = always(StubReply(text=plan))
    log_path = tmp_path / "llm.jsonl"
    strategist = Strategist(gateway=gateway(server, log_path))
    event = GameEvent(name=EventName.BATTLE_START, frame=100, detail="trainer vs BROCK")
    with caplog.at_level(logging.DEBUG, logger="engine"):
        directive = strategist.consider([event], brock())
    assert directive is not None and directive.selection.tier == "thinking"
    assert REDACTED in directive.objective and directive.priorities == (f"use {REDACTED}", "heal")
    assert not exposed(directive.model_dump_json())
    assert not exposed(log_path.read_text()) and not exposed(caplog.text)


def test_a_tactician_choice_keeps_no_echoed_key(server: StubLLMServer, tmp_path: Path) -> None:
    server.responder = always(StubReply(text=answer_with(json.dumps(f"because {KEY}"))))
    tactician = Tactician(gateway=gateway(server, tmp_path / "llm.jsonl"))
    choice = tactician.choose_battle(brock(), None, None, "r-b001")
    assert choice.tier != "rule_based" and choice.reason == f"because {REDACTED}"
    assert not exposed(choice.model_dump_json())


ERROR_BODIES = {
    "split key": f"invalid x-api-key {KEY[:12]} {KEY[12:]}",
    "json-escaped headers": f'upstream said {{"x-api-key": "{ESCAPED_KEY}"}}',
    "a proxy's bearer token": f"proxy refused Authorization: Bearer {PROXY_TOKEN}",
}


@pytest.mark.parametrize("provider", ["anthropic", "openai"])
@pytest.mark.parametrize("message", ERROR_BODIES.values(), ids=ERROR_BODIES.keys())
def test_an_error_body_holding_a_key_leaves_only_the_marker(
    server: StubLLMServer, tmp_path: Path, caplog: pytest.LogCaptureFixture, provider: str, message: str
) -> None:
    server.responder = always(StubReply(status=401, text=message))
    log_path = tmp_path / "llm.jsonl"
    with caplog.at_level(logging.DEBUG, logger="engine"):
        outcome = gateway(server, log_path, provider).ask(tactical("thinking"))
    assert outcome.answer is None and outcome.selection.tier == "rule_based"
    assert all(REDACTED in step and "HTTP 401" in step for step in outcome.selection.steps)
    assert_nowhere(outcome, log_path, caplog)
    for text in (outcome.model_dump_json(), log_path.read_text(), caplog.text):
        assert PROXY_TOKEN not in text


def test_an_unexpected_client_failure_is_one_redacted_line_without_a_traceback(
    server: StubLLMServer, tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    models = gateway(server, tmp_path / "llm.jsonl")

    def broken(_request: object) -> None:
        raise RuntimeError(f"client bug while sending {KEY}")

    monkeypatch.setattr(models.clients["acting"], "complete", broken)
    with caplog.at_level(logging.DEBUG, logger="engine"):
        outcome = models.ask(tactical())
    (step,) = outcome.selection.steps
    assert step == f"acting: unexpected RuntimeError: client bug while sending {REDACTED}"
    (warning,) = [record for record in caplog.records if record.levelno == logging.WARNING]
    assert REDACTED in warning.getMessage()
    assert_nowhere(outcome, tmp_path / "llm.jsonl", caplog)


@pytest.fixture
def usual_umask() -> Iterator[None]:
    # Group- and world-readable by default, as on most systems: the call log must not be.
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


@pytest.mark.usefixtures("usual_umask")
def test_the_call_log_is_created_owner_only_and_an_existing_one_keeps_its_mode(
    server: StubLLMServer, tmp_path: Path
) -> None:
    server.responder = always(StubReply(text=answer_with('"ok"')))
    created = tmp_path / "runs" / "r" / "llm.jsonl"
    gateway(server, created).ask(tactical())
    assert stat.S_IMODE(created.stat().st_mode) == 0o600
    shared = tmp_path / "shared.jsonl"
    shared.write_text("")
    shared.chmod(0o640)  # its owner chose to share it with a group
    CallLog(shared).write({"event": "validation"})
    assert stat.S_IMODE(shared.stat().st_mode) == 0o640 and shared.read_text().count("\n") == 1


needs_full_disk = pytest.mark.skipif(not FULL_DISK.exists(), reason="needs /dev/full")


@needs_full_disk
def test_a_failed_append_is_counted_not_raised(caplog: pytest.LogCaptureFixture) -> None:
    calls = CallLog(FULL_DISK, [KEY])
    with caplog.at_level(logging.WARNING, logger="engine"):
        assert calls.write({"event": "validation"}) == 1
    assert calls.lost == 1
    (warning,) = caplog.records
    assert str(FULL_DISK) in warning.getMessage() and "No space left on device" in warning.getMessage()


@needs_full_disk
def test_a_full_disk_keeps_the_paid_answers_and_warns_once(
    server: StubLLMServer, caplog: pytest.LogCaptureFixture
) -> None:
    server.responder = always(StubReply(text=answer_with('"BUBBLE"')))
    models = gateway(server, FULL_DISK)
    with caplog.at_level(logging.WARNING, logger="engine"):
        outcomes = [models.ask(tactical()) for _ in range(2)]
    assert [outcome.answer is not None for outcome in outcomes] == [True, True]
    assert {outcome.selection.tier for outcome in outcomes} == {"acting"}
    # Each ask writes two entries (the call and its validation): all four lost, one warning.
    assert models.usage().log_lines_lost == 4 and models.report().counters["llm_log_lines_lost"] == 4.0
    (warning,) = [record for record in caplog.records if "cannot be written" in record.getMessage()]
    assert len(caplog.records) == 1 and "No space left on device" in warning.getMessage()
