"""The provider clients: the real SDKs in strict mode against local servers speaking both wire formats."""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from typing import Any, get_args

import anthropic
import openai
import pytest

from engine.config import ModelTierConfig
from engine.llm.anthropic_client import AnthropicClient
from engine.llm.clients import ModelClient, build_client
from engine.llm.errors import ProviderError, TransientModelError
from engine.llm.openai_client import OpenAIClient, token_limit_name
from engine.llm.wire import ImagePart, ModelMessage, ModelRequest, Provider
from tests.support.stub_llm import StubLLMServer, StubReply, StubRequest, always, script

API_KEY = "sk-test-7f3a9c1e55d2b8aa"
PROVIDERS = get_args(Provider)
PNG = b"\x89PNG\r\n\x1a\n-a-tiny-fake-picture"
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"action_id": {"type": "integer"}},
    "required": ["action_id"],
    "additionalProperties": False,
}
SDK_STATUS_ERRORS = (anthropic.APIStatusError, openai.APIStatusError)
# Well-formed JSON, but not what the APIs return: content should be a list, choices need a message.
WRONG_MESSAGE = b'{"id": "msg_1", "type": "message", "role": "assistant", "content": "hi"}'
WRONG_COMPLETION = b'{"id": "chatcmpl-1", "object": "chat.completion", "choices": [{"text": "hi"}]}'


_built: list[AnthropicClient | OpenAIClient] = []


@pytest.fixture(autouse=True)
def close_clients() -> Iterator[None]:
    yield
    while _built:
        _built.pop().close()


def build(tier: ModelTierConfig, api_key: str | None, *, strict: bool = True) -> ModelClient:
    """`build_client`, keeping the client to close its connections after the test."""
    client = build_client(tier, api_key, strict=strict)
    assert isinstance(client, AnthropicClient | OpenAIClient)
    _built.append(client)
    return client


@pytest.fixture
def server() -> Iterator[StubLLMServer]:
    with StubLLMServer() as stub:
        yield stub
    assert stub.errors == [], "the stub's responder raised"


def tier(
    provider: Provider, server: StubLLMServer, *, timeout_s: float = 2.0, structured_output: bool = True
) -> ModelTierConfig:
    base_url = server.anthropic_base_url if provider == "anthropic" else server.openai_base_url
    return ModelTierConfig(
        provider=provider,
        model=f"{provider}-stub-model",
        base_url=base_url,
        timeout_s=timeout_s,
        structured_output=structured_output,
    )


def client_for(provider: Provider, server: StubLLMServer, **tier_options: Any) -> ModelClient:
    return build(tier(provider, server, **tier_options), API_KEY)


def ask(text: str = "Which move?", *, images: tuple[ImagePart, ...] = (), **options: Any) -> ModelRequest:
    return ModelRequest(
        system="You play Pokémon Red.",
        messages=(ModelMessage(role="user", text=text, images=images),),
        max_tokens=64,
        **options,
    )


def only_request(server: StubLLMServer) -> StubRequest:
    requests = server.requests
    assert len(requests) == 1
    return requests[0]


@pytest.mark.parametrize("provider", PROVIDERS)
def test_an_answer_comes_back_with_its_usage(provider: Provider, server: StubLLMServer) -> None:
    server.responder = always(StubReply(text='{"action_id": 2}', input_tokens=321, output_tokens=17))

    response = client_for(provider, server).complete(ask("Pidgey used Gust. Which move?"))

    assert response.text == '{"action_id": 2}'
    assert (response.usage.input_tokens, response.usage.output_tokens) == (321, 17)
    assert response.model == f"{provider}-stub-model"
    assert response.stop_reason == ("end_turn" if provider == "anthropic" else "stop")
    assert response.latency_s >= 0.0


@pytest.mark.parametrize("provider", PROVIDERS)
def test_the_request_carries_model_prompt_limit_and_key(provider: Provider, server: StubLLMServer) -> None:
    client_for(provider, server).complete(ask("Pidgey used Gust. Which move?"))

    seen = only_request(server)
    assert seen.wire == provider
    assert seen.path == ("/v1/messages" if provider == "anthropic" else "/v1/chat/completions")
    assert seen.headers["host"] == f"127.0.0.1:{server.port}"
    assert seen.body["model"] == f"{provider}-stub-model"
    assert seen.body["max_tokens"] == 64
    assert seen.system_text == "You play Pokémon Red."
    assert seen.last_user_text == "Pidgey used Gust. Which move?"
    assert seen.headers["authorization"] == f"Bearer {API_KEY}"


