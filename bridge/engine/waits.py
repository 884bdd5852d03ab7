"""Waiting for text, an element's state, a URL or a load."""

from __future__ import annotations

import asyncio
import json
import logging
import time

from ..errors import ActionTimeout, RefNotFound, UsageError
from .acting import Outcome, _report_dialog
from .collect import HOOK_SECRET
from .navigation import _event
from .tab import Tab
from .targets import Target

log = logging.getLogger("tabsteward.engine")

URL_REREAD = 10  # polls (of 0.1 s) between reads of the URL from the browser itself
# each poll of a hidden tab first has the page's due timers run (page_hits.js `pump`)
PUMP = json.dumps(HOOK_SECRET)


async def wait(tab: Tab, *, text: str | None = None, target: Target | None = None,
               state: str = "visible", url: str | None = None, load: str | None = None,
               seconds: float | None = None, timeout: float = 30) -> Outcome:
    if seconds is not None:
        if not 0 <= seconds <= 300:
            raise UsageError("time waits are 0 to 300 s")
        await asyncio.sleep(seconds)
        return Outcome(f"waited {seconds:g} s")
    if load is not None:
        await tab.wait_load(timeout, _event(load))
        if tab.state.dialog is not None:
            out = Outcome(f"a dialog holds the page back from {load}")
            _report_dialog(tab, out)
            return out
        return Outcome(f"page reached {load}")
    deadline = time.monotonic() + timeout
    polls = 0
    while True:
        polls += 1
        if text is not None:
            said = await tab.in_every_frame(f"__ts.hasText({json.dumps(text)}, {PUMP})")
            if any(found is True for _, found in said):
                return Outcome(f"text {text!r} is on the page")
        elif url is not None:
            current = tab.state.url
            if not _url_matches(url, current) and polls % URL_REREAD == 0:
                heard, current = current, await tab.read_url()  # in case an event was lost
                if current != heard:
                    log.info("tab %s is at %s, not %s as its events said", tab.id, current,
                             heard)
            if _url_matches(url, current):
                return Outcome(f"url is {current}")
        elif target is not None:
            await tab.in_every_frame(f"__ts.pump({PUMP})")
            ok = await _target_state(tab, target, state)
            if ok:
                return Outcome(f"target is {state}")
        else:
            raise UsageError("wait needs one of: text, target, url, load, seconds")
        if time.monotonic() > deadline:
            note = await tab.undrawn_note() if text is not None or target is not None else None
            raise ActionTimeout(f"waited {timeout:g} s; the condition never held" +
                                (f" ({note.removeprefix('note: ')})" if note else ""))
        await asyncio.sleep(0.1)


def _url_matches(pattern: str, url: str) -> bool:
    from fnmatch import fnmatchcase
    return fnmatchcase(url, pattern) if any(c in pattern for c in "*?[") else pattern in url


async def _target_state(tab: Tab, target: Target, state: str) -> bool:
    try:
        handle = await tab.resolve(target)
    except RefNotFound:
        return state in ("detached", "hidden")
    st = await tab.evaluate(handle.frame, f"__ts.state({handle.local})") or {}
    return {
        "visible": bool(st.get("visible")), "hidden": not st.get("visible"),
        "attached": bool(st.get("attached")), "detached": not st.get("attached"),
        "enabled": bool(st.get("enabled")), "disabled": not st.get("enabled", True),
        "checked": bool(st.get("checked")), "unchecked": not st.get("checked"),
    }.get(state, False)
