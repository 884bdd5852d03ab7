"""File actions: upload into inputs or choosers, screenshots, and downloads."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import os
import time
from collections.abc import Awaitable, Callable
from typing import Any

from ..errors import (
    ActionTimeout,
    BrowserError,
    CDPError,
    TabError,
    TargetNotInteractable,
    UsageError,
)
from . import outputs, replies
from .acting import Outcome, describe, guarded
from .aiming import Ask, aim_and_ask
from .drawing import draws_itself
from .model import Handle
from .outputs import Output
from .pointer import REPLY_WAIT, click, shielded
from .reporting import replied, report_replied
from .shield import Shield
from .tab import Tab
from .targets import RefTarget, Target

# what Chrome answers a debugger it does not let hand files to a page
REFUSED = "Not allowed"
UPLOAD_REFUSED = ("Chrome refused to hand the files to the page (DOM.setFileInputFiles: Not "
                  "allowed); nothing was uploaded. Through the Tabsteward extension, switch "
                  "on \"Allow access to file URLs\" in chrome://extensions, Tabsteward, "
                  "Details, then try again")
COPY = 1  # the drag operation a file dropped from a folder offers
HIDDEN_TRIES = 4
HIDDEN_WAIT = 4.0


class _NoChooser(TargetNotInteractable):
    """A click meant to open a file chooser opened none."""


async def upload(tab: Tab, target: Target, given: list[str]) -> Outcome:
    # what is asked about, classified and sent is the real file, whatever a link is named
    files = [outputs.real_file(f) for f in given]
    handle = await tab.resolve(target)
    info = await tab.info(handle)
    what = describe(handle, info)
    done = {"files": [os.path.basename(f) for f in files]}
    if info.get("tag") == "input" and info.get("type") == "file":
        await tab.permit("upload", info, files=tuple(files))
        obj = await tab.object_id(handle)
        session = handle.frame.session
        out = Outcome(f"set {len(files)} file(s) on {what}", data=done)
        try:
            await guarded(tab, tab.send("DOM.setFileInputFiles", {
                "files": files, "objectId": obj}, session=session), "upload", out)
        except CDPError as exc:
            if exc.cdp_message != REFUSED:
                raise
            # Chrome gives some extensions' debuggers files only as the answer to a file
            # chooser it opened: open the input's own (policy allowed the upload above)
            await _choose(tab, what, files, lambda: tab.send("Runtime.callFunctionOn", {
                "objectId": obj, "functionDeclaration": "function () { this.click(); }",
                "userGesture": True}, session=session), out)
        return await _replied(tab, handle, out)
    ask = Ask("upload", {"files": tuple(files)})
    drops = await tab.evaluate(handle.frame, f"__ts.takesDrops({handle.local})") or {}
    dropped = Outcome(f"dropped {len(files)} file(s) on {what}", data=done)
    if drops.get("here") and not drops.get("everywhere"):
        # a drop zone: the files are dropped on it, as a person drags them from a folder
        await _drop(tab, handle, info, what, files, ask, dropped)
        return await _replied(tab, handle, dropped)
    # a button that opens the file chooser: catch the chooser and fill it; the click is put
    # to policy as an upload through what it really activates. On a page that takes drops
    # everywhere, a zone that opens no chooser gets the files dropped instead
    chosen = Outcome(f"chose {len(files)} file(s) through {what}", data=done)
    try:
        await _choose(tab, what, files, lambda: click(tab, RefTarget(handle.ref), ask=ask),
                      chosen)
    except _NoChooser:
        if not drops.get("here"):
            raise
        await _drop(tab, handle, info, what, files, ask, dropped)
        return await _replied(tab, handle, dropped)
    return await _replied(tab, handle, chosen)


async def _replied(tab: Tab, handle: Handle, out: Outcome) -> Outcome:
    """`out`, saying what the page said to the files it was given (its status line, a
    field it found wrong), once the timers it armed for them ran (REPLY_WAIT)."""
    with contextlib.suppress(BrowserError, TabError, UsageError):
        await replies.came(tab, handle.frame.id, cap=REPLY_WAIT, data=False)
        report_replied(tab, handle.frame, await replied(tab, handle.frame), out)
    return out


async def _drop(tab: Tab, handle: Handle, info: dict[str, Any], what: str, files: list[str],
                ask: Ask, out: Outcome) -> None:
    """Drop files on an element as a person drags them there from a folder: over it, then
    let go; put to policy as an upload through what a click there would reach."""
    aim = await aim_and_ask(tab, handle, what, info, ask)
    session, x, y = await tab.route(handle, aim.x, aim.y)
    data = {"items": [], "files": files, "dragOperationsMask": COPY}

    async def drag(kind: str) -> None:
        await tab.send("Input.dispatchDragEvent", {"type": kind, "x": x, "y": y,
                                                   "data": data}, session=session)

    async def let_go(up: Shield) -> None:
        await up.up()
        for kind in ("dragEnter", "dragOver"):
            await drag(kind)
        await guarded(tab, drag("drop"), "upload", out)

    try:
        await shielded(tab, session, what, "drop", let_go)
    except CDPError as exc:
        if exc.cdp_message != REFUSED:
            raise
        raise BrowserError(UPLOAD_REFUSED) from None


async def _choose(tab: Tab, what: str, files: list[str],
                  opener: Callable[[], Awaitable[object]], out: Outcome) -> None:
    """Open a file chooser with `opener`, catch it before the person sees it, and fill it.
    (Every agent session catches choosers from its start: tab.init_session; this asks again
    in case that failed, and leaves it on.)"""
    await tab.send("Page.setInterceptFileChooserDialog", {"enabled": True})
    chooser = tab.expect(lambda m, p, s: m == "Page.fileChooserOpened")
    try:
        await opener()
        try:
            async with asyncio.timeout(5):
                _, params = await chooser
        except TimeoutError:
            raise _NoChooser(f"clicking {what} opened no file chooser; nothing was "
                            "uploaded") from None
        try:
            await guarded(tab, tab.send("DOM.setFileInputFiles", {
                "files": files, "backendNodeId": params["backendNodeId"]}), "upload", out)
        except CDPError as exc:
            if exc.cdp_message != REFUSED:
                raise
            raise BrowserError(UPLOAD_REFUSED) from None
    finally:
        chooser.cancel()  # when the click was refused, nobody waits for it


def _own_files(tab: Tab) -> tuple[str, ...]:
    """Files of the hub's that no agent may write besides its folders (the policy file)."""
    return tuple(getattr(getattr(tab.browser, "gate", None), "own_files", ()))


