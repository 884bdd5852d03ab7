"""Tools for tabs, files, waits, dialogs and eval."""

from __future__ import annotations

import re
from typing import Any

from ..engine import actions, files
from ..engine.snapshot import UNTRUSTED
from ..errors import UsageError
from ..shown import printable
from . import looking
from .common import (
    FOLDER_HELP,
    OVERWRITE,
    TARGET,
    optional_target,
    output,
    result,
    tab_of,
    target,
)
from .registry import Call, Param, Result, tool


@tool("tabs", "List the agent's tabs (the current one is marked *)", mutating=False)
async def tabs(call: Call, args: dict[str, Any]) -> Result:
    session = call.session
    live = [t for t in session.tabs if not t.state.closed]
    if live:
        await session.browser.read_titles()
    rows: list[dict[str, Any]] = []
    lines: list[str] = []
    for t in live:
        mark = "*" if t is session.current else " "
        rows.append({"id": t.id, "url": t.state.url, "title": t.state.title,
                     "current": t is session.current, "opener": t.opener})
        lines.append(f"{mark} {t.id} {printable(t.state.title) or '(untitled)'} — "
                     f"{printable(t.state.url)}")
    # titles and addresses are the pages' words: below the marker, like a snapshot's
    text = "\n".join([UNTRUSTED, *lines]) if lines else "no tabs (open one with `open URL`)"
    return Result(text, {"tabs": rows})


@tool("tab-new", "Open a new background tab (never activated) and make it current",
      Param("url", positional=True, help="address to open"), *looking.LOOK, mutating=True)
async def tab_new(call: Call, args: dict[str, Any]) -> Result:
    tab = await call.session.new_tab()
    async with tab.busy:
        if args.get("url"):
            out = await actions.navigate(tab, str(args["url"]),
                                         read_after=looking.wanted(args))
            return await looking.reported(tab, out, args, loads=False)
        return await looking.then_look(tab, Result(f"opened tab {tab.id}", {"tab": tab.id}),
                                       args)


@tool("tab-select", "Make one of the agent's tabs current (it is not activated in the browser)",
      Param("id", required=True, positional=True, help="tab id from `tabs`"), *looking.LOOK,
      mutating=False)
async def tab_select(call: Call, args: dict[str, Any]) -> Result:
    tab = call.session.tab(str(args["id"]))
    call.session.current = tab
    done = Result(f"tab {tab.id} is current ({printable(tab.state.url)})", {"tab": tab.id})
    if not looking.wanted(args):
        return done
    async with tab.busy:
        tab.check_open()
        await tab.browser.to_front(tab)
        return await looking.then_look(tab, done, args)


@tool("tab-close", "Close one of the agent's tabs (default: the current one)",
      Param("id", positional=True, help="tab id from `tabs`"), mutating=True)
async def tab_close(call: Call, args: dict[str, Any]) -> Result:
    session = call.session
    tab = session.tab(str(args["id"])) if args.get("id") else await session.current_tab(False)
    await session.close_tab(tab)
    return Result(f"closed tab {tab.id}", {"closed": tab.id})


@tool("wait", "Wait for text, an element state, a URL, a load state, or a time",
      Param("target", positional=True, help="element to wait for (@N, loc=, text=, CSS)"),
      Param("state", help="for a target: visible (default), hidden, attached, detached, "
            "enabled, disabled, checked, unchecked", default="visible",
            choices=("visible", "hidden", "attached", "detached", "enabled", "disabled",
                     "checked", "unchecked")),
      Param("text", help="wait until this text is on the page"),
      Param("url", help="wait until the URL contains this (or matches this glob)"),
      Param("load", help="load, domcontentloaded or networkidle",
            choices=("load", "domcontentloaded", "networkidle")),
      Param("seconds", "float", help="just wait this long (max 300)"),
      Param("timeout", "float", help="give up after this many seconds (default 30)",
            default=30.0), *looking.LOOK, mutating=False)
async def wait(call: Call, args: dict[str, Any]) -> Result:
    timeout = float(args.get("timeout") or 30)
    if not 0 < timeout <= 600:
        raise UsageError("timeout must be between 0 and 600 s; nothing was waited for")
    async with tab_of(call, args) as tab:
        out = await actions.wait(tab, text=args.get("text"), target=optional_target(args),
                                 state=str(args.get("state") or "visible"), url=args.get("url"),
                                 load=args.get("load"), seconds=args.get("seconds"),
                                 timeout=timeout)
        out.armed = False  # (no input: nothing the page armed in reply to wait for)
        return await looking.reported(tab, out, args, loads=False)


@tool("screenshot", "Save a PNG/JPEG of the viewport, the full page, or one element",
      Param("path", positional=True, help=f"file to write (.png or .jpg); {FOLDER_HELP}"),
      Param("full", "bool", help="the whole page, not just the viewport"),
      Param("target", help="only this element"), OVERWRITE, mutating=False)
async def screenshot(call: Call, args: dict[str, Any]) -> Result:
    given = args.get("path")
    if isinstance(given, str) and re.fullmatch(r"@\d+", given):  # a ref, not a file name
        if args.get("target"):
            raise UsageError(f"{given} is a ref, not a file to write, and --target is given "
                             "too; nothing was saved")
        args = {**args, "target": given, "path": None}
    dest = output(call, args)
    async with tab_of(call, args) as tab:
        out = await files.screenshot(tab, dest, bool(args.get("full")), optional_target(args))
        return result(out, tab)


@tool("upload", "Put files into a file input, onto a drop zone, or into the chooser a "
      "button opens", TARGET,
      Param("files", "list", required=True, positional=True, help="paths of files"),
      *looking.LOOK, mutating=True)
async def upload(call: Call, args: dict[str, Any]) -> Result:
    paths = [call.path(str(f)) for f in args["files"]]
    async with tab_of(call, args) as tab:
        return await looking.reported(tab, await files.upload(tab, target(args), paths), args)


@tool("download", "Click an element that starts a download and save the file", TARGET,
      Param("path", positional=True, help=f"file or folder to save into; {FOLDER_HELP}"),
      OVERWRITE, mutating=True)
async def download(call: Call, args: dict[str, Any]) -> Result:
    dest = output(call, args)
    async with tab_of(call, args) as tab:
        out = await files.download(tab, target(args), dest)
        return result(out, tab)


@tool("dialog", "Answer or look at a JavaScript dialog (alert, confirm, prompt)",
      Param("action", positional=True, help="accept, dismiss or status", default="status",
            choices=("accept", "dismiss", "status")),
      Param("text", help="text to enter into a prompt before accepting"), *looking.LOOK,
      mutating=True)
async def dialog(call: Call, args: dict[str, Any]) -> Result:
    tab = await call.session.current_tab(create=False) if not args.get("tab") else \
        call.session.tab(str(args["tab"]))
    # no tab lock: a dialog blocks the action that holds it until answered
    action = str(args.get("action") or "status")
    out = await actions.dialog(tab, action, args.get("text"))
    if action == "status":
        return await looking.then_look(tab, result(out, tab), args)
    # what the answer lets the page go on with (the delete a confirm held: its request, the
    # row it removes), reported and, with a look, waited for as an action's is
    return await looking.reported(tab, out, args)


@tool("eval", "Run JavaScript in the page and print the JSON result (where the agent's "
      "policy profile allows eval)",
      Param("expression", required=True, positional=True, help="script"),
      mutating=True, group="eval")
async def eval_(call: Call, args: dict[str, Any]) -> Result:
    async with tab_of(call, args) as tab:
        return result(await actions.evaluate(tab, str(args["expression"])), tab)
