"""Actions on a tab: input, navigation, forms, waits, files; each reports what changed.

Rule: a mutation is never retried. Reads may be repeated (a fresh helper world, a stale ref
resolved again) only before anything was sent to the page.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import time
from collections.abc import Awaitable, Coroutine
from dataclasses import dataclass, field
from typing import Any

from ..errors import (
    ActionTimeout,
    BrowserError,
    PolicyError,
    RefNotFound,
    TabError,
    TargetError,
    TargetNotInteractable,
    UsageError,
)
from ..policy import keystrokes
from . import keyboard, keys, pasting, sent
from .aiming import CLICK, Ask, aim_and_ask, reaches
from .model import Handle
from .snapshot import left_out, quote, shorten
from .tab import Tab
from .targets import Target

log = logging.getLogger("tabsteward.engine")

BUTTONS = ("left", "right", "middle")
NAV_TIMEOUT = 30.0
NAV_BEGINS = 2.0  # seconds a navigation the action requested may take to begin


@dataclass
class Outcome:
    """What an action did and what it changed, for the agent."""

    did: str
    changes: list[str] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)

    def text(self) -> str:
        return "; ".join([self.did, *self.changes])


def describe(handle: Handle, info: dict[str, Any] | None = None) -> str:
    if info:
        name = str(info.get("name") or "")
        left = max(0, len(name) - 40) + int(info.get("nameLeft") or 0)
        hint = str(info.get("hint") or "")[:40]
        return f"@{handle.ref} ({info.get('role') or info.get('tag')}" + (
            f' "{name[:40]}"{left_out(left)}' if name else
            f" hint={quote(hint)}" if hint else "") + ")"
    return f"@{handle.ref}"


async def guarded(tab: Tab, action: Awaitable[Any], what: str, outcome: Outcome,
                  barrier: bool = True, listen: bool = True) -> None:
    """Run one mutation; if it opens a JavaScript dialog, report it instead of waiting.
    `barrier=False` is for actions the page's renderer answers itself (a script), whose
    reply already comes after the events they caused; `listen=False` for a page load
    (history, reload), whose own requests are not data the agent sent."""
    before_url = tab.state.url
    opened_before = len(tab.opened)
    stopped_before = len(tab.state.stopped)
    try:
        listening = await sent.listen(tab) if listen else []  # what the page posts in reply
    except BaseException:  # refused before it began (say, the debugger may not attach)
        if isinstance(action, Coroutine):
            action.close()
        raise
    tab.start_recording()
    dialog = tab.expect(lambda m, p, s: m == "Page.javascriptDialogOpening")
    task: asyncio.Future[Any] = asyncio.ensure_future(
        _then_barrier(tab, action) if barrier else action)
    try:
        done, _ = await asyncio.wait({task, dialog}, return_when=asyncio.FIRST_COMPLETED)
        if task in done:
            task.result()  # raises what the action raised
        else:  # the page is blocked on the dialog; the action finishes when it is answered
            task.add_done_callback(lambda t: t.exception() if not t.cancelled() else None)
    finally:
        sent.stop_listening(tab, listening)
        dialog.cancel()
        events = tab.stop_recording()
    nav_started = any(
        # frameScheduledNavigation is the one that reliably arrives before the input's reply
        m in ("Page.frameScheduledNavigation", "Page.frameRequestedNavigation",
              "Page.frameStartedLoading", "Page.frameNavigated")
        and p.get("frameId", p.get("frame", {}).get("id")) == tab.target_id for m, p in events)
    if tab.state.dialog is None and nav_started:
        try:
            if _only_requested(tab, events):
                await _navigation_begins(tab)
            await tab.wait_load(NAV_TIMEOUT, "DOMContentLoaded")
        except ActionTimeout:
            outcome.changes.append("navigation still loading")
    said, places = sent.reports(events)
    if said:  # first: the activity log keeps the start of the outcome
        outcome.changes[:0] = said
        outcome.data["sent_to"] = places
    stopped = tab.state.stopped[stopped_before:]
    outcome.changes.extend(stopped)
    if tab.state.url != before_url and not stopped:
        outcome.changes.append(f"navigated to {tab.state.url}")
        outcome.data["url"] = tab.state.url
    deadline = asyncio.get_running_loop().time() + 10
    while tab.adopting:  # tabs the page opened are being attached: report them
        left = deadline - asyncio.get_running_loop().time()
        if left <= 0:
            break
        await asyncio.wait(set(tab.adopting), timeout=left)
    if len(tab.opened) > opened_before:
        new = tab.opened[opened_before:]
        outcome.changes.append("opened new tab " + ", ".join(new))
        outcome.data["new_tabs"] = new
    _report_dialog(tab, outcome)


def _only_requested(tab: Tab, events: list[tuple[str, dict[str, Any]]]) -> bool:
    """Whether the action asked for a navigation of the tab's own page that had not yet begun
    when it finished: the old document still reads as loaded then (through the extension the
    browser's loading events may come after the action's last reply)."""
    asked = any(m in ("Page.frameRequestedNavigation", "Page.frameScheduledNavigation")
                and p.get("frameId") == tab.target_id
                and p.get("disposition", "currentTab") == "currentTab" for m, p in events)
    begun = any(m in ("Page.frameStartedLoading", "Page.frameNavigated",
                      "Page.frameStoppedLoading", "Page.frameClearedScheduledNavigation")
                and p.get("frameId", p.get("frame", {}).get("id")) == tab.target_id
                for m, p in events)
    return asked and not begun and not tab.state.loading


async def _navigation_begins(tab: Tab) -> None:
    """Wait (briefly) until a requested navigation of the page begins, ends or is dropped."""
    begins = tab.expect(lambda m, p, s: (
        m in ("Page.frameStartedLoading", "Page.frameNavigated", "Page.frameStoppedLoading",
              "Page.frameClearedScheduledNavigation")
        and p.get("frameId", p.get("frame", {}).get("id")) == tab.target_id)
        or m == "Page.javascriptDialogOpening")
    try:
        await asyncio.wait_for(begins, NAV_BEGINS)
    except TimeoutError:  # it never began (the page dropped it): report what is there
        log.debug("a requested navigation did not begin within %g s", NAV_BEGINS)
    finally:
        begins.cancel()


async def _then_barrier(tab: Tab, action: Awaitable[Any]) -> None:
    """The action, then a round trip to the page's renderer: input is acknowledged on
    another channel than DevTools events, so without it a navigation the input scheduled
    may be reported only after the action looks finished."""
    await action
    try:
        await tab.send("Page.enable")
    except (BrowserError, TabError) as exc:  # the action closed the tab: it is done anyway
        log.debug("no barrier after the action: %s", exc.message)


def _report_dialog(tab: Tab, outcome: Outcome) -> None:
    if tab.state.dialog is not None:
        d = tab.state.dialog
        outcome.changes.append(f"{d.type} dialog open: {d.message!r} (answer with `dialog "
                               "accept` or `dialog dismiss`)")
        outcome.data["dialog"] = {"type": d.type, "message": d.message}


# -- navigation --
def with_scheme(url: str) -> str:
    """A typed address as a browser's address bar takes it: local hosts over http, the rest
    over https; URLs with a scheme (and about:, data:, file:) as they are."""
    url = url.strip()
    if "://" in url or url.startswith(("about:", "data:", "file:", "javascript:", "blob:")):
        return url
    host = url.split("/", 1)[0].rsplit("@", 1)[-1].split(":", 1)[0].lower()
    local = host in ("localhost", "[::1]") or host.startswith("127.") or host.endswith(".local")
    return ("http://" if local else "https://") + url


async def navigate(tab: Tab, url: str, wait: str = "load",
                   timeout: float = NAV_TIMEOUT) -> Outcome:
    url = with_scheme(url)
    if url.startswith("javascript:"):
        raise PolicyError("javascript: URLs run script; use `eval` where policy allows it. "
                          "Nothing was opened")
    tab.check_no_dialog()
    await tab.permit("navigate", url=url)
    out = Outcome(f"opened {url}")
    # the load of this navigation's document, by its loader (a debugger attaching for the
    # navigation replays the lifecycle of the page it leaves); one without a loader (told
    # by the extension, which answers at commit) only after Page.navigate answered
    answered: list[str] = []
    early: list[str] = []

    def is_load(m: str, p: dict[str, Any], s: str | None) -> bool:
        if m != "Page.lifecycleEvent" or p.get("frameId") != tab.target_id or \
                p.get("name") != _event(wait):
            return False
        if not answered:
            early.append(str(p.get("loaderId", "")))
            return False
        return bool(p.get("loaderId", answered[0]) == answered[0])
    loaded = tab.expect(is_load)
    # a dialog the page opens while loading holds the load back: report it, do not wait
    dialog = tab.expect(lambda m, p, s: m == "Page.javascriptDialogOpening")
    try:
        stopped_before = len(tab.state.stopped)
        going = asyncio.ensure_future(tab.send("Page.navigate", {"url": url}))
        racing: set[asyncio.Future[Any]] = {going, dialog}
        try:
            await asyncio.wait(racing, return_when=asyncio.FIRST_COMPLETED)
        except asyncio.CancelledError:  # the action was stopped: so is its request
            going.cancel()
            raise
        if not going.done():  # the page asks first ("Leave site?"): the agent answers it
            _let_finish(tab, going)
            out.did = f"{url} is not opened yet: the page asks before it lets go"
            out.data["url"] = tab.state.url
            _report_dialog(tab, out)
            return out
        res = going.result()
        answered.append(str(res.get("loaderId", "")))
        if answered[0] and answered[0] in early:  # it loaded before the answer came
            loaded.cancel()
            loaded = asyncio.get_running_loop().create_future()
            loaded.set_result(("Page.lifecycleEvent", {}))
        stopped = tab.state.stopped[stopped_before:]
        if stopped:
            raise PolicyError(f"did not open {url}: {'; '.join(stopped)}. Nothing was loaded "
                              "from there", url=url)
        if res.get("errorText"):
            raise BrowserError(f"could not open {url}: {res['errorText']}")
        if res.get("loaderId") and wait != "none":
            done, _ = await asyncio.wait({loaded, dialog}, timeout=timeout,
                                         return_when=asyncio.FIRST_COMPLETED)
            if not done:
                out.changes.append(f"still loading after {timeout:g} s")
    finally:
        loaded.cancel()
        dialog.cancel()
    tab.state.url = url if tab.state.url == "about:blank" else tab.state.url
    out.data["url"] = tab.state.url
    _report_dialog(tab, out)
    return out


def _let_finish(tab: Tab, request: asyncio.Future[Any]) -> None:
    """Keep a navigation held by the page's leave question as the tab's chore: it goes on
    if the question is accepted, and ends quietly if it is dismissed or the tab closes."""
    async def settle() -> None:
        try:
            await request
        except (BrowserError, TabError) as exc:
            log.debug("a navigation held by a leave question ended: %s", exc.message)
    task = asyncio.get_running_loop().create_task(settle())
    tab.chores.add(task)
    task.add_done_callback(tab.chores.discard)


def _event(wait: str) -> str:
    return {"load": "load", "domcontentloaded": "DOMContentLoaded",
            "networkidle": "networkIdle"}.get(wait.lower(), "load")


async def history(tab: Tab, delta: int) -> Outcome:
    hist = await tab.send("Page.getNavigationHistory")
    index = int(hist["currentIndex"]) + delta
    entries = hist["entries"]
    if not 0 <= index < len(entries):
        raise UsageError(f"no page to go {'back' if delta < 0 else 'forward'} to; "
                         "nothing was done")
    await tab.permit("navigate", url=str(entries[index].get("url", "")))
    out = Outcome("went back" if delta < 0 else "went forward")
    await guarded(tab, tab.send("Page.navigateToHistoryEntry", {"entryId": entries[index]["id"]}),
                  "history", out, listen=False)
    return out


async def reload(tab: Tab) -> Outcome:
    await tab.permit("navigate", url=tab.state.url)
    out = Outcome("reloaded")
    await guarded(tab, tab.send("Page.reload"), "reload", out, listen=False)
    return out


# -- pointer --
def modifier_mask(modifiers: list[str] | None) -> int:
    mask = 0
    for m in modifiers or []:
        canon = {"Ctrl": "Control", "Cmd": "Meta", "Command": "Meta"}.get(m, m)
        if canon not in keys.MODIFIERS:
            raise UsageError(f"unknown modifier {m!r}; use Control, Shift, Alt or Meta")
        mask |= keys.MODIFIERS[canon]
    return mask


async def _mouse(tab: Tab, kind: str, x: float, y: float, session: str | None = None,
                 **extra: Any) -> None:
    await tab.send("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, **extra},
                   session=session)


async def click(tab: Tab, target: Target, button: str = "left", count: int = 1,
                modifiers: list[str] | None = None, *, ask: Ask = CLICK) -> Outcome:
    """Click like a person, once policy allowed what the click really activates; `ask` says
    which action the click is part of (a check, a download, an upload through a button)."""
    if button not in BUTTONS:
        raise UsageError(f"button must be one of {', '.join(BUTTONS)}; nothing was clicked")
    if not 1 <= count <= 3:
        raise UsageError("count must be 1, 2 or 3; nothing was clicked")
    mask = modifier_mask(modifiers)
    handle, info, placed = await tab.resolve_placed(target, aiming=True)
    out, _ = await _click(tab, handle, info, button, count, mask, ask, placed)
    return out


async def _click(tab: Tab, handle: Handle, info: dict[str, Any], button: str, count: int,
                 mask: int, ask: Ask, placed: dict[str, Any] | None = None
                 ) -> tuple[Outcome, dict[str, Any] | None]:
    """The click on a resolved element; its outcome, and the element's info after it (None
    when it was not read: a dialog opened, the page navigated, the element went)."""
    what = describe(handle, info)
    if info.get("disabled"):
        raise TargetNotInteractable(f"{what} is disabled; nothing was clicked")
    aim = await aim_and_ask(tab, handle, what, info, ask, placed)
    session, x, y = await tab.route(handle, aim.x, aim.y)
    verb = {1: "clicked", 2: "double-clicked", 3: "triple-clicked"}[count]
    if button == "right":
        verb = "right-clicked"
    out = Outcome(f"{verb} {what}{reaches(handle, aim)}")

    async def act() -> None:
        # Sent back to back, answered in order: in a hidden background tab the renderer
        # holds a lone mouse move until its next frame (about a second), while a press
        # right behind it makes it handle both at once.
        events = [_mouse(tab, "mouseMoved", x, y, session, modifiers=mask)]
        for n in range(1, count + 1):
            events.append(_mouse(tab, "mousePressed", x, y, session, button=button,
                                 clickCount=n, modifiers=mask))
            events.append(_mouse(tab, "mouseReleased", x, y, session, button=button,
                                 clickCount=n, modifiers=mask))
        await asyncio.gather(*events)

    await guarded(tab, act(), "click", out)
    return out, await _report_state(tab, handle, info, out)


async def _report_state(tab: Tab, handle: Handle, before: dict[str, Any], out: Outcome
                        ) -> dict[str, Any] | None:
    """Say how the element changed (checked, expanded, value), when it still exists; its
    info now (None when not read)."""
    if tab.state.dialog is not None or "url" in out.data:
        return None
    try:
        after = await tab.info(handle)
    except (BrowserError, UsageError, TargetError, TabError):  # gone: nothing to say
        return None
    gone = set(before.get("states", [])) - set(after.get("states", []))
    new = set(after.get("states", [])) - set(before.get("states", []))
    if new or gone:
        out.changes.append("now " + " ".join(sorted(new) or ["not " + s for s in sorted(gone)]))
    if after.get("value") != before.get("value") and after.get("value") is not None:
        out.changes.append(f"value now {after['value']!r}")
        out.data["value"] = after["value"]
    return after


async def hover(tab: Tab, target: Target) -> Outcome:
    handle, info = await tab.resolve_info(target)
    what = describe(handle, info)
    await tab.permit("hover", info)
    x, y = await tab.point(handle, what)
    session, x, y = await tab.route(handle, x, y)
    out = Outcome(f"hovered {what}")
    await guarded(tab, _mouse(tab, "mouseMoved", x, y, session), "hover", out)
    return out


async def focus(tab: Tab, target: Target) -> Outcome:
    handle, info = await tab.resolve_info(target)
    await tab.permit("focus", info)
    obj = await tab.object_id(handle)
    out = Outcome(f"focused {describe(handle, info)}")
    await guarded(tab, tab.send("DOM.focus", {"objectId": obj}, session=handle.frame.session),
                  "focus", out)
    return out


# -- text entry --
_PREPARE = """function(mode) {
  const el = this;
  const tag = el.tagName;
  if (tag === 'INPUT' || tag === 'TEXTAREA') {
    const t = (el.type || '').toLowerCase();
    if (tag === 'INPUT' && ['checkbox','radio','button','submit','reset','image','file',
        'range','color','hidden'].includes(t)) return 'not-text:' + t;
    if (el.readOnly) return 'readonly';
    if (el.disabled) return 'disabled';
    el.focus();
    try {
      if (mode === 'fill') el.select();
      else { const n = el.value.length; el.setSelectionRange(n, n); }
    } catch (e) { /* types without selection (email, number): select() still works */
      if (mode === 'fill') el.select();
    }
    return 'ok';
  }
  if (el.isContentEditable) {
    el.focus();
    const sel = el.ownerDocument.getSelection();
    const range = el.ownerDocument.createRange();
    range.selectNodeContents(el);
    if (mode !== 'fill') range.collapse(false);
    sel.removeAllRanges();
    sel.addRange(range);
    return 'ok';
  }
  return 'not-text:' + tag.toLowerCase();
}"""

_DATE_TYPES = ("date", "time", "datetime-local", "month", "week", "number", "range", "color")

_SET_VALUE = """function(v) {
  const proto = this.tagName === 'TEXTAREA' ? HTMLTextAreaElement.prototype
                                           : HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(proto, 'value').set.call(this, v);
  this.dispatchEvent(new Event('input', {bubbles: true}));
  this.dispatchEvent(new Event('change', {bubbles: true}));
  return this.value;
}"""


async def _call_on(tab: Tab, handle: Handle, fn: str, *args: Any) -> Any:
    obj = await tab.object_id(handle)
    res = await tab.send("Runtime.callFunctionOn", {
        "functionDeclaration": fn, "objectId": obj, "returnByValue": True,
        "arguments": [{"value": a} for a in args]}, session=handle.frame.session)
    if "exceptionDetails" in res:
        raise BrowserError("the page refused the operation: " + shorten(str(
            res["exceptionDetails"].get("exception", {}).get("description", "")), 200))
    return res.get("result", {}).get("value")


async def enter_text(tab: Tab, target: Target, text: str, mode: str) -> Outcome:
    """fill (replace) or type (append) into an input, textarea or contenteditable."""
    if len(text) > 100_000:
        raise UsageError("text is over 100,000 characters; nothing was typed")
    # a person types only into a field they can see and reach: scroll to it, hit-test it
    handle, info, placed = await tab.resolve_placed(target, aiming=False)
    what = describe(handle, info)
    tab.check_no_dialog()
    await tab.permit(mode, info, text=text)
    await tab.point(handle, what, placed)
    verb = "filled" if mode == "fill" else "typed into"
    out = Outcome(f"{verb} {what}")
    if info.get("tag") == "input" and (info.get("type") or "") in _DATE_TYPES and mode == "fill":
        # these have no text caret: set the value the way a picker would
        value = await _call_on(tab, handle, _SET_VALUE, text)
        out.changes.append(f"value now {value!r}")
        out.data["value"] = value
        return out
    # in the helper's world, as _call_on would, in one round trip instead of two
    state = await tab.evaluate(handle.frame, f"(e => e ? ({_PREPARE}).call(e, "
                               f"{json.dumps(mode)}) : 'gone')(__ts.get({handle.local}))")
    if state == "gone":
        raise RefNotFound(f"{what} is no longer in the page; nothing was typed. Take a new "
                          "snapshot")
    if state != "ok":
        if str(state).startswith("not-text"):
            raise TargetNotInteractable(f"{what} does not take text ({str(state)[9:]}); "
                                        "nothing was typed")
        raise TargetNotInteractable(f"{what} is {state}; nothing was typed")

    typed: list[str] = []

    async def act() -> None:
        if mode == "type":
            await keyboard.type_lines(tab, text, typed)
        elif text:
            rich = pasting.wanted(str(info.get("tag") or ""), text)
            if rich is None or not await pasting.paste(tab, handle, text, rich):
                await tab.send("Input.insertText", {"text": text})
        else:
            await keyboard.press_chord(tab, keys.parse_chord("Delete"))

    await keyboard.stopped_after(guarded(tab, act(), mode, out), typed, "typed")
    if tab.state.dialog is None:
        after = await tab.info(handle)
        shown = "(hidden)" if info.get("type") == "password" else after.get("value")
        out.changes.append(f"value now {shown!r}")
        out.data["value"] = shown
    return out


async def press(tab: Tab, spec: str, target: Target | None = None) -> Outcome:
    """Press keys as a person would. Each chord that can activate something (Enter, Space)
    is judged against the element focused when it lands, in whichever frame holds focus;
    the chords between are judged together (see policy/keystrokes.py)."""
    parts = spec.split()
    chords = [keys.parse_chord(part) for part in parts]
    if not chords:
        raise UsageError("no key given; nothing was pressed")
    steps = keystrokes.steps(parts)
    out = Outcome(f"pressed {spec}")
    handle: Handle | None = None
    if target is not None:
        handle = await tab.resolve(target)
        await tab.permit("press", await tab.info(handle), keys=" ".join(steps[0]))
        obj = await tab.object_id(handle)
        await tab.send("DOM.focus", {"objectId": obj}, session=handle.frame.session)
    else:
        await tab.permit("press", await tab.focused_info(), keys=" ".join(steps[0]))
    pressed: list[str] = []
    await keyboard.stopped_after(
        guarded(tab, keyboard.press_steps(tab, steps, handle, pressed), "press", out),
        pressed, "pressed")
    return out


# -- forms --
_SELECT = """function(values) {
  if (this.tagName !== 'SELECT') return {error: 'not-select'};
  if (this.disabled) return {error: 'disabled'};
  const picked = [];
  const missing = [];
  const opts = Array.from(this.options);
  for (const v of values) {
    const o = opts.find(o => o.value === v) ||
              opts.find(o => o.label.trim() === v.trim() || o.text.trim() === v.trim()) ||
              opts.find(o => o.text.trim().toLowerCase() === v.trim().toLowerCase());
    if (o) picked.push(o); else missing.push(v);
  }
  if (missing.length) return {error: 'missing', missing,
                              options: opts.slice(0, 30).map(o => o.text.trim())};
  if (!this.multiple && picked.length > 1) return {error: 'single'};
  for (const o of opts) o.selected = picked.includes(o);
  this.dispatchEvent(new Event('input', {bubbles: true}));
  this.dispatchEvent(new Event('change', {bubbles: true}));
  return {selected: picked.map(o => o.text.trim())};
}"""


async def select(tab: Tab, target: Target, values: list[str]) -> Outcome:
    if not values:
        raise UsageError("give at least one option value or label; nothing was selected")
    handle, info = await tab.resolve_info(target)
    what = describe(handle, info)
    tab.check_no_dialog()
    await tab.permit("select", info)
    await tab.scroll_into_view(handle, what)  # as a person would see it, or refuse a hidden one
    picked: list[Any] = []
    seen = Outcome("")

    async def act() -> None:
        picked.append(await _call_on(tab, handle, _SELECT, values))

    await guarded(tab, act(), "select", seen)
    if not picked:  # the page opened a dialog on the change: it holds the answer back
        return Outcome(f"chose {', '.join(values)} in {what}", seen.changes, seen.data)
    res = picked[0]
    err = res.get("error") if isinstance(res, dict) else "no answer"
    if err == "not-select":
        raise TargetNotInteractable(f"{what} is not a <select>; for a custom list click its "
                                    "option instead. Nothing was selected")
    if err == "missing":
        raise TargetNotInteractable(f"{what} has no option {', '.join(res['missing'])!r}; "
                                    f"options are: {', '.join(res['options'])}. "
                                    "Nothing was selected")
    if err == "single":
        raise UsageError(f"{what} takes one option; nothing was selected")
    if err:
        raise TargetNotInteractable(f"{what} is {err}; nothing was selected")
    out = Outcome(f"selected {', '.join(res['selected'])} in {what}", seen.changes,
                  {**seen.data, "selected": res["selected"]})
    return out


async def check(tab: Tab, target: Target, on: bool) -> Outcome:
    handle, info = await tab.resolve_info(target)
    what = describe(handle, info)
    checked = "checked" in info.get("states", []) or info.get("checked") is True
    word = "checked" if on else "unchecked"
    if checked == on:
        return Outcome(f"{what} was already {word}; nothing was done")
    out, after = await _click(tab, handle, info, "left", 1, 0, Ask("check" if on else "uncheck"))
    if after is None:
        after = await tab.info(handle)
    now = "checked" in after.get("states", []) or after.get("checked") is True
    if now != on:
        raise TargetNotInteractable(f"clicked {what} but it is still "
                                    f"{'checked' if now else 'unchecked'}; the page did not "
                                    "take the change")
    out.did = f"{word} {what}"
    return out


# -- scrolling (drag is in dragging.py) --
async def scroll(tab: Tab, target: Target | None, dx: int, dy: int) -> Outcome:
    if target is None:
        await tab.permit("scroll")
        frame = tab.frames[tab.target_id]
        pos = await tab.evaluate(frame, f"(scrollBy({dx},{dy}), [scrollX, scrollY, "
                                        "document.documentElement.scrollHeight, innerHeight])")
        return Outcome(f"scrolled the page to y={pos[1]} of {pos[2]} (viewport {pos[3]})",
                       data={"x": pos[0], "y": pos[1], "height": pos[2]})
    handle, info = await tab.resolve_info(target)
    await tab.permit("scroll", info)
    if dx == 0 and dy == 0:
        await tab.scroll_into_view(handle, describe(handle, info))
        return Outcome(f"scrolled {describe(handle, info)} into view")
    pos = await _call_on(tab, handle, "function(dx, dy){this.scrollBy(dx, dy); "
                         "return [this.scrollLeft, this.scrollTop, this.scrollHeight];}", dx, dy)
    return Outcome(f"scrolled {describe(handle, info)} to y={pos[1]} of {pos[2]}",
                   data={"x": pos[0], "y": pos[1], "height": pos[2]})


# -- waits --
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
    while True:
        if text is not None:
            said = await tab.in_every_frame(f"__ts.pageText().includes({json.dumps(text)})")
            if any(found is True for _, found in said):
                return Outcome(f"text {text!r} is on the page")
        elif url is not None:
            current = tab.state.url
            if _url_matches(url, current):
                return Outcome(f"url is {current}")
        elif target is not None:
            ok = await _target_state(tab, target, state)
            if ok:
                return Outcome(f"target is {state}")
        else:
            raise UsageError("wait needs one of: text, target, url, load, seconds")
        if time.monotonic() > deadline:
            raise ActionTimeout(f"waited {timeout:g} s; the condition never held")
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


# -- reading, dialogs, eval --
async def read(tab: Tab, fmt: str) -> str:
    """The page's text, then each frame's text under a `[frame URL]` line."""
    tab.check_no_dialog()
    fn = "__ts.markdown()" if fmt == "markdown" else "__ts.pageText()"
    parts: list[str] = []
    for frame, body in await tab.in_every_frame(f"[location.href, {fn}]"):
        if frame.id == tab.target_id:
            parts.insert(0, str(body[1] or ""))
        elif body[1]:
            parts.append(f"[frame {body[0]}]\n{body[1]}")
    return "\n\n".join(parts)


async def read_element(tab: Tab, target: Target) -> tuple[str, str]:
    """All a target element holds, uncut: ("value", a field's value; a password's stays
    masked) or ("text", its rendered text). Only reads: nothing scrolls or takes focus."""
    tab.check_no_dialog()
    live = await tab.on_live_ref(target, lambda n: f"__ts.fullText({n})")
    if live is not None:
        handle, got = live
    else:
        handle = await tab.resolve(target)
        got = await tab.evaluate(handle.frame, f"__ts.fullText({handle.local})")
    if not isinstance(got, dict):
        raise RefNotFound(f"{describe(handle)} is gone from the page; nothing was read")
    return str(got.get("kind") or "text"), str(got.get("text") or "")


async def dialog(tab: Tab, action: str, text: str | None = None) -> Outcome:
    d = tab.state.dialog
    if action == "status":
        if d is None:
            return Outcome("no dialog is open", data={"dialog": None})
        return Outcome(f"{d.type} dialog open: {d.message!r}",
                       data={"dialog": {"type": d.type, "message": d.message,
                                        "default": d.default}})
    if d is None:
        raise UsageError("no dialog is open; nothing was answered")
    await tab.permit("dialog", keys=action, extra={"message": d.message[:200]})
    params: dict[str, Any] = {"accept": action == "accept"}
    if text is not None:
        params["promptText"] = text
    await tab.send("Page.handleJavaScriptDialog", params)
    tab.state.dialog = None
    return Outcome(f"{'accepted' if action == 'accept' else 'dismissed'} the {d.type} "
                   f"dialog {d.message!r}")


async def evaluate(tab: Tab, expression: str) -> Outcome:
    tab.check_no_dialog()
    # an "allow once" allows this script, by its hash, and no other
    digest = hashlib.sha256(expression.encode("utf-8", "surrogatepass")).hexdigest()
    await tab.permit("eval", extra={"sha256": digest})
    out = Outcome("evaluated")
    res: dict[str, Any] = {}

    async def act() -> None:
        res.update(await tab.send("Runtime.evaluate", {
            "expression": expression, "returnByValue": True, "awaitPromise": True,
            "userGesture": True}, timeout=60))

    await guarded(tab, act(), "eval", out, barrier=False)
    if "exceptionDetails" in res:
        desc = res["exceptionDetails"].get("exception", {}).get("description") or \
            res["exceptionDetails"].get("text")
        raise BrowserError(f"the script threw: {shorten(str(desc), 500)}")
    value = res.get("result", {}).get("value")
    out.data["value"] = value
    # the whole value is in the result's data (--json); the text says where it was cut
    out.did = shorten(json.dumps(value, ensure_ascii=False), 5000) if value is not None \
        else "undefined"
    return out
