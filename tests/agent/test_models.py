"""Asking a model: both dialects against a real local HTTP server, bounded retries, no redirect
followed, no secret shown, usage and cost counted, and the model chosen from the profile."""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from llm_server import Answer, LLMServer, Script, anthropic_reply, openai_reply
from tabsteward.bridge.agent.models import (
    MAX_BYTES,
    ModelConfig,
    ModelError,
    ModelOutputError,
    Reply,
    Usage,
    complete,
    config_for,
    price,
)
from tabsteward.bridge.errors import UsageError
from tabsteward.bridge.policy.profiles import Profile
from tabsteward.bridge.secrets.apikeys import ApiKeys, KeyEntry, backend_problem, write_index

SECRET = "sk-test-0123456789abcdef"
SYSTEM = "You choose the next step."
MESSAGES = [{"role": "user", "content": "The page shows a search box. What next?"}]
SCHEMA: dict[str, Any] = {"type": "object", "additionalProperties": False,
                          "required": ["op"], "properties": {"op": {"type": "string"}}}
NAME = "decision"
DECISION = {"op": "click"}


class Sleeps:
    """A stand-in for asyncio.sleep that only records how long it was asked to wait."""

    def __init__(self) -> None:
        self.seconds: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.seconds.append(seconds)


def config(server: LLMServer, provider: str = "openai", model: str = "gpt-4.1-mini",
           ) -> ModelConfig:
    return ModelConfig(provider, server.url(), model, SECRET)


def ask(cfg: ModelConfig, **options: Any) -> Reply:
    return asyncio.run(complete(cfg, SYSTEM, MESSAGES, SCHEMA, NAME, **options))


def failure(cfg: ModelConfig, kind: type[ModelError] = ModelError,
            **options: Any) -> ModelError:
    with pytest.raises(kind) as caught:
        ask(cfg, **options)
    assert SECRET not in str(caught.value)
    return caught.value


def always(answer: Answer) -> Any:
    return lambda body, headers: answer


# -- the two dialects -----------------------------------------------------------------------


def test_an_openai_answer_is_parsed_and_the_request_carries_the_schema_strictly_and_the_key(
        ) -> None:
    with LLMServer(always(openai_reply(DECISION, 120, 7))) as server:
        reply = ask(config(server))
    assert reply.data == DECISION
    assert (reply.input_tokens, reply.output_tokens, reply.retries) == (120, 7, 0)
    [seen] = server.seen
    assert (seen.method, seen.path) == ("POST", "/v1/chat/completions")
    assert seen.headers["authorization"] == f"Bearer {SECRET}"
    assert seen.json["model"] == "gpt-4.1-mini"
    assert seen.json["temperature"] == 0
    assert seen.json["messages"] == [{"role": "system", "content": SYSTEM}, *MESSAGES]
    assert seen.json["response_format"] == {"type": "json_schema", "json_schema": {
        "name": NAME, "schema": SCHEMA, "strict": True}}
    assert reply.request_bytes == len(seen.raw)
    assert reply.response_bytes > 0
    assert reply.seconds >= 0


def test_an_anthropic_tool_call_is_parsed_and_the_key_goes_in_x_api_key_with_a_version(
        ) -> None:
    with LLMServer(always(anthropic_reply(NAME, DECISION, 300, 20))) as server:
        reply = ask(config(server, "anthropic", "claude-haiku-4-5"))
    assert reply.data == DECISION
    assert (reply.input_tokens, reply.output_tokens) == (300, 20)
    [seen] = server.seen
    assert seen.path == "/v1/messages"
    assert seen.headers["x-api-key"] == SECRET
    assert seen.headers["anthropic-version"] == "2023-06-01"
    assert "authorization" not in seen.headers
    body = seen.json
    assert (body["system"], body["messages"], body["temperature"]) == (SYSTEM, MESSAGES, 0)
    assert body["max_tokens"] > 0
    assert [(t["name"], t["input_schema"]) for t in body["tools"]] == [(NAME, SCHEMA)]
    assert body["tool_choice"] == {"type": "tool", "name": NAME}


