"""A local LLM provider for the key tests: a real HTTP server on 127.0.0.1 that answers as
OpenAI, Anthropic and OpenRouter do (and as servers that are not one do), the key it accepts
and one it refuses."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

GOOD = "sk-good-0123456789abcdef"
WRONG = "sk-wrong-9876543210fedcba"
MODELS = ["m1", "m2", "m3"]


class FakeProvider:
    """A real HTTP server on 127.0.0.1 answering like the providers do, under one prefix each:
    /openai/v1 (bearer), /anthropic/v1 (x-api-key + anthropic-version), /openrouter/v1 (a
    public model list and /key that checks the key), /html/v1 (not JSON), /slow/v1 (answers
    only when released), /moved/v1 (a redirect)."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.seen: list[dict[str, str]] = []
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.05,),
                                       daemon=True)
        self.thread.start()

    def url(self, prefix: str) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/{prefix}/v1"

    def close(self) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(5)

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        provider = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                return

            def do_GET(self) -> None:
                provider.seen.append({"path": self.path,
                                      **{k.lower(): v for k, v in self.headers.items()}})
                route = ROUTES.get(self.path.split("?")[0])
                if route is None:
                    self.answer(404, {"error": "no such route"})
                    return
                route(provider, self)

            def answer(self, status: int, body: object, kind: str = "application/json",
                       extra: dict[str, str] | None = None) -> None:
                data = body.encode() if isinstance(body, str) else json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(data)))
                for name, value in (extra or {}).items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)

        return Handler


def _listing(ok: bool, handler: Any, given: str) -> None:
    if ok:
        handler.answer(200, {"object": "list", "data": [{"id": m} for m in MODELS]})
    else:  # echoes the key, as OpenAI's "Incorrect API key provided: …" does
        handler.answer(401, {"error": {"message": f"Incorrect API key provided: {given}. "
                                       + "You can find your API key in the dashboard. " * 9}})


def _openai(provider: FakeProvider, handler: Any) -> None:
    given = handler.headers.get("Authorization", "")
    _listing(given == f"Bearer {GOOD}", handler, given.removeprefix("Bearer "))


def _anthropic(provider: FakeProvider, handler: Any) -> None:
    if handler.headers.get("anthropic-version") != "2023-06-01":
        handler.answer(400, {"error": "anthropic-version header is required"})
        return
    _listing(handler.headers.get("x-api-key") == GOOD, handler, "")


def _openrouter_models(provider: FakeProvider, handler: Any) -> None:
    _listing(True, handler, "")  # public: says nothing about the key


def _openrouter_key(provider: FakeProvider, handler: Any) -> None:
    if handler.headers.get("Authorization") == f"Bearer {GOOD}":
        handler.answer(200, {"data": {"label": "sk-or-…", "usage": 0}})
    else:
        handler.answer(401, {"error": {"message": "No auth credentials found"}})


def _html(provider: FakeProvider, handler: Any) -> None:
    handler.answer(200, "<html><body>Welcome to nginx!</body></html>", "text/html")


def _slow(provider: FakeProvider, handler: Any) -> None:
    provider.release.wait(10)
    handler.answer(200, {"data": []})


def _moved(provider: FakeProvider, handler: Any) -> None:
    handler.answer(302, "", "text/plain", {"Location": provider.url("openai") + "/models"})


ROUTES: dict[str, Callable[[FakeProvider, Any], None]] = {
    "/openai/v1/models": _openai,
    "/anthropic/v1/models": _anthropic,
    "/openrouter/v1/models": _openrouter_models,
    "/openrouter/v1/key": _openrouter_key,
    "/html/v1/models": _html,
    "/slow/v1/models": _slow,
    "/moved/v1/models": _moved,
}


@pytest.fixture
def server() -> Iterator[FakeProvider]:
    provider = FakeProvider()
    yield provider
    provider.close()