def test_anthropic_sends_the_system_prompt_apart_from_the_messages(server: StubLLMServer) -> None:
    client_for("anthropic", server).complete(ask())

    seen = only_request(server)
    assert seen.body["system"] == "You play Pokémon Red."
    assert [message["role"] for message in seen.body["messages"]] == ["user"]


def test_openai_sends_the_system_prompt_first_and_assistant_turns_as_strings(server: StubLLMServer) -> None:
    request = ModelRequest(
        system="You play Pokémon Red.",
        messages=(
            ModelMessage(role="user", text="first"),
            ModelMessage(role="assistant", text="not JSON"),
            ModelMessage(role="user", text="answer in JSON"),
        ),
        max_tokens=64,
    )

    client_for("openai", server).complete(request)

    messages = only_request(server).body["messages"]
    assert [message["role"] for message in messages] == ["system", "user", "assistant", "user"]
    assert messages[2]["content"] == "not JSON"
    assert messages[3]["content"] == [{"type": "text", "text": "answer in JSON"}]


@pytest.mark.parametrize("provider", PROVIDERS)
def test_an_image_arrives_as_the_providers_image_part(provider: Provider, server: StubLLMServer) -> None:
    client_for(provider, server).complete(ask(images=(ImagePart.png(PNG),)))

    seen = only_request(server)
    assert seen.image_count == 1
    assert base64.b64decode(seen.images_base64[0]) == PNG
    parts = seen.body["messages"][-1]["content"]
    if provider == "anthropic":
        assert parts[0]["type"] == "image"
        assert parts[0]["source"]["media_type"] == "image/png"
    else:
        assert parts[1]["image_url"]["url"].startswith("data:image/png;base64,")


def test_anthropic_structured_output_sends_the_schema_in_output_config(server: StubLLMServer) -> None:
    client_for("anthropic", server).complete(ask(json_schema=SCHEMA))

    body = only_request(server).body
    assert body["output_config"] == {"format": {"type": "json_schema", "schema": SCHEMA}}


def test_openai_structured_output_sends_a_strict_response_format(server: StubLLMServer) -> None:
    client_for("openai", server).complete(ask(json_schema=SCHEMA, schema_name="tactical"))

    body = only_request(server).body
    assert body["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "tactical", "schema": SCHEMA, "strict": True},
    }


@pytest.mark.parametrize("provider", PROVIDERS)
def test_without_structured_output_no_schema_is_sent(provider: Provider, server: StubLLMServer) -> None:
    client_for(provider, server, structured_output=False).complete(ask(json_schema=SCHEMA))

    body = only_request(server).body
    assert "output_config" not in body
    assert "response_format" not in body
    assert json.dumps(SCHEMA) not in json.dumps(body)