async def screenshot(tab: Tab, dest: Output, full: bool = False,
                     target: Target | None = None) -> Outcome:
    tab.check_no_dialog()
    if dest.into:
        dest = outputs.named(dest, time.strftime("screenshot-%Y%m%d-%H%M%S.png"))
    facts = outputs.prepare(dest, _own_files(tab))
    await tab.permit("save", files=(dest.path,), extra={**facts, "what": "a screenshot"})
    path = dest.path
    params: dict[str, Any] = {"format": "jpeg" if path.lower().endswith((".jpg", ".jpeg"))
                              else "png"}
    if target is not None:
        handle = await tab.resolve(target)
        await tab.scroll_into_view(handle, f"@{handle.ref}")
        rect = await tab.page_rect(handle)  # in the page, wherever its frame sits
        if not rect or rect[2] <= 0 or rect[3] <= 0:
            raise TargetNotInteractable(f"@{handle.ref} is not visible; no screenshot taken")
        metrics = await tab.send("Page.getLayoutMetrics")
        vp = metrics.get("cssVisualViewport", {})
        params["clip"] = {"x": rect[0] + vp.get("pageX", 0), "y": rect[1] + vp.get("pageY", 0),
                          "width": max(1, rect[2]), "height": max(1, rect[3]), "scale": 1}
        params["captureBeyondViewport"] = True
    elif full:
        metrics = await tab.send("Page.getLayoutMetrics")
        size = metrics.get("cssContentSize") or metrics.get("contentSize") or {}
        params["clip"] = {"x": 0, "y": 0, "width": size["width"], "height": size["height"],
                          "scale": 1}
        params["captureBeyondViewport"] = True
    res = await _capture(tab, params)
    data = base64.b64decode(res["data"])
    await asyncio.to_thread(outputs.save, dest, lambda fp: fp.write(data))
    return Outcome(f"saved screenshot {path} ({len(data)} bytes)",
                   data={"path": path, "bytes": len(data)})


