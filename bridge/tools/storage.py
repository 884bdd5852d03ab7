"""Tools that read what a site keeps: cookies and web storage (policy: read_storage)."""

from __future__ import annotations

import json
from typing import Any

from ..engine import storage
from .common import tab_of
from .registry import Call, Param, Result, tool

MAX_SHOWN = 300  # characters of one value in the text; --json has them whole


def _cut(value: str) -> str:
    return value if len(value) <= MAX_SHOWN else f"{value[:MAX_SHOWN]}… ({len(value)} chars)"


@tool("cookies", "List the cookies the browser sends to the page (or --url)",
      Param("url", help="whose cookies (default: the tab's page)"), mutating=False)
async def cookies(call: Call, args: dict[str, Any]) -> Result:
    async with tab_of(call, args) as tab:
        rows = await storage.cookies(tab, args.get("url") or None)
        lines = [f"{c['name']}={_cut(str(c['value']))}  ({c['domain']}{c['path']}"
                 f"{'; HttpOnly' if c['httpOnly'] else ''}{'; Secure' if c['secure'] else ''})"
                 for c in rows]
        head = f"{len(rows)} cookie(s) for {args.get('url') or tab.state.url}"
        return Result("\n".join([head, *lines]), {"cookies": rows, "tab": tab.id})


@tool("storage", "Read the page's localStorage or sessionStorage (all keys, or one)",
      Param("kind", required=True, positional=True, help="local or session",
            choices=storage.KINDS),
      Param("key", positional=True, help="only this key"), mutating=False)
async def web_storage(call: Call, args: dict[str, Any]) -> Result:
    kind = str(args["kind"])
    async with tab_of(call, args) as tab:
        entries = await storage.web_storage(tab, kind, args.get("key") or None)
        lines = [f"{k} = {_cut(json.dumps(v, ensure_ascii=False))}" for k, v in
                 entries.items()]
        head = f"{len(entries)} {kind}Storage entries of {tab.state.url}"
        return Result("\n".join([head, *lines]), {kind: entries, "tab": tab.id})
