"""Reading what a site keeps in the browser: its cookies and its web storage. Policy rates
both as `read_storage` (blocked by default): they hold sessions and tokens."""

from __future__ import annotations

from typing import Any

from ..errors import UsageError
from .tab import Tab

KINDS = ("local", "session")
COOKIE_FIELDS = ("name", "value", "domain", "path", "expires", "httpOnly", "secure",
                 "sameSite")


async def cookies(tab: Tab, url: str | None = None) -> list[dict[str, Any]]:
    """The cookies the browser would send to `url` (default: the tab's page)."""
    target = url or tab.state.url
    await tab.permit("read_storage", url=target, extra={"what": "cookies"})
    res = await tab.send("Network.getCookies", {"urls": [target]})
    return [{k: c.get(k) for k in COOKIE_FIELDS}
            for c in res.get("cookies", []) if isinstance(c, dict)]


async def web_storage(tab: Tab, kind: str, key: str | None = None) -> dict[str, str]:
    """The page's localStorage or sessionStorage: every entry, or one key's."""
    if kind not in KINDS:
        raise UsageError(f"storage is {' or '.join(KINDS)}, not {kind!r}; nothing was read")
    tab.check_no_dialog()
    await tab.permit("read_storage", extra={"what": f"{kind}Storage"})
    got = await tab.evaluate(tab.frames[tab.target_id],
                             f"(() => {{ const s = {kind}Storage; return Object.fromEntries("
                             "Array.from({length: s.length}, (_, i) => "
                             "[s.key(i), s.getItem(s.key(i))])); })()")
    entries = {str(k): str(v) for k, v in (got or {}).items()}
    if key is None:
        return entries
    if key not in entries:
        raise UsageError(f"{kind}Storage of {tab.state.url} has no key {key!r}; nothing "
                         "more was read")
    return {key: entries[key]}
