"""One request to an LLM at a time, answered with a JSON object that follows a schema."""

from __future__ import annotations

import asyncio
import http.client
import json
import logging
import math
import re
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from email.message import Message
from typing import Any

from ..errors import TabstewardError, UsageError
from ..policy.profiles import Profile
from ..secrets.apikeys import ApiKeys
from ..secrets.providers import PROVIDERS, auth_headers, opener, redact

log = logging.getLogger("tabsteward.agent")

MAX_BYTES = 4 * 1024 * 1024  # a request or an answer larger than this is refused
MAX_TOKENS = 1024  # of one answer (Anthropic requires a bound)
BUSY = frozenset({429, 503, 529})  # "try again later": retried with backoff
BACKOFF = (1.0, 2.0, 4.0, 8.0)  # seconds before retry 1, 2, 3, 4 (and any later one)
MAX_RETRY_AFTER = 30.0  # a longer Retry-After is cut to this
_ERROR_READ = 4000  # bytes of an error answer read to quote from
NOT_ASKED = "the model was not asked"
NO_ANSWER = "no answer was used"

# Approximate USD per million (input, output) tokens, as the providers listed them in 2025.
# Only for a rough cost in reports: a model not listed here (or a price that changed) is not
# guessed, and its cost stays None. A name matches an entry, its dated versions (-2025-04-14,
# -20250514), -latest, and point releases (claude-sonnet-4-5), never another kind (-audio…).
PRICES: Mapping[str, tuple[float, float]] = {
    "gpt-4.1": (2.00, 8.00),
    "gpt-4.1-mini": (0.40, 1.60),
    "gpt-4.1-nano": (0.10, 0.40),
    "gpt-4o": (2.50, 10.00),
    "gpt-4o-mini": (0.15, 0.60),
    "claude-3-5-haiku": (0.80, 4.00),
    "claude-haiku-4-5": (1.00, 5.00),
    "claude-sonnet-4": (3.00, 15.00),
}
_VARIANT = re.compile(r"|-latest|-[0-9][0-9-]*")


class ModelError(TabstewardError):
    """The model could not be asked, or its service failed; `retryable` when the same request
    may well succeed later (busy, timed out, a server error)."""

    def __init__(self, message: str, *, retryable: bool = False, **details: Any) -> None:
        super().__init__(message, **details)
        self.retryable = retryable


class ModelOutputError(ModelError):
    """The model answered, but not with the JSON object asked for (or it refused)."""


@dataclass(frozen=True)
class ModelConfig:
    """Which model to ask, where, and with what key (the secret is never shown)."""

    provider: str
    base_url: str
    model: str
    secret: str = field(repr=False)

    def __post_init__(self) -> None:
        if self.provider not in PROVIDERS:
            raise UsageError(f"the provider {self.provider!r} is unknown (known: "
                             f"{', '.join(PROVIDERS)}); {NOT_ASKED}")
        object.__setattr__(self, "base_url", self.base_url.rstrip("/"))


@dataclass(frozen=True)
class Reply:
    """The model's JSON answer and what it cost: tokens, bytes, seconds, retries."""

    data: dict[str, Any]
    input_tokens: int
    output_tokens: int
    request_bytes: int
    response_bytes: int
    seconds: float
    retries: int
    cost_usd: float | None = None  # None when the model's price is not in PRICES


@dataclass
class Usage:
    """What a run's model requests added up to; cost_usd is None once any price is unknown."""

    requests: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    retries: int = 0
    cost_usd: float | None = 0.0

    def add(self, reply: Reply) -> None:
        self.requests += 1
        self.input_tokens += reply.input_tokens
        self.output_tokens += reply.output_tokens
        self.retries += reply.retries
        if self.cost_usd is not None and reply.cost_usd is not None:
            self.cost_usd += reply.cost_usd
        else:
            self.cost_usd = None


def price(model: str) -> tuple[float, float] | None:
    """USD per million (input, output) tokens of `model`, or None when it is not known."""
    bare = model.rsplit("/", 1)[-1].lower()  # OpenRouter names carry the vendor: openai/…
    found = [name for name in PRICES
             if bare.startswith(name) and _VARIANT.fullmatch(bare[len(name):])]
    return PRICES[max(found, key=len)] if found else None


