"""Helpers for engine tests: open a fixture page, find refs in a snapshot, read the page's
own truth in its main world (what the page's scripts see, not what the engine reports)."""

from __future__ import annotations

import json
import re
import struct
from pathlib import Path
from typing import Any

from tabsteward.bridge.cdp.extension import ExtensionConnection
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.actions import Outcome
from tabsteward.bridge.engine.model import Snapshot
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import Target, parse
from tabsteward.bridge.hub.protocol import check_args
from tabsteward.bridge.tools.registry import Call, Result, table


async def goto(tab: Tab, url: str) -> Outcome:
    out = await actions.navigate(tab, url)
    assert not any("still loading" in c for c in out.changes), out.text()
    return out


def ref(shot: Snapshot, role: str, name: str, nth: int = 0) -> str:
    """The `@N` of the nth element with this role and name in a snapshot."""
    found = [r for r, info in shot.refs.items() if info["role"] == role and info["name"] == name]
    assert len(found) > nth, f"no {role} {name!r} (nth={nth}) in:\n{shot.text}"
    return found[nth]


def target(shot: Snapshot, role: str, name: str, nth: int = 0) -> Target:
    return parse(ref(shot, role, name, nth))


LINE_START = re.compile(r'\s*- ([\w-]+)((?: "(?:[^"\\]|\\.)*")?)(?: \[\+[\d,]+ chars?\])? @\d+'
                        r'.*?( nth=\d+| in "(?:[^"\\]|\\.)*")?$')


def loc_on_line(line: str) -> str:
    """A ref's locator as bridge/SKILL.md tells an agent to read it off its line: what
    follows `loc=`, else the line's role and quoted name as printed ("" when it shows none)
    with the line's `nth=N` or `in "WORDS"`."""
    if " loc=" in line:
        return line.split(" loc=", 1)[1].split(" | ")[0].removesuffix(" [new]")
    m = LINE_START.match(line.removesuffix(" [new]"))
    assert m, f"no role, name and ref at the start of {line!r}"
    return f"{m.group(1)} {m.group(2).strip() or chr(34) * 2}{m.group(3) or ''}"


def line_of(shot: Snapshot, ref_: str) -> str:
    """The snapshot line that carries a ref."""
    lines = [ln for ln in shot.text.splitlines() if ref_ in ln.split()]
    assert len(lines) == 1, f"{ref_} is on {len(lines)} lines of:\n{shot.text}"
    return lines[0]


async def js(tab: Tab, expression: str, session: str | None = None) -> Any:
    """Evaluate in the page's main world (of the main frame, or of an OOPIF's session)."""
    res = await tab.send("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                              "awaitPromise": True}, session=session)
    assert "exceptionDetails" not in res, res["exceptionDetails"]
    return res["result"].get("value")


async def watch_listeners(tab: Tab) -> None:
    """Through the extension a page opens with no debugger, and the hook that watches the
    listeners its scripts add comes as the document commits, which may be after a small
    page's inline script ran (the debugger's comes before any): attach one before opening a
    page whose clickables only an inline script's listeners tell."""
    if tab.browser.kind == "extension":
        await js(tab, "0")


async def listened_snapshot(tab: Tab, url: str) -> Snapshot:
    """The -i snapshot of a page opened with its listeners watched (`watch_listeners`)."""
    await watch_listeners(tab)
    await goto(tab, url)
    return await tab.snapshot(interactive=True)


async def text_of(tab: Tab, selector: str) -> str:
    return str(await js(tab, f"document.querySelector({json.dumps(selector)}).textContent"))


async def value_of(tab: Tab, selector: str) -> str:
    return str(await js(tab, f"document.querySelector({json.dumps(selector)}).value"))


def png_size(path: Path) -> tuple[int, int]:
    """The width and height a PNG file says it has (and that it is a PNG)."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def extension_calls(tab: Tab) -> list[str]:
    """The extension's calls from now on, by name, a debugger command's with its method
    (stays empty on the launched transport, which makes no such calls)."""
    names: list[str] = []
    if isinstance(tab.conn, ExtensionConnection):
        link = tab.conn.link
        call = link.call

        async def counted(name: str, *args: Any, **kwargs: Any) -> Any:
            names.append(name if name != "debugger.sendCommand" else f"{name} {args[1]}")
            return await call(name, *args, **kwargs)
        link.call = counted  # type: ignore[method-assign]
    return names


def without_cast(calls: list[str]) -> list[str]:
    """The calls but a hidden tab's cast after its input (engine/drawing.py, for_input)."""
    return [c for c in calls if not c.endswith(("Page.startScreencast",
                                                "Page.stopScreencast"))]


def browser_calls(tab: Tab) -> list[str]:
    """The calls that reach the browser from now on, over either transport: a DevTools
    command's method, or through the extension its call's name (a debugger command's
    method)."""
    names: list[str] = []
    if isinstance(tab.conn, ExtensionConnection):
        link = tab.conn.link
        call = link.call

        async def relayed(name: str, *args: Any, **kwargs: Any) -> Any:
            names.append(name if name != "debugger.sendCommand" else str(args[1]))
            return await call(name, *args, **kwargs)
        link.call = relayed  # type: ignore[method-assign]
        return names
    command = tab.conn._command

    async def sent(method: str, *args: Any) -> Any:
        names.append(method)
        return await command(method, *args)
    tab.conn._command = sent  # type: ignore[method-assign]
    return names


async def run_tool(tab: Tab, tool: str, **args: Any) -> Result:
    """A tool as the hub runs it for the tab's agent: its arguments checked, then handled."""
    found = table()[tool]
    session = tab.browser.session(tab.agent)
    return await found.handler(Call(session, "/"), check_args(found, args))


def under(shot: Snapshot, head: str) -> list[str]:
    """The lines indented under the first line that starts (after its indent) with head."""
    lines = shot.text.splitlines()
    found = [i for i, ln in enumerate(lines) if ln.lstrip().startswith(head)]
    assert found, f"no line starts with {head!r} in:\n{shot.text}"
    at = found[0]
    pad = len(lines[at]) - len(lines[at].lstrip())
    out = []
    for ln in lines[at + 1:]:
        if len(ln) - len(ln.lstrip()) <= pad:
            break
        out.append(ln.strip())
    return out


def refs_in(lines: list[str]) -> list[str]:
    return [w for ln in lines for w in ln.split() if re.fullmatch(r"@\d+", w)]