async def _capture(tab: Tab, params: dict[str, Any]) -> dict[str, Any]:
    """Page.captureScreenshot; in a hidden background tab (the person's browser) a capture
    now and then waits for a frame that never comes until asked again, so ask again."""
    if draws_itself(tab):
        return await tab.send("Page.captureScreenshot", params, timeout=60)
    # the first capture of a hidden tab may return the last frame it drew before it was
    # hidden; it also makes the tab draw again, so the second one is current
    with contextlib.suppress(BrowserError):
        await tab.send("Page.captureScreenshot", {**params, "quality": 1, "format": "jpeg"},
                       timeout=HIDDEN_WAIT)
    for _ in range(HIDDEN_TRIES - 1):
        try:
            return await tab.send("Page.captureScreenshot", params, timeout=HIDDEN_WAIT)
        except BrowserError as exc:
            if "did not answer" not in exc.message and "no answer" not in exc.message:
                raise
    return await tab.send("Page.captureScreenshot", params, timeout=30)


async def download(tab: Tab, target: Target, dest: Output, timeout: float = 60) -> Outcome:
    own = _own_files(tab)
    facts = outputs.prepare(dest, own)
    browser = tab.browser
    await browser.catch_downloads(True)
    browser_expect = browser.expect_download()
    try:
        # put to policy as a download by what the click really activates (a link, a button)
        out = await click(tab, target, ask=Ask("download", {"files": (dest.path,),
                                                             "extra": facts}))
        try:
            async with asyncio.timeout(10):
                entry = await browser_expect
        except TimeoutError:
            raise ActionTimeout("the click started no download within 10 s; the click was "
                                "made, nothing was saved") from None
        if dest.into:
            await browser.wait_download(entry, timeout)  # its name may come late
            dest = outputs.named(dest, str(entry.get("filename") or
                                           os.path.basename(str(entry.get("path") or ""))))
            outputs.check(dest, own)
        size = await browser.finish_download(entry, dest, timeout)
    finally:
        browser_expect.cancel()
        await browser.catch_downloads(False)
    out.changes.append(f"downloaded {entry.get('filename')} to {dest.path} ({size} bytes)")
    out.data["download"] = {"path": dest.path, "bytes": size, "url": entry.get("url")}
    return out




PICTURE_WIDTH = 360  # pixels: the picture of a target beside a question to the person
PICTURE_MARGIN = 48.0  # CSS pixels of the page around the target


async def picture(tab: Tab, box: tuple[float, float, float, float]) -> bytes:
    """A small PNG of the page around a box (page coordinates): what the target looks like
    where it is, for the person deciding whether an agent may act on it."""
    x, y, w, h = box
    width = min(max(w + 2 * PICTURE_MARGIN, 160.0), 960.0)
    height = min(max(h + 2 * PICTURE_MARGIN, 80.0), 480.0)
    left = max(0.0, x + w / 2 - width / 2)
    top = max(0.0, y + h / 2 - height / 2)
    clip = {"x": left, "y": top, "width": width, "height": height,
            "scale": min(1.0, PICTURE_WIDTH / width)}
    res = await _capture(tab, {"format": "png", "clip": clip, "captureBeyondViewport": True})
    return base64.b64decode(res["data"])