def cost(model: str, input_tokens: int, output_tokens: int) -> float | None:
    """The approximate cost in USD, or None when the model's price is not known."""
    per_million = price(model)
    if per_million is None:
        return None
    return (input_tokens * per_million[0] + output_tokens * per_million[1]) / 1_000_000


# -- choosing the model ---------------------------------------------------------------------


def config_for(profile: Profile, keys: ApiKeys, model: str | None = None,
               key: str | None = None) -> ModelConfig:
    """The model the goal agent asks: the key and model given, else the profile's, else the
    key's own model; UsageError saying what is missing."""
    name = key or profile.key
    if not name:
        raise UsageError(f"profile {profile.name!r} names no API key: choose one in the tray "
                         f"app's Profiles window, or pass --key; {NOT_ASKED}")
    try:
        entry = keys.get(name)
    except UsageError as exc:
        raise UsageError(f"{exc.message}; {NOT_ASKED}. Add it in the tray app's Keys window, "
                         "or choose another") from None
    chosen = model or profile.model or entry.model
    if not chosen:
        raise UsageError(f"neither profile {profile.name!r} nor the key {name!r} names a "
                         "model: choose one in the tray app's Profiles window, or pass "
                         f"--model; {NOT_ASKED}")
    return ModelConfig(entry.provider, entry.base_url, chosen, keys.secret(name))


# -- the two dialects -----------------------------------------------------------------------


Messages = list[dict[str, str]]
Parsed = tuple[dict[str, Any], int, int]  # (the answer, input tokens, output tokens)


def _openai_body(cfg: ModelConfig, system: str, messages: Messages, schema: dict[str, Any],
                 name: str) -> dict[str, Any]:
    return {"model": cfg.model,
            "messages": [{"role": "system", "content": system}, *messages],
            "temperature": 0,
            "response_format": {"type": "json_schema", "json_schema": {
                "name": name, "schema": schema, "strict": True}}}


def _anthropic_body(cfg: ModelConfig, system: str, messages: Messages,
                    schema: dict[str, Any], name: str) -> dict[str, Any]:
    tool = {"name": name, "input_schema": schema,
            "description": "Give your answer as this tool's input, following its schema."}
    return {"model": cfg.model, "max_tokens": MAX_TOKENS, "system": system,
            "messages": messages, "tools": [tool],
            "tool_choice": {"type": "tool", "name": name}, "temperature": 0}


def _openai_answer(body: dict[str, Any], name: str, secret: str) -> Parsed:
    choices = body.get("choices")
    first = choices[0] if isinstance(choices, list) and choices else None
    message = first.get("message") if isinstance(first, dict) else None
    if not isinstance(message, dict):
        raise _not_an_answer(body, secret)
    refusal = message.get("refusal")
    if refusal:
        raise ModelOutputError(f"the model refused to answer ({redact(str(refusal), secret)})"
                               f"; {NO_ANSWER}")
    content = message.get("content")
    if not isinstance(content, str):
        raise ModelOutputError(f"the model's answer has no text; {NO_ANSWER}")
    data = _json_object(content, secret)
    return data, *_tokens(body, "prompt_tokens", "completion_tokens")


def _anthropic_answer(body: dict[str, Any], name: str, secret: str) -> Parsed:
    content = body.get("content")
    if not isinstance(content, list):
        raise _not_an_answer(body, secret)
    for block in content:
        if (isinstance(block, dict) and block.get("type") == "tool_use"
                and block.get("name") == name):
            data = block.get("input")
            if not isinstance(data, dict):
                raise ModelOutputError(f"the model's {name} input is not a JSON object; "
                                       f"{NO_ANSWER}")
            return data, *_tokens(body, "input_tokens", "output_tokens")
    said = " ".join(str(b.get("text", "")) for b in content if isinstance(b, dict))
    raise ModelOutputError(f"the model did not answer through the {name} tool "
                           f"({redact(said, secret) or 'no text'}); {NO_ANSWER}")


def _json_object(text: str, secret: str) -> dict[str, Any]:
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    if not isinstance(data, dict):
        raise ModelOutputError(f"the model's answer is not the JSON object asked for "
                               f"({redact(text, secret)!r}); {NO_ANSWER}")
    return data


