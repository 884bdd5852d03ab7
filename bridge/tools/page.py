"""Tools that move between pages and read them: open, back, forward, reload, snapshot, text."""

from __future__ import annotations

from typing import Any

from ..engine import actions
from ..engine.acting import LOAD_CAP
from ..engine.snapshot import UNTRUSTED
from ..errors import UsageError
from ..shown import printable
from . import looking
from .common import optional_target, tab_of
from .registry import Call, Param, Result, tool

WAIT = Param("wait", help=f"load (default; waited for up to {LOAD_CAP:g} s once the document "
             "is ready), domcontentloaded, networkidle or none",
             default="load", choices=("load", "domcontentloaded", "networkidle", "none"))


@tool("open", "Open URL in the agent's current tab (a background tab if it has none) and "
      "wait for it to load; with --snapshot or -i, then print the page's snapshot",
      Param("url", required=True, positional=True, help="the address"),
      WAIT, Param("new", "bool", help="open in a new background tab"),
      *looking.LOOK, mutating=True)
async def open_(call: Call, args: dict[str, Any]) -> Result:
    if args.get("new"):
        await call.session.new_tab()
    async with tab_of(call, args) as tab:
        out = await actions.navigate(tab, str(args["url"]), str(args.get("wait") or "load"),
                                     read_after=looking.wanted(args))
        return await looking.reported(tab, out, args, loads=False)


@tool("back", "Go back one page in the tab's history", *looking.LOOK, mutating=True)
async def back(call: Call, args: dict[str, Any]) -> Result:
    async with tab_of(call, args) as tab:
        out = await actions.history(tab, -1, read_after=looking.wanted(args))
        return await looking.reported(tab, out, args, loads=True)


@tool("forward", "Go forward one page in the tab's history", *looking.LOOK, mutating=True)
async def forward(call: Call, args: dict[str, Any]) -> Result:
    async with tab_of(call, args) as tab:
        out = await actions.history(tab, 1, read_after=looking.wanted(args))
        return await looking.reported(tab, out, args, loads=True)


@tool("reload", "Reload the tab's page", *looking.LOOK, mutating=True)
async def reload(call: Call, args: dict[str, Any]) -> Result:
    async with tab_of(call, args) as tab:
        out = await actions.reload(tab, read_after=looking.wanted(args))
        return await looking.reported(tab, out, args, loads=True)


@tool("snapshot", "The page as compact text with @N refs on everything an agent can act on",
      Param("interactive", "bool", short="-i",
            help="only elements with refs, under the rows and items that hold them"),
      Param("viewport", "bool", short="-v",
            help="only what shows: in the viewport, and not cut off by a box around it"),
      Param("scope", help="only the subtree of this @N or locator"),
      Param("max_chars", "int", help="cut the text at this many characters (says what was cut)"),
      Param("delta", "bool", help="only the lines that changed since your last snapshot of "
            "this page (of the same kind, -i or not)"),
      mutating=False)
async def snapshot(call: Call, args: dict[str, Any]) -> Result:
    max_chars = args.get("max_chars")
    if max_chars is not None and int(max_chars) < 200:
        raise UsageError("max_chars must be at least 200; no snapshot taken")
    async with tab_of(call, args) as tab:
        await tab.permit("read")
        shot = await tab.snapshot(interactive=bool(args.get("interactive")),
                                  viewport=bool(args.get("viewport")),
                                  scope=optional_target(args, "scope"),
                                  max_chars=int(max_chars) if max_chars else None,
                                  delta=bool(args.get("delta")))
        return Result(shot.text, {"text": shot.text, "refs": shot.refs})


# what `text` says of an editor that draws only the lines around what it shows
PARTIAL = ("note: these are the lines the editor drew, those around what it shows; it may "
           "hold more: `scroll {target} --dy 600` and read again for them")
HIDDEN = ("note: {target} is not shown on the page now (hidden, as a closed tab's panel): "
          "these are the words it holds, which a person does not see")


@tool("text", "The page's visible text (or --markdown); with a target, all that element "
      "holds, uncut: a field's value or an element's text (what a snapshot line cut short)",
      Param("target", positional=True, help="only this element (@N, loc=, text=, CSS)"),
      Param("markdown", "bool", help="headings, links and lists as Markdown"), mutating=False)
async def text(call: Call, args: dict[str, Any]) -> Result:
    of = optional_target(args)
    if of is not None and args.get("markdown"):
        raise UsageError("--markdown is for the whole page; give it or a target; nothing read")
    async with tab_of(call, args) as tab:
        await tab.permit("read")
        if of is None:
            fmt = "markdown" if args.get("markdown") else "text"
            body = await actions.read(tab, fmt)
            data: dict[str, Any] = {"url": tab.state.url, "format": fmt, "text": body}
        else:
            kind, body = await actions.read_element(tab, of)
            data = {"url": tab.state.url, "format": kind, "target": str(args["target"]),
                    "text": body}
        note = await tab.undrawn_note()
        if of is not None and data["format"] in ("lines", "hidden"):
            said = PARTIAL if data["format"] == "lines" else HIDDEN
            note = "\n".join(filter(None, [note, said.format(target=args["target"])]))
        # the address is the page's word too: below the marker
        out = f"{UNTRUSTED}\nurl: {printable(tab.state.url)}\n" + (f"{note}\n" if note else "") + \
            printable(body, lines=True)
        return Result(out, data)
