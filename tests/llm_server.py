"""A local LLM service for tests: answers OpenAI- and Anthropic-style requests as a test says."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any

# (status, headers, body): bytes go out as they are, str as UTF-8, anything else as JSON
Answer = tuple[int, dict[str, str], Any]
# the request's JSON (None when it is not JSON) and headers (lower-case names) -> the answer
Answerer = Callable[[Any, dict[str, str]], Answer]


@dataclass(frozen=True)
class Seen:
    """One request the server got, busy answers included."""

    method: str
    path: str
    headers: dict[str, str]  # names in lower case
    json: Any  # None when the body is not JSON
    raw: bytes


def openai_reply(data: dict[str, Any] | str, input_tokens: int = 10,
                 output_tokens: int = 5) -> Answer:
    """A chat completion whose message content is `data` (as JSON, or the text given)."""
    content = data if isinstance(data, str) else json.dumps(data)
    return 200, {}, {"id": "chatcmpl-test", "object": "chat.completion",
                     "choices": [{"index": 0, "finish_reason": "stop",
                                  "message": {"role": "assistant", "content": content,
                                              "refusal": None}}],
                     "usage": {"prompt_tokens": input_tokens,
                               "completion_tokens": output_tokens}}


def anthropic_reply(name: str, data: dict[str, Any], input_tokens: int = 10,
                    output_tokens: int = 5) -> Answer:
    """A message whose answer is a call of the tool `name` with `data` as its input."""
    return 200, {}, {"id": "msg_test", "type": "message", "role": "assistant",
                     "stop_reason": "tool_use",
                     "content": [{"type": "text", "text": "Here it is."},
                                 {"type": "tool_use", "id": "toolu_test", "name": name,
                                  "input": data}],
                     "usage": {"input_tokens": input_tokens, "output_tokens": output_tokens}}


class Script:
    """An answerer playing a scripted model: each request gets the next answer, shaped for the
    dialect it came in; a request after the last one gets HTTP 500."""

    def __init__(self, answers: Iterable[dict[str, Any]], input_tokens: int = 10,
                 output_tokens: int = 5) -> None:
        self._answers: Iterator[dict[str, Any]] = iter(answers)
        self.tokens = (input_tokens, output_tokens)

    def __call__(self, body: Any, headers: dict[str, str]) -> Answer:
        data = next(self._answers, None)
        if data is None:
            return 500, {}, {"error": {"message": "the script has no more answers"}}
        tools = body.get("tools") if isinstance(body, dict) else None
        if tools:
            return anthropic_reply(tools[0]["name"], data, *self.tokens)
        return openai_reply(data, *self.tokens)


class LLMServer:
    """A threaded HTTP server on 127.0.0.1 that answers every request with `answer`, after
    answering the first ones with the statuses in `busy` (429, 503, 529…, with Retry-After
    `retry_after` when given), each after `delay` seconds. Records every request in `seen`;
    a context manager that fails the test when `answer` raised."""

    def __init__(self, answer: Answerer, *, busy: Iterable[int] = (),
                 retry_after: str | None = None, delay: float = 0.0) -> None:
        self.answer = answer
        self.busy = list(busy)
        self.retry_after = retry_after
        self.delay = delay
        self.seen: list[Seen] = []
        self.errors: list[BaseException] = []
        self._lock = threading.Lock()
        self._closing = threading.Event()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,),
                                        name="llm-server", daemon=True)

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    def url(self, prefix: str = "/v1") -> str:
        """The base URL to give a ModelConfig (paths start from it)."""
        return f"http://127.0.0.1:{self.port}{prefix}"

    def __enter__(self) -> LLMServer:
        self._thread.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
        if kind is None and self.errors:
            raise AssertionError("the test's answer function raised") from self.errors[0]

    def close(self) -> None:
        self._closing.set()
        if self._thread.is_alive():
            self._server.shutdown()
            self._thread.join(5)
        self._server.server_close()

    def respond(self, seen: Seen) -> Answer:
        """The answer to one request (called on the server's threads)."""
        with self._lock:
            self.seen.append(seen)
            status = self.busy.pop(0) if self.busy else None
        if self.delay:
            self._closing.wait(self.delay)
        if status is not None:
            extra = {} if self.retry_after is None else {"Retry-After": self.retry_after}
            return status, extra, {"error": {"message": f"busy (HTTP {status}), try later"}}
        try:
            return self.answer(seen.json, seen.headers)
        except Exception as exc:  # noqa: BLE001  (reported when the test leaves the server)
            self.errors.append(exc)
            return 500, {}, {"error": {"message": f"the test's answer raised {exc!r}"}}

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                return

            def do_POST(self) -> None:
                size = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(size)
                try:
                    body = json.loads(raw)
                except ValueError:
                    body = None
                headers = {k.lower(): v for k, v in self.headers.items()}
                self.send(*server.respond(Seen(self.command, self.path, headers, body, raw)))

            do_GET = do_POST

            def send(self, status: int, headers: dict[str, str], body: Any) -> None:
                if isinstance(body, bytes):
                    data = body
                elif isinstance(body, str):
                    data = body.encode("utf-8")
                else:
                    data = json.dumps(body).encode("utf-8")
                self.send_response(status)
                named = {k.lower() for k in headers}
                if "content-type" not in named:
                    self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.send_header("Connection", "close")
                for name, value in headers.items():
                    self.send_header(name, value)
                self.end_headers()
                try:
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    return  # the client gave up waiting (a timeout test): nothing to tell

        return Handler