def test_openrouter_is_asked_at_its_chat_completions_path_with_a_bearer_key() -> None:
    with LLMServer(Script([DECISION])) as server:
        reply = ask(ModelConfig("openrouter", server.url("/api/v1/"), "openai/gpt-4o-mini",
                                SECRET))
    assert reply.data == DECISION
    [seen] = server.seen
    assert seen.path == "/api/v1/chat/completions"
    assert seen.headers["authorization"] == f"Bearer {SECRET}"
    assert seen.json["model"] == "openai/gpt-4o-mini"


# -- busy services and retries --------------------------------------------------------------


def test_a_429_with_retry_after_0_is_retried_once_and_the_retry_is_counted() -> None:
    sleeps = Sleeps()
    with LLMServer(always(openai_reply(DECISION)), busy=[429], retry_after="0") as server:
        reply = ask(config(server), sleep=sleeps)
    assert reply.data == DECISION
    assert reply.retries == 1
    assert sleeps.seconds == [0.0]
    assert len(server.seen) == 2


def test_a_long_retry_after_is_cut_to_30_seconds() -> None:
    sleeps = Sleeps()
    with LLMServer(always(anthropic_reply(NAME, DECISION)), busy=[529],
                   retry_after="120") as server:
        reply = ask(config(server, "anthropic"), sleep=sleeps)
    assert (reply.retries, sleeps.seconds) == (1, [30.0])


def test_a_service_busy_beyond_max_retries_fails_as_retryable_after_1_2_4_8_seconds() -> None:
    sleeps = Sleeps()
    with LLMServer(always(openai_reply(DECISION)), busy=[503] * 5) as server:
        err = failure(config(server), sleep=sleeps, max_retries=4)
    assert sleeps.seconds == [1.0, 2.0, 4.0, 8.0]
    assert len(server.seen) == 5
    assert err.retryable
    assert "HTTP 503" in err.message
    assert "after 4 retries" in err.message


def test_a_401_fails_at_once_without_retry_and_without_the_key_it_echoed() -> None:
    sleeps = Sleeps()
    echo = {"error": {"message": f"Incorrect API key provided: {SECRET}. " + "x" * 500}}
    with LLMServer(always((401, {}, echo))) as server:
        err = failure(config(server), sleep=sleeps)
    assert (len(server.seen), sleeps.seconds) == (1, [])
    assert not err.retryable
    assert "refused the API key (HTTP 401" in err.message
    assert "[key]" in err.message
    assert len(err.message) < 400


@pytest.mark.parametrize(("status", "retryable"), [(400, False), (500, True), (502, True)])
def test_any_other_http_error_fails_at_once(status: int, retryable: bool) -> None:
    with LLMServer(always((status, {}, {"error": {"message": "bad things"}}))) as server:
        err = failure(config(server), sleep=Sleeps())
    assert len(server.seen) == 1
    assert err.retryable is retryable
    assert f"HTTP {status} (bad things)" in err.message


# -- answers that are not what was asked for ------------------------------------------------


@pytest.mark.parametrize("content", ["not json {", '["click"]', "", '"click"'])
def test_content_that_is_not_a_json_object_is_a_model_output_error(content: str) -> None:
    with LLMServer(always(openai_reply(content))) as server:
        err = failure(config(server), ModelOutputError)
    assert "not the JSON object asked for" in err.message


def test_a_refusal_is_a_model_output_error_that_says_the_model_refused() -> None:
    refused = {"choices": [{"message": {"role": "assistant", "content": None,
                                        "refusal": "I can't help with that."}}]}
    with LLMServer(always((200, {}, refused))) as server:
        err = failure(config(server), ModelOutputError)
    assert "the model refused to answer (I can't help with that.)" in err.message


def test_an_anthropic_answer_without_the_tool_call_is_a_model_output_error() -> None:
    text_only = {"content": [{"type": "text", "text": "I would click the button."}],
                 "usage": {"input_tokens": 5, "output_tokens": 5}}
    with LLMServer(always((200, {}, text_only))) as server:
        err = failure(config(server, "anthropic"), ModelOutputError)
    assert "did not answer through the decision tool (I would click" in err.message


def test_a_body_that_is_not_json_fails_as_a_service_error_not_an_output_error() -> None:
    page = "<html><body>Welcome to nginx!</body></html>"
    with LLMServer(always((200, {"Content-Type": "text/html"}, page))) as server:
        err = failure(config(server))
    assert not isinstance(err, ModelOutputError)
    assert "is not a JSON object" in err.message
    assert "Welcome to nginx" in err.message