@pytest.mark.parametrize(
    ("provider", "status", "expected"),
    [
        ("anthropic", 429, TransientModelError),
        ("anthropic", 500, TransientModelError),
        ("anthropic", 503, TransientModelError),
        ("anthropic", 529, TransientModelError),
        ("anthropic", 400, ProviderError),
        ("anthropic", 401, ProviderError),
        ("anthropic", 403, ProviderError),
        ("anthropic", 404, ProviderError),
        ("openai", 429, TransientModelError),
        ("openai", 500, TransientModelError),
        ("openai", 502, TransientModelError),
        ("openai", 400, ProviderError),
        ("openai", 401, ProviderError),
        ("openai", 404, ProviderError),
        ("openai", 422, ProviderError),
    ],
)
def test_error_statuses_map_to_transient_or_provider_errors(
    provider: Provider, status: int, expected: type[Exception], server: StubLLMServer
) -> None:
    server.responder = always(StubReply(status=status, text="the server says no"))

    with pytest.raises(expected) as caught:
        client_for(provider, server).complete(ask())

    assert type(caught.value) is expected
    assert f"HTTP {status}" in str(caught.value)
    assert "the server says no" in str(caught.value)
    assert str(caught.value).startswith(provider)
    assert isinstance(caught.value.__cause__, SDK_STATUS_ERRORS)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_long_server_message_is_cut_short(provider: Provider, server: StubLLMServer) -> None:
    server.responder = always(StubReply(status=500, text="x" * 5000))

    with pytest.raises(TransientModelError) as caught:
        client_for(provider, server).complete(ask())

    assert "x" * 200 in str(caught.value)
    assert "x" * 201 not in str(caught.value)


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize("status", [429, 500])
def test_the_sdk_does_not_retry(provider: Provider, status: int, server: StubLLMServer) -> None:
    # retry-after invites the SDK's own retry loop, had it one left on.
    server.responder = always(StubReply(status=status, headers={"retry-after": "0"}))

    with pytest.raises(TransientModelError):
        client_for(provider, server).complete(ask())

    assert len(server.requests) == 1


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_slow_server_times_out_as_transient(provider: Provider, server: StubLLMServer) -> None:
    server.responder = always(StubReply(text="too late", delay_s=1.0))

    with pytest.raises(TransientModelError) as caught:
        client_for(provider, server, timeout_s=0.3).complete(ask())

    assert "0.3 s" in str(caught.value)
    assert isinstance(caught.value.__cause__, anthropic.APITimeoutError | openai.APITimeoutError)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_refused_connection_is_transient(provider: Provider, server: StubLLMServer) -> None:
    client = client_for(provider, server)
    server.stop()

    with pytest.raises(TransientModelError) as caught:
        client.complete(ask())

    assert "connection failed" in str(caught.value)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_body_that_is_not_json_is_a_provider_error(provider: Provider, server: StubLLMServer) -> None:
    # Retrying a server that answers 200 with garbage (a wrong base URL, a captive proxy) gets more
    # garbage: not transient.
    server.responder = always(StubReply(raw_body=b"not json"))

    with pytest.raises(ProviderError, match="unreadable response"):
        client_for(provider, server).complete(ask())


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_non_json_content_type_is_a_provider_error(provider: Provider, server: StubLLMServer) -> None:
    server.responder = always(StubReply(raw_body=b"<html>hi</html>", headers={"Content-Type": "text/html"}))

    with pytest.raises(ProviderError, match="does not match"):
        client_for(provider, server).complete(ask())


@pytest.mark.parametrize(
    ("provider", "raw_body"),
    [
        ("anthropic", WRONG_MESSAGE),
        ("openai", WRONG_COMPLETION),
    ],
)
def test_a_wrong_shape_fails_strict_validation(
    provider: Provider, raw_body: bytes, server: StubLLMServer
) -> None:
    server.responder = always(StubReply(raw_body=raw_body))

    with pytest.raises(ProviderError, match="does not match"):
        client_for(provider, server).complete(ask())


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize(
    ("raw_body", "content_type"),
    [
        (WRONG_MESSAGE, "application/json"),
        (WRONG_COMPLETION, "application/json"),
        (b'{"usage": {"input_tokens": -1, "prompt_tokens": -1}}', "application/json"),
        (b"[]", "application/json"),
        (b"<html>a proxy's page</html>", "text/html"),
    ],
)
def test_without_strict_validation_a_wrong_shape_is_still_a_provider_error(
    provider: Provider, raw_body: bytes, content_type: str, server: StubLLMServer
) -> None:
    # Production runs without strict validation: the SDK then hands over whatever it could read.
    server.responder = always(StubReply(raw_body=raw_body, headers={"Content-Type": content_type}))
    client = build(tier(provider, server), API_KEY, strict=False)

    with pytest.raises(ProviderError):
        client.complete(ask())


def test_openai_without_choices_is_a_provider_error(server: StubLLMServer) -> None:
    body = {"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "m", "choices": []}
    server.responder = always(StubReply(raw_body=json.dumps(body).encode()))

    with pytest.raises(ProviderError, match="no choices"):
        client_for("openai", server).complete(ask())


def test_openai_without_usage_or_content_counts_zero_and_answers_empty(server: StubLLMServer) -> None:
    body = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": "local-model",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": None}, "finish_reason": "stop"}],
    }
    server.responder = always(StubReply(raw_body=json.dumps(body).encode()))

    response = client_for("openai", server).complete(ask())

    assert response.text == ""
    assert (response.usage.input_tokens, response.usage.output_tokens) == (0, 0)


