"""Reading a tab through the extension without its debugger (no "is debugging" bar).

The CDP methods the engine reads a page with are done with chrome.scripting and
chrome.webNavigation instead (extension/reader.js), in the extension's isolated world of
each frame, while no debugger is attached and, for a world first reached this way, while
one is: the world the debugger evaluates in too (ext_worlds.py), so element ids and refs
are the same either way. What cannot be done this
way (input, screenshots, dialogs, navigation, any other script) is not handled here: the
connection attaches the debugger for it.

Frames keep the ids the debugger gave them where the connection learned them (by the
document token both worlds share); a frame first seen without the debugger gets
`<main frame id>:<extension frame id>`. Execution contexts are negative numbers, each one
document of one frame.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from ..errors import CDPError, TabError
from .connection import BARE_WORLD
from .extension_link import ExtensionCallError

GONE = "Cannot find context with specified id"
_TS_CALL = re.compile(r"__ts\.(\w+)\((.*)\)", re.S)
_JSON_CALL = re.compile(r"JSON\.stringify\(__ts\.(\w+)\((.*)\)\)", re.S)
_INCLUDES = re.compile(r"__ts\.pageText\(\)\.includes\((.*)\)", re.S)
_KEY = re.compile(r"([{,])([A-Za-z_]\w*):")
_OWNER = "function(){return __ts.idOf(this)}"
_FIXED: dict[str, tuple[str, list[Any]]] = {
    "document.readyState": ("readyState", []), "document.hasFocus()": ("hasFocus", [])}


def _args(text: str) -> list[Any] | None:
    """A call's arguments as the engine writes them: JSON values, or one object literal
    with bare keys and single-quoted strings (the snapshot's options)."""
    text = text.strip()
    if text.startswith("{") and '"' not in text:
        text = _KEY.sub(r'\1"\2":', text).replace("'", '"')
    try:
        got = json.loads(f"[{text}]")
    except ValueError:
        return None
    return got if isinstance(got, list) else None


def translate(expression: str) -> tuple[str, list[Any]] | None:
    """The page-helper read an expression of the engine's asks for, as (read, arguments)
    for extension/reader.js; None for anything else (it needs the debugger)."""
    expression = expression.strip()
    if expression in _FIXED:
        return _FIXED[expression]
    if m := _INCLUDES.fullmatch(expression):
        args = _args(m[1])
        return ("includes", args) if args is not None and len(args) == 1 else None
    for pattern, read in ((_JSON_CALL, "json"), (_TS_CALL, "call")):
        if m := pattern.fullmatch(expression):
            args = _args(m[2])
            return (read, [m[1], args]) if args is not None else None
    return None


def nav_events(main: str, kind: str, url: str, document: str = ""
               ) -> list[tuple[str, dict[str, Any]]]:
    """The Page events the debugger would give for one of the extension's `nav.event`s of
    the main frame `main`; the document's id stands for the debugger's loader id."""
    loader = {"loaderId": document} if document else {}
    by_kind: dict[str, list[tuple[str, dict[str, Any]]]] = {
        "started": [("Page.frameStartedLoading", {"frameId": main})],
        "committed": [("Page.frameNavigated", {"frame": {"id": main, "url": url}})],
        "interactive": [("Page.lifecycleEvent", {"frameId": main, "name": "DOMContentLoaded",
                                                 **loader})],
        "loaded": [("Page.lifecycleEvent", {"frameId": main, "name": "load", **loader}),
                   ("Page.frameStoppedLoading", {"frameId": main})],
        "failed": [("Page.frameStoppedLoading", {"frameId": main})],
        "inPlace": [("Page.navigatedWithinDocument", {"frameId": main, "url": url})],
    }
    return by_kind.get(kind, [])


@dataclass
class _Context:
    tab_id: int
    frame: int  # the extension's frame id
    document: str


@dataclass
class ReaderTab:
    """What the reader knows of one tab: its main frame's id, and the debugger's frame
    ids by the extension's frame ids."""

    tab_id: int
    main: str
    frame_ids: dict[int, str] = field(default_factory=dict)

    def frame_id(self, ext: int) -> str:
        if ext == 0:
            return self.main
        return self.frame_ids.get(ext) or f"{self.main}:{ext}"

    def ext_id(self, frame_id: str) -> int | None:
        if frame_id == self.main:
            return 0
        for ext, known in self.frame_ids.items():
            if known == frame_id:
                return ext
        head, _, tail = frame_id.rpartition(":")
        return int(tail) if head == self.main and tail.isdigit() else None


class Reader:
    """The CDP methods of the page helper's calls (reads, and the focus a field takes
    before text is sent to it), done without a debugger."""

    METHODS = frozenset({"Page.getFrameTree", "Page.createIsolatedWorld", "Runtime.evaluate",
                         "DOM.getFrameOwner", "DOM.resolveNode", "Runtime.callFunctionOn"})

    def __init__(self, call: Callable[..., Awaitable[Any]]) -> None:
        self._call = call
        self._ids = itertools.count(1)
        self._contexts: dict[int, _Context] = {}

    def can(self, method: str, params: dict[str, Any]) -> bool:
        """Whether the method can be done without a debugger."""
        if method not in self.METHODS:
            return False
        if method == "Runtime.evaluate":  # values only: a remote object needs the debugger
            read = translate(str(params.get("expression", "")))
            return bool(params.get("returnByValue")) and not params.get("awaitPromise") and \
                read is not None and not self._aims_in_frame(read, params)
        if method == "Runtime.callFunctionOn":
            return params.get("functionDeclaration") == _OWNER and \
                str(params.get("objectId", "")).startswith("tsowner:")
        if method == "DOM.resolveNode":
            return int(params.get("backendNodeId", 0)) < 0
        if method == "Page.createIsolatedWorld":  # the reader's world holds the helper
            return params.get("worldName") != BARE_WORLD
        return True

    def _aims_in_frame(self, read: tuple[str, list[Any]], params: dict[str, Any]) -> bool:
        """Whether the read places an element of a frame for input (page_info.js `live`):
        the debugger that sends the input does that, as it names the frame the input reaches
        (a frame of another process has a session of its own)."""
        if read[0] != "call" or read[1][0] != "live":
            return False
        args = read[1][1]
        ctx = self._contexts.get(int(params.get("contextId", 0)))
        return len(args) > 1 and args[1] in ("aim", "point") and (ctx is None or ctx.frame != 0)

    def frame_of(self, context: int) -> int | None:
        """The extension's frame id of one of our execution contexts."""
        ctx = self._contexts.get(context)
        return None if ctx is None else ctx.frame

    async def send(self, tab: ReaderTab, method: str, params: dict[str, Any]) -> dict[str, Any]:
        try:
            return await self._send(tab, method, params)
        except ExtensionCallError as exc:
            if "No tab with" in exc.message:
                raise TabError(f"the tab was closed in the browser; {method} was not done"
                               ) from None
            if "No document" in exc.message or "No frame" in exc.message or \
                    "removed" in exc.message:
                raise CDPError(method, GONE) from None
            raise exc.as_error(f"{method} was not done") from None

    async def _send(self, tab: ReaderTab, method: str, params: dict[str, Any]
                    ) -> dict[str, Any]:
        if method == "Page.getFrameTree":
            return {"frameTree": self._tree(tab, await self._frames(tab))}
        if method == "Page.createIsolatedWorld":
            return await self._world(tab, str(params.get("frameId")))
        if method == "Runtime.evaluate":
            return await self._evaluate(params)
        if method == "DOM.getFrameOwner":
            ext = tab.ext_id(str(params.get("frameId")))
            if ext is None or ext == 0:
                raise CDPError(method, "Frame with the given id does not have an owner")
            return {"backendNodeId": -1 - ext}
        if method == "DOM.resolveNode":
            owner = -1 - int(params["backendNodeId"])
            return {"object": {"objectId":
                               f"tsowner:{owner}:{params.get('executionContextId')}"}}
        _, child, ctx = str(params["objectId"]).split(":")
        return {"result": {"value": await self._owner(tab, int(child), int(ctx))}}

    async def _frames(self, tab: ReaderTab) -> list[dict[str, Any]]:
        got = await self._call("reader.frames", tab.tab_id)
        return [f for f in got if isinstance(f, dict)] if isinstance(got, list) else []

    @staticmethod
    def _tree(tab: ReaderTab, frames: list[dict[str, Any]]) -> dict[str, Any]:
        nodes: dict[int, dict[str, Any]] = {
            int(f["frameId"]): {"frame": {"id": tab.frame_id(int(f["frameId"])),
                                          "url": str(f.get("url", ""))}} for f in frames}
        root = nodes.get(0, {"frame": {"id": tab.main, "url": ""}})
        for f in frames:
            ext, parent = int(f["frameId"]), int(f.get("parentFrameId", -1))
            if ext == 0 or parent not in nodes:
                continue
            nodes[ext]["frame"]["parentId"] = nodes[parent]["frame"]["id"]
            nodes[parent].setdefault("childFrames", []).append(nodes[ext])
        return root

    async def _document(self, tab: ReaderTab, ext: int) -> str:
        for f in await self._frames(tab):
            if int(f["frameId"]) == ext and f.get("documentId"):
                return str(f["documentId"])
        raise CDPError("Page.createIsolatedWorld", "No frame for given id found")

    async def _run(self, ctx: _Context, read: str, args: list[Any]) -> dict[str, Any]:
        got = await self._call("reader.run", ctx.tab_id, ctx.document, read, args)
        if not isinstance(got, dict) or ("value" not in got and "thrown" not in got):
            raise CDPError("Runtime.evaluate", GONE)
        return got

    async def _world(self, tab: ReaderTab, frame_id: str) -> dict[str, Any]:
        ext = tab.ext_id(frame_id)
        if ext is None:
            raise CDPError("Page.createIsolatedWorld", "No frame for given id found")
        ctx = _Context(tab.tab_id, ext, "")
        got: dict[str, Any] = {}
        if ext == 0:  # the main frame's document, whichever it is: its answer names it
            got = await self._run(ctx, "readyState", [])
            ctx.document = str(got.get("documentId") or "")
        if not ctx.document:  # a frame's (or an extension that does not say which)
            ctx.document = await self._document(tab, ext)
            got = await self._run(ctx, "readyState", [])
        number = -next(self._ids)
        self._contexts[number] = ctx
        return {"executionContextId": number, "tabstewardDoc": got.get("doc"),
                "tabstewardReady": True}

    def sequenced(self, params: dict[str, Any]) -> dict[str, Any] | None:
        """A Runtime.evaluate of one of our contexts as the extension's debugger.sequence
        reads it ({documentId, name, args}; background.js), or None when it cannot."""
        ctx = self._contexts.get(int(params.get("contextId", 0)))
        read = translate(str(params.get("expression", "")))
        if ctx is None or read is None or not self.can("Runtime.evaluate", params):
            return None
        return {"documentId": ctx.document, "name": read[0], "args": read[1]}

    @staticmethod
    def answered(got: Any) -> dict[str, Any]:
        """A read's answer as the debugger gives Runtime.evaluate's (CDPError when its
        document went)."""
        if not isinstance(got, dict) or ("value" not in got and "thrown" not in got):
            raise CDPError("Runtime.evaluate", GONE)
        if "thrown" in got:  # the page helper threw: as the debugger reports it
            text = str(got["thrown"])
            return {"result": {"type": "object"},
                    "exceptionDetails": {"text": text, "exception": {"description": text}}}
        return {"result": {"type": "object", "value": got["value"]}}

    async def _evaluate(self, params: dict[str, Any]) -> dict[str, Any]:
        ctx = self._contexts.get(int(params.get("contextId", 0)))
        read = translate(str(params.get("expression", "")))
        if ctx is None or read is None:
            raise CDPError("Runtime.evaluate", GONE)
        return self.answered(await self._call("reader.run", ctx.tab_id, ctx.document, *read))

    async def _owner(self, tab: ReaderTab, ext: int, parent_ctx: int) -> int:
        parent = self._contexts.get(parent_ctx)
        if parent is None:
            raise CDPError("Runtime.callFunctionOn", GONE)
        child = _Context(tab.tab_id, ext, await self._document(tab, ext))
        index = (await self._run(child, "frameIndex", []))["value"]
        if not isinstance(index, int) or index < 0:
            raise CDPError("Runtime.callFunctionOn", "the frame's owner was not found")
        return int((await self._run(parent, "ownerOf", [index]))["value"] or 0)