def test_a_json_body_that_is_not_a_chat_answer_fails_as_a_service_error() -> None:
    with LLMServer(always((200, {}, {"data": []}))) as server:
        err = failure(config(server))
    assert not isinstance(err, ModelOutputError)
    assert "not a chat answer" in err.message


# -- transport ------------------------------------------------------------------------------


def test_a_service_slower_than_the_timeout_fails_as_retryable() -> None:
    with LLMServer(always(openai_reply(DECISION)), delay=5) as server:
        err = failure(config(server), timeout=0.3)
    assert err.retryable
    assert "did not answer within 0.3 s" in err.message


def test_a_refused_connection_fails_saying_nothing_answers() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    err = failure(ModelConfig("openai", f"http://127.0.0.1:{port}/v1", "m", SECRET))
    assert "connection refused" in err.message
    assert not err.retryable


def test_a_redirect_is_not_followed_so_the_key_goes_nowhere_else() -> None:
    def moved(body: Any, headers: dict[str, str]) -> Answer:
        return 307, {"Location": f"{server.url('/elsewhere')}?key={SECRET}"}, ""

    with LLMServer(moved) as server:
        err = failure(config(server))
    assert [s.path for s in server.seen] == ["/v1/chat/completions"]
    assert "redirects to" in err.message
    assert "was not sent there" in err.message


def test_a_request_over_4_mb_is_not_sent() -> None:
    huge = [{"role": "user", "content": "x" * MAX_BYTES}]
    with LLMServer(always(openai_reply(DECISION))) as server, \
            pytest.raises(ModelError, match="it was not sent"):
        asyncio.run(complete(config(server), SYSTEM, huge, SCHEMA, NAME))
    assert server.seen == []


def test_an_answer_over_4_mb_is_not_read() -> None:
    with LLMServer(always(openai_reply("x" * MAX_BYTES))) as server:
        err = failure(config(server))
    assert f"larger than {MAX_BYTES} bytes" in err.message


# -- usage and cost -------------------------------------------------------------------------


def test_usage_adds_tokens_retries_and_the_cost_of_a_known_model() -> None:
    usage = Usage()
    with LLMServer(Script([DECISION, DECISION], 1_000_000, 500_000), busy=[429],
                   retry_after="0") as server:
        for _ in range(2):
            usage.add(ask(config(server, model="gpt-4.1-mini-2025-04-14"), sleep=Sleeps()))
    assert (usage.requests, usage.input_tokens, usage.output_tokens, usage.retries) == (
        2, 2_000_000, 1_000_000, 1)
    assert usage.cost_usd == pytest.approx(2 * (0.40 + 0.80))


def test_the_cost_of_an_unknown_model_stays_none_while_tokens_are_still_counted() -> None:
    usage = Usage()
    with LLMServer(Script([DECISION], 100, 10)) as server:
        reply = ask(config(server, model="my-local-llama"))
    usage.add(reply)
    assert reply.cost_usd is None
    assert (usage.requests, usage.input_tokens, usage.cost_usd) == (1, 100, None)


@pytest.mark.parametrize(("model", "known"), [
    ("gpt-4o-mini-2024-07-18", "gpt-4o-mini"), ("gpt-4o", "gpt-4o"),
    ("openai/gpt-4.1-mini", "gpt-4.1-mini"), ("claude-sonnet-4-20250514", "claude-sonnet-4"),
    ("claude-3-5-haiku-latest", "claude-3-5-haiku"), ("claude-sonnet-4-5", "claude-sonnet-4"),
    ("gpt-4o-audio-preview", None), ("gpt-4.1-minimal", None), ("llama3", None), ("-2024", None)])
def test_a_price_matches_the_model_or_its_dated_variants_and_nothing_else(
        model: str, known: str | None) -> None:
    assert price(model) == (None if known is None else price(known))
    assert known is None or price(known) is not None


# -- the secret -----------------------------------------------------------------------------


def test_the_secret_is_never_in_the_config_repr_nor_in_the_log(
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="tabsteward.agent")
    with LLMServer(always(openai_reply(DECISION)), busy=[429], retry_after="0") as server:
        cfg = config(server)
        ask(cfg, sleep=Sleeps())
    assert SECRET not in repr(cfg)
    assert SECRET not in str(cfg)
    assert "bytes sent" in caplog.text
    assert SECRET not in caplog.text


