"""Checking an LLM key with its provider: check() against a real local HTTP server that
answers as OpenAI, Anthropic and OpenRouter do, and as servers that are not one do."""

from __future__ import annotations

import socket

import pytest
from provider_server import GOOD, WRONG, FakeProvider, server
from tabsteward.bridge.errors import UsageError
from tabsteward.bridge.secrets.apikeys import KeyEntry
from tabsteward.bridge.secrets.providers import ProviderError, check

__all__ = ["server"]  # the fixture, from provider_server


def test_check_lists_the_models_of_an_openai_compatible_server(server: FakeProvider) -> None:
    url = server.url("openai")
    assert check(KeyEntry("w", "other", url), GOOD) == "ok: the provider lists 3 models"
    assert check(KeyEntry("w", "other", url, "m2"), GOOD) == \
        "ok: the provider lists 3 models, including m2"
    assert check(KeyEntry("w", "openai", url, "gpt-9"), GOOD) == \
        "ok: the provider lists 3 models, but not gpt-9 (check the model name)"
    assert server.seen[0]["path"] == "/openai/v1/models"
    assert server.seen[0]["authorization"] == f"Bearer {GOOD}"


def test_check_reports_a_refused_key_without_echoing_it(server: FakeProvider) -> None:
    with pytest.raises(ProviderError) as caught:
        check(KeyEntry("w", "other", server.url("openai")), WRONG)
    message = caught.value.message
    assert message.startswith("the provider refused this key (HTTP 401: {")
    assert "Incorrect API key provided: [key]." in message
    assert WRONG not in message
    assert message.endswith("…); check or replace the key")
    assert len(message) < 300
    assert caught.value.details == {"status": 401}


def test_check_sends_the_anthropic_headers(server: FakeProvider) -> None:
    entry = KeyEntry("a", "anthropic", server.url("anthropic"), "m3")
    assert check(entry, GOOD) == "ok: the provider lists 3 models, including m3"
    sent = server.seen[-1]
    assert sent["x-api-key"] == GOOD
    assert sent["anthropic-version"] == "2023-06-01"
    assert "authorization" not in sent
    with pytest.raises(ProviderError, match=r"refused this key \(HTTP 401"):
        check(entry, WRONG)


def test_check_of_openrouter_asks_about_the_key_itself_as_its_model_list_is_public(
        server: FakeProvider) -> None:
    entry = KeyEntry("r", "openrouter", server.url("openrouter"))
    assert check(entry, GOOD) == "ok: the provider lists 3 models"
    with pytest.raises(ProviderError, match=r"refused this key \(HTTP 401: .*No auth"):
        check(entry, WRONG)
    assert [s["path"] for s in server.seen] == ["/openrouter/v1/key", "/openrouter/v1/models",
                                               "/openrouter/v1/key"]


def test_check_reports_a_server_that_is_not_running() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(ProviderError, match=rf"nothing answers at 127.0.0.1:{port} \("
                       "connection refused\\); the key was not checked"):
        check(KeyEntry("w", "other", f"http://127.0.0.1:{port}/v1"), GOOD)


def test_check_gives_up_after_its_timeout(server: FakeProvider) -> None:
    with pytest.raises(ProviderError, match=r"did not answer within 0.3 s; the key was not "
                       "checked"):
        check(KeyEntry("w", "other", server.url("slow")), GOOD, timeout=0.3)


@pytest.mark.parametrize(("prefix", "why"), [
    ("html", "is not JSON .*Welcome to nginx"),
    ("nowhere", "answered HTTP 404 at .*/nowhere/v1/models .*Is the base URL right"),
    ("moved", "redirects to http://.*/openai/v1/models; the key was not sent there"),
])
def test_check_explains_answers_that_are_not_a_model_list(
        server: FakeProvider, prefix: str, why: str) -> None:
    with pytest.raises(ProviderError, match=why):
        check(KeyEntry("w", "other", server.url(prefix)), GOOD)
    assert [s["path"] for s in server.seen] == [f"/{prefix}/v1/models"]


def test_check_refuses_a_secret_that_could_not_be_sent(server: FakeProvider) -> None:
    with pytest.raises(UsageError, match=r"space or line break inside .*the key was not checked"):
        check(KeyEntry("w", "other", server.url("openai")), "sk-a b")
    assert server.seen == []
