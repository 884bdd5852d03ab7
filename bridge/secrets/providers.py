"""LLM providers: where each lives, how a key is sent to it, and whether it takes a key
(a request to its models or key endpoint)."""

from __future__ import annotations

import http.client
import json
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from ..errors import TabstewardError, UsageError

MAX_SECRET = 4096
SNIPPET = 200  # characters of a server's text quoted in a message
_MAX_BODY = 8 * 1024 * 1024  # a model list larger than this is not read

AuthStyle = Literal["bearer", "anthropic"]


class ProviderError(TabstewardError):
    """A provider refused a key, or could not be reached to check it."""


class Endpoint(Protocol):
    """What a check reads of a key (apikeys.KeyEntry is one): the dependency points from
    the key store to the providers, never back."""

    @property
    def provider(self) -> str: ...
    @property
    def base_url(self) -> str: ...
    @property
    def model(self) -> str: ...


@dataclass(frozen=True)
class Provider:
    """A kind of LLM API: where it usually lives and how a key is sent to it."""

    id: str
    label: str
    default_base_url: str  # "" when the person must give one
    auth: AuthStyle
    key_path: str = ""  # an endpoint that checks the key itself, where /models is public


PROVIDERS: dict[str, Provider] = {p.id: p for p in (
    Provider("openai", "OpenAI", "https://api.openai.com/v1", "bearer"),
    Provider("anthropic", "Anthropic", "https://api.anthropic.com/v1", "anthropic"),
    Provider("openrouter", "OpenRouter", "https://openrouter.ai/api/v1", "bearer", "/key"),
    Provider("other", "Other (OpenAI-compatible)", "", "bearer"),
)}


def valid_secret(secret: str, outcome: str = "nothing was saved") -> str:
    """The secret without surrounding whitespace; UsageError (never quoting it) otherwise."""
    secret = secret.strip()
    if not secret:
        raise UsageError(f"the key is empty; {outcome}")
    if len(secret) > MAX_SECRET:
        raise UsageError(f"the key is longer than {MAX_SECRET} characters; {outcome}")
    for i, c in enumerate(secret, 1):
        if c.isspace():
            raise UsageError(f"the key has a space or line break inside (character {i}); "
                             f"{outcome}. Paste the key alone")
        if not c.isprintable() or not c.isascii():
            raise UsageError(f"the key has a control or non-ASCII character (character {i}); "
                             f"{outcome}. Paste the key alone")
    return secret


def redact(text: str, secret: str, limit: int = SNIPPET) -> str:
    """Text for a message: the secret replaced by [key], on one line, cut to `limit`."""
    if secret:
        text = text.replace(secret, "[key]")
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """Never follow a redirect: it would carry the key to wherever it points."""

    def redirect_request(self, req: urllib.request.Request, fp: Any, code: int, msg: str,
                         headers: Any, newurl: str) -> None:
        return None


def opener() -> urllib.request.OpenerDirector:
    """A URL opener that never follows a redirect."""
    return urllib.request.build_opener(_NoRedirect())


def auth_headers(provider: Provider, secret: str) -> dict[str, str]:
    """The headers that carry the key to this provider."""
    if provider.auth == "anthropic":
        return {"x-api-key": secret, "anthropic-version": "2023-06-01"}
    return {"Authorization": f"Bearer {secret}"}


def models_url(entry: Endpoint) -> str:
    if PROVIDERS[entry.provider].auth == "anthropic":
        return f"{entry.base_url}/models?limit=1000"  # else only the first page of 20
    return f"{entry.base_url}/models"


def check(entry: Endpoint, secret: str, timeout: float = 10.0) -> str:
    """Ask the provider whether it takes the key: a one-line "ok: …", or ProviderError."""
    secret = valid_secret(secret, "the key was not checked")
    provider = PROVIDERS[entry.provider]
    if provider.key_path:
        _get_json(entry.base_url + provider.key_path, provider, secret, timeout)
    ids = _model_ids(_get_json(models_url(entry), provider, secret, timeout), entry, secret)
    return summary(ids, entry.model)


def summary(ids: list[str], model: str) -> str:
    """The one-line result of a check that listed `ids`."""
    if not ids:
        return "ok: the provider accepted the key but lists no models"
    count = f"{len(ids)} model{'s' if len(ids) != 1 else ''}"
    if not model:
        return f"ok: the provider lists {count}"
    if model in ids:
        return f"ok: the provider lists {count}, including {model}"
    return f"ok: the provider lists {count}, but not {model} (check the model name)"


def _model_ids(body: object, entry: Endpoint, secret: str) -> list[str]:
    data = body.get("data") if isinstance(body, dict) else None
    if not isinstance(data, list):
        shown = redact(json.dumps(body), secret)
        raise ProviderError(f"the answer of {entry.base_url}/models is not a model list "
                            f"({shown}); the key was not checked. Is the base URL right?")
    return [m["id"] for m in data if isinstance(m, dict) and isinstance(m.get("id"), str)]


def _get_json(url: str, provider: Provider, secret: str, timeout: float) -> object:
    headers = {"Accept": "application/json", "User-Agent": "tabsteward",
               **auth_headers(provider, secret)}
    request = urllib.request.Request(url, headers=headers, method="GET")
    where = urllib.parse.urlsplit(url).netloc
    try:
        with opener().open(request, timeout=timeout) as response:
            raw = response.read(_MAX_BODY + 1)
    except urllib.error.HTTPError as exc:
        raise _http_error(exc, url, secret) from None
    except urllib.error.URLError as exc:
        raise _unreachable(exc.reason, where, timeout, secret) from None
    except (OSError, http.client.HTTPException) as exc:
        raise _unreachable(exc, where, timeout, secret) from None
    if len(raw) > _MAX_BODY:
        raise ProviderError(f"the answer of {url} is larger than {_MAX_BODY} bytes; the key "
                            "was not checked")
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        shown = redact(raw[:1000].decode("utf-8", "replace"), secret)
        raise ProviderError(f"the answer of {url} is not JSON ({shown!r}); the key was not "
                            "checked. Is the base URL right?") from None


def _http_error(exc: urllib.error.HTTPError, url: str, secret: str) -> ProviderError:
    try:
        text = exc.read(4000).decode("utf-8", "replace")
    except (OSError, http.client.HTTPException):
        text = ""
    finally:
        exc.close()
    said = redact(text, secret) or redact(str(exc.reason), secret)
    if exc.code in (401, 403):
        return ProviderError(f"the provider refused this key (HTTP {exc.code}: {said}); "
                             "check or replace the key", status=exc.code)
    if 300 <= exc.code < 400:
        to = redact(exc.headers.get("Location", "?"), secret)
        return ProviderError(f"{url} redirects to {to}; the key was not sent there and not "
                             "checked. Give the final URL as the base URL", status=exc.code)
    return ProviderError(f"the provider answered HTTP {exc.code} at {url} ({said}); the key "
                         "was not checked. Is the base URL right?", status=exc.code)


def _unreachable(reason: object, where: str, timeout: float, secret: str) -> ProviderError:
    if isinstance(reason, TimeoutError):
        return ProviderError(f"{where} did not answer within {timeout:g} s; the key was not "
                             "checked")
    if isinstance(reason, ConnectionRefusedError):
        return ProviderError(f"nothing answers at {where} (connection refused); the key was "
                             "not checked. Is the base URL right and the server running?")
    said = redact(str(reason), secret) or type(reason).__name__
    return ProviderError(f"{where} could not be reached ({said}); the key was not checked")