# -- choosing the model ---------------------------------------------------------------------


@pytest.fixture
def keys(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ApiKeys]:
    """An empty key index in a private config folder, secrets in the real OS keyring."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    problem = backend_problem()
    if problem is not None:
        pytest.fail(f"{problem}. Run the tests through packaging/with-keyring.sh")
    store = ApiKeys()
    yield store
    for entry in store.list():
        store.remove(entry.name)


def fresh_name() -> str:
    return f"t-{uuid.uuid4().hex[:10]}"  # the keyring is shared by the test session


def test_the_profiles_key_and_model_are_used_with_the_secret_from_the_keyring(
        keys: ApiKeys) -> None:
    name = fresh_name()
    keys.add(KeyEntry(name, "anthropic", "", "claude-3-5-haiku-latest"), SECRET)
    cfg = config_for(Profile("work", key=name, model="claude-sonnet-4-5"), keys)
    assert cfg == ModelConfig("anthropic", "https://api.anthropic.com/v1",
                              "claude-sonnet-4-5", SECRET)


def test_the_keys_own_model_is_used_when_the_profile_names_none(keys: ApiKeys) -> None:
    name = fresh_name()
    keys.add(KeyEntry(name, "other", "http://127.0.0.1:8080/v1/", "qwen2.5"), SECRET)
    cfg = config_for(Profile("work", key=name), keys)
    assert (cfg.provider, cfg.base_url, cfg.model) == ("other", "http://127.0.0.1:8080/v1",
                                                        "qwen2.5")


def test_a_key_and_model_given_as_arguments_win_over_the_profile(keys: ApiKeys) -> None:
    mine, theirs = fresh_name(), fresh_name()
    keys.add(KeyEntry(mine, "openai", ""), SECRET)
    keys.add(KeyEntry(theirs, "openrouter", "", "x-ai/grok"), "sk-or-other-key")
    cfg = config_for(Profile("work", key=theirs, model="x-ai/grok"), keys,
                     model="gpt-4.1-mini", key=mine)
    assert (cfg.provider, cfg.model, cfg.secret) == ("openai", "gpt-4.1-mini", SECRET)


def test_a_profile_without_a_key_says_where_to_choose_one(keys: ApiKeys) -> None:
    with pytest.raises(UsageError) as caught:
        config_for(Profile("work", model="gpt-4.1-mini"), keys)
    assert caught.value.message.startswith(
        "profile 'work' names no API key: choose one in the tray app's Profiles window, or "
        "pass --key")


def test_an_unknown_key_name_is_refused_without_asking_the_model(keys: ApiKeys) -> None:
    with pytest.raises(UsageError, match=r"no key named 'nope'.*the model was not asked"):
        config_for(Profile("work", key="nope", model="gpt-4.1-mini"), keys)


def test_a_key_whose_secret_is_missing_from_the_keyring_is_refused(keys: ApiKeys) -> None:
    name = fresh_name()
    write_index(keys.path, [KeyEntry(name, "openai", "", "gpt-4.1-mini")])  # no secret
    with pytest.raises(UsageError, match="the keyring holds no secret"):
        config_for(Profile("work", key=name), keys)


def test_no_model_anywhere_is_refused_saying_where_to_choose_one(keys: ApiKeys) -> None:
    name = fresh_name()
    keys.add(KeyEntry(name, "openai", ""), SECRET)
    with pytest.raises(UsageError, match=r"names a model: choose one .* or pass --model"):
        config_for(Profile("work", key=name), keys)


def test_a_config_with_an_unknown_provider_is_refused() -> None:
    with pytest.raises(UsageError, match="provider 'acme' is unknown"):
        ModelConfig("acme", "http://127.0.0.1/v1", "m", SECRET)


def test_the_test_server_records_json_bodies_and_fails_the_test_when_its_answerer_raises(
        ) -> None:
    def broken(body: Any, headers: dict[str, str]) -> Answer:
        raise RuntimeError("oops")

    with pytest.raises(AssertionError, match="answer function raised"), \
            LLMServer(broken) as server:
        failure(config(server))
    assert json.loads(server.seen[0].raw) == server.seen[0].json
