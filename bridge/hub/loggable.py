"""What the activity log keeps of a request's arguments: typed text by its length only (keys
pressed too: their characters counted), and addresses by scheme, host and path (never
userinfo, never a query), whatever the string."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ..engine.actions import with_scheme
from ..policy.keystrokes import shown
from ..policy.sites import SPECIAL, parse_url

URL_ARGS = frozenset({"url", "start_url"})  # the arguments that are addresses to load
MAX_PATH = 200  # characters of a path kept; the rest becomes "…"
MAX_OTHER = 120  # characters kept of an address that has no host (data:, javascript:, ...)
_SURROGATE = re.compile("[\ud800-\udfff]")


def loggable(args: Mapping[str, Any]) -> dict[str, Any]:
    """A request's arguments as the activity log keeps them."""
    out: dict[str, Any] = {}
    for key, value in args.items():
        if key == "text":
            out[key] = f"<{len(str(value))} characters>"
        elif key == "keys":
            out[key] = shown(str(value).split())
        elif key in URL_ARGS and isinstance(value, str):
            out[key] = url_for_log(value)
        else:
            out[key] = value
    return out


def url_for_log(url: str) -> str:
    """scheme://host[:port]/path of an address (cut), "?…" when it had a query; an address
    without a host by its scheme and start; never the userinfo, never raises."""
    text = _SURROGATE.sub("\ufffd", url)
    try:
        u = parse_url(with_scheme(text))
    except (ValueError, UnicodeError):  # IDNA refusals and the like
        u = None
    if u is None:
        return f"unreadable address {_cut(_no_userinfo(text), MAX_OTHER)}"
    if u.scheme not in SPECIAL:
        return _cut(_no_userinfo(f"{u.scheme}:{u.path}"), MAX_OTHER)
    port = f":{u.port}" if u.port is not None else ""
    query = "?…" if "?" in text.split("#", 1)[0].rpartition("@")[2] else ""
    return f"{u.scheme}://{u.host_display}{port}{_cut(u.path, MAX_PATH)}{query}"


def _no_userinfo(text: str) -> str:
    return re.sub(r"//[^/?#]*@", "//", text, count=1)


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"