def test_anthropic_empty_content_is_an_empty_answer_not_a_provider_fault(server: StubLLMServer) -> None:
    body = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-stub",
        "content": [],
        "stop_reason": "refusal",
        "stop_sequence": None,
        "usage": {"input_tokens": 40, "output_tokens": 0},
    }
    server.responder = always(StubReply(raw_body=json.dumps(body).encode()))

    response = client_for("anthropic", server).complete(ask())

    assert (response.text, response.stop_reason, response.usage.input_tokens) == ("", "refusal", 40)


def test_anthropic_joins_every_text_block(server: StubLLMServer) -> None:
    body = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-stub",
        "content": [{"type": "text", "text": '{"action_id":'}, {"type": "text", "text": " 3}"}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 2},
    }
    server.responder = always(StubReply(raw_body=json.dumps(body).encode()))

    assert client_for("anthropic", server).complete(ask()).text == '{"action_id": 3}'


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize("status", [400, 401, 429, 500])
def test_the_key_never_appears_in_an_error(provider: Provider, status: int, server: StubLLMServer) -> None:
    # Some servers quote the key they refused.
    server.responder = always(StubReply(status=status, text=f"Incorrect API key provided: {API_KEY}"))

    with pytest.raises((ProviderError, TransientModelError)) as caught:
        client_for(provider, server).complete(ask())

    assert API_KEY not in str(caught.value)
    assert "Incorrect API key provided" in str(caught.value)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_no_piece_of_the_key_survives_the_cut(provider: Provider, server: StubLLMServer) -> None:
    server.responder = always(StubReply(status=401, text="x" * 190 + API_KEY))

    with pytest.raises(ProviderError) as caught:
        client_for(provider, server).complete(ask())

    assert API_KEY[:8] not in str(caught.value)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_one_client_serves_call_after_call(provider: Provider, server: StubLLMServer) -> None:
    server.responder = script(StubReply(status=429), StubReply(text="first"), StubReply(text="again"))
    client = client_for(provider, server)

    with pytest.raises(TransientModelError):
        client.complete(ask())
    answers = [client.complete(ask()).text for _ in range(3)]

    assert answers == ["first", "again", "again"]
    assert len(server.requests) == 4


def test_anthropic_without_a_key_is_refused_before_any_call(server: StubLLMServer) -> None:
    with pytest.raises(ProviderError, match="no API key"):
        build(tier("anthropic", server), None)

    assert server.requests == []


def test_openai_without_a_key_works_against_a_local_server(server: StubLLMServer) -> None:
    client = build(tier("openai", server), None)

    assert client.complete(ask()).text == "ok"
    assert only_request(server).headers["authorization"] == "Bearer unused"


@pytest.mark.parametrize("provider", PROVIDERS)
def test_the_endpoint_names_provider_and_base_url_never_the_key(
    provider: Provider, server: StubLLMServer
) -> None:
    client = client_for(provider, server)

    base_url = server.anthropic_base_url if provider == "anthropic" else server.openai_base_url
    assert (client.provider, client.model) == (provider, f"{provider}-stub-model")
    assert client.endpoint == f"{provider} {base_url}"
    assert API_KEY not in client.endpoint


def test_only_openais_own_api_gets_max_completion_tokens() -> None:
    assert token_limit_name("api.openai.com") == "max_completion_tokens"
    assert token_limit_name("127.0.0.1") == "max_tokens"
    assert token_limit_name("localhost") == "max_tokens"


def test_a_responder_that_raises_is_reported_by_the_stub() -> None:
    def broken(_request: StubRequest) -> StubReply:
        raise KeyError("oops")

    with StubLLMServer(broken) as stub:
        with pytest.raises(TransientModelError, match="stub responder raised"):
            build(tier("openai", stub), API_KEY).complete(ask())
        assert [type(error) for error in stub.errors] == [KeyError]