def _tokens(body: dict[str, Any], into: str, out: str) -> tuple[int, int]:
    usage = body.get("usage")
    if not isinstance(usage, dict):
        return 0, 0
    return _count(usage.get(into)), _count(usage.get(out))


def _count(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _not_an_answer(body: dict[str, Any], secret: str) -> ModelError:
    return ModelError(f"the model service's answer is not a chat answer "
                      f"({redact(json.dumps(body), secret)}); {NO_ANSWER}. Is the base URL "
                      "right?")


@dataclass(frozen=True)
class _Dialect:
    """How one kind of API is asked and answers: its path, request body and answer."""

    path: str
    body: Callable[[ModelConfig, str, Messages, dict[str, Any], str], dict[str, Any]]
    answer: Callable[[dict[str, Any], str, str], Parsed]


DIALECTS: Mapping[str, _Dialect] = {  # by Provider.auth
    "bearer": _Dialect("/chat/completions", _openai_body, _openai_answer),
    "anthropic": _Dialect("/messages", _anthropic_body, _anthropic_answer),
}


# -- HTTP -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Post:
    """One request, ready to send."""

    url: str
    headers: dict[str, str]
    body: bytes
    secret: str = field(repr=False)

    @property
    def where(self) -> str:
        return urllib.parse.urlsplit(self.url).netloc


@dataclass(frozen=True)
class _Answer:
    """What came back over HTTP, whatever its status."""

    status: int
    headers: Message
    body: bytes


def _prepare(cfg: ModelConfig, dialect: _Dialect, system: str, messages: Messages,
             schema: dict[str, Any], name: str) -> _Post:
    body = json.dumps(dialect.body(cfg, system, messages, schema, name)).encode("utf-8")
    if len(body) > MAX_BYTES:
        raise ModelError(f"the request would be {len(body)} bytes, more than the "
                         f"{MAX_BYTES} allowed; it was not sent and {NOT_ASKED}")
    headers = {"Content-Type": "application/json", "Accept": "application/json",
               "User-Agent": "tabsteward", **auth_headers(PROVIDERS[cfg.provider], cfg.secret)}
    return _Post(cfg.base_url + dialect.path, headers, body, cfg.secret)


def _send(post: _Post, timeout: float) -> _Answer:
    """POST once (in a worker thread); ModelError when no HTTP answer came back."""
    request = urllib.request.Request(post.url, data=post.body, headers=post.headers,
                                     method="POST")
    try:
        with opener().open(request, timeout=timeout) as response:
            return _Answer(response.status, response.headers, _read_body(response, post))
    except urllib.error.HTTPError as exc:
        return _Answer(exc.code, exc.headers, _read_error(exc))
    except urllib.error.URLError as exc:
        raise _unreachable(exc.reason, post, timeout) from None
    except (OSError, http.client.HTTPException) as exc:
        raise _unreachable(exc, post, timeout) from None


def _read_body(response: http.client.HTTPResponse, post: _Post) -> bytes:
    raw = response.read(MAX_BYTES + 1)
    if len(raw) > MAX_BYTES:
        raise ModelError(f"the answer of {post.url} is larger than {MAX_BYTES} bytes; it was "
                         f"not read and {NO_ANSWER}")
    return raw


def _read_error(exc: urllib.error.HTTPError) -> bytes:
    try:
        return exc.read(_ERROR_READ)
    except (OSError, http.client.HTTPException):
        return b""
    finally:
        exc.close()


def _unreachable(reason: object, post: _Post, timeout: float) -> ModelError:
    if isinstance(reason, TimeoutError):
        return ModelError(f"{post.where} did not answer within {timeout:g} s; {NO_ANSWER}",
                          retryable=True)
    if isinstance(reason, ConnectionRefusedError):
        return ModelError(f"nothing answers at {post.where} (connection refused); "
                          f"{NOT_ASKED}. Is the base URL right and the server running?")
    said = redact(str(reason), post.secret) or type(reason).__name__
    return ModelError(f"{post.where} could not be reached ({said}); {NO_ANSWER}",
                      retryable=True)


def _failed(answer: _Answer, post: _Post, retries: int) -> ModelError:
    """The error for an HTTP answer that is not a success (2xx)."""
    said = _server_text(answer.body, post.secret)
    code = answer.status
    if 300 <= code < 400:
        to = redact(answer.headers.get("Location", "?"), post.secret)
        return ModelError(f"{post.url} redirects to {to}; the request was not sent there (it "
                          f"would carry the key) and {NO_ANSWER}. Give the final URL as the "
                          "base URL", status=code)
    if code in (401, 403):
        return ModelError(f"the model service refused the API key (HTTP {code}: {said}); "
                          f"{NO_ANSWER}. Check or replace the key in the tray app's Keys "
                          "window", status=code)
    if code in BUSY:
        return ModelError(f"the model service at {post.where} was still busy (HTTP {code}: "
                          f"{said}) after {retries} retries; {NO_ANSWER}. Try again later",
                          retryable=True, status=code)
    return ModelError(f"the model service at {post.where} answered HTTP {code} ({said}); "
                      f"{NO_ANSWER}", retryable=code >= 500, status=code)


def _server_text(raw: bytes, secret: str) -> str:
    """The message in an error answer ({"error": {"message": …}} when so), for quoting."""
    text = raw.decode("utf-8", "replace")
    try:
        body = json.loads(text)
    except ValueError:
        body = None
    error = body.get("error") if isinstance(body, dict) else None
    if isinstance(error, dict) and isinstance(error.get("message"), str):
        text = error["message"]
    return redact(text, secret) or "no text"


def _json_body(answer: _Answer, post: _Post) -> dict[str, Any]:
    try:
        body = json.loads(answer.body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        body = None
    if not isinstance(body, dict):
        shown = redact(answer.body[:1000].decode("utf-8", "replace"), post.secret)
        raise ModelError(f"the answer of {post.url} is not a JSON object ({shown!r}); "
                         f"{NO_ANSWER}. Is the base URL right?")
    return body


# -- asking ---------------------------------------------------------------------------------


def backoff(retry: int, retry_after: str | None) -> float:
    """Seconds to wait before retry number `retry` (0-based): the server's Retry-After in
    seconds up to MAX_RETRY_AFTER, else 1, 2, 4, 8 s."""
    try:
        asked = float(retry_after) if retry_after is not None else math.nan
    except ValueError:
        asked = math.nan  # an HTTP date, or nonsense: the schedule decides
    if math.isfinite(asked):
        return min(max(asked, 0.0), MAX_RETRY_AFTER)
    return BACKOFF[min(retry, len(BACKOFF) - 1)]


async def _post_with_retries(post: _Post, timeout: float, max_retries: int,
                             sleep: Callable[[float], Awaitable[object]]
                             ) -> tuple[_Answer, int]:
    """The first answer that is not "busy" (or the last one), and how many retries it took."""
    retries = 0
    while True:
        answer = await asyncio.to_thread(_send, post, timeout)
        if answer.status not in BUSY or retries >= max_retries:
            return answer, retries
        delay = backoff(retries, answer.headers.get("Retry-After"))
        log.info("model service busy (HTTP %d); retry %d in %.1f s", answer.status,
                 retries + 1, delay)
        await sleep(delay)
        retries += 1


async def complete(cfg: ModelConfig, system: str, messages: Messages, schema: dict[str, Any],
                   name: str, *, timeout: float = 60.0, max_retries: int = 4,
                   sleep: Callable[[float], Awaitable[object]] = asyncio.sleep) -> Reply:
    """Ask the model once for a JSON object following `schema` (named `name`): the Reply, or
    ModelOutputError when it answered something else, or ModelError when it could not."""
    dialect = DIALECTS[PROVIDERS[cfg.provider].auth]
    post = _prepare(cfg, dialect, system, messages, schema, name)
    started = time.monotonic()
    answer, retries = await _post_with_retries(post, timeout, max_retries, sleep)
    seconds = time.monotonic() - started
    log.info("model request: %d bytes sent, %d bytes received, HTTP %d, %.2f s, %d retries",
             len(post.body), len(answer.body), answer.status, seconds, retries)
    if not 200 <= answer.status < 300:
        raise _failed(answer, post, retries)
    data, input_tokens, output_tokens = dialect.answer(_json_body(answer, post), name,
                                                       cfg.secret)
    return Reply(data, input_tokens, output_tokens, len(post.body), len(answer.body),
                 seconds, retries, cost(cfg.model, input_tokens, output_tokens))
