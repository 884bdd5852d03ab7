"""Tools that act on elements: click, hover, fill, type, press, select, check, scroll, drag."""

from __future__ import annotations

from typing import Any

from ..engine import actions, dragging
from ..errors import UsageError
from . import looking
from .common import AT, TARGET, optional_target, point_at, result, tab_of, target
from .registry import Call, Param, Result, tool


@tool("click", "Click an element (trusted input, in the background); with --snapshot or "
      "-i, then print the page's snapshot (once a page it opened in the tab has loaded)",
      TARGET,
      Param("button", help="left, right or middle", default="left",
            choices=("left", "right", "middle")),
      Param("count", "int", help="2 for a double click", default=1),
      Param("modifiers", "list", help="Control, Shift, Alt, Meta (repeatable)"), AT,
      *looking.LOOK, mutating=True)
async def click(call: Call, args: dict[str, Any]) -> Result:
    at = point_at(args)
    async with tab_of(call, args) as tab:
        out = await actions.click(tab, target(args), str(args.get("button") or "left"),
                                  int(args.get("count") or 1), args.get("modifiers"), at=at)
        return await looking.reported(tab, out, args)


@tool("dblclick", "Double-click an element", TARGET, AT, *looking.LOOK, mutating=True)
async def dblclick(call: Call, args: dict[str, Any]) -> Result:
    at = point_at(args)
    async with tab_of(call, args) as tab:
        out = await actions.click(tab, target(args), count=2, at=at)
        return await looking.reported(tab, out, args)


@tool("hover", "Move the mouse over an element", TARGET, AT, *looking.LOOK, mutating=True)
async def hover(call: Call, args: dict[str, Any]) -> Result:
    at = point_at(args)
    async with tab_of(call, args) as tab:
        return await looking.reported(tab, await actions.hover(tab, target(args), at), args)


@tool("focus", "Give an element keyboard focus", TARGET, mutating=True)
async def focus(call: Call, args: dict[str, Any]) -> Result:
    async with tab_of(call, args) as tab:
        return result(await actions.focus(tab, target(args)), tab)


TEXT = Param("text", required=True, positional=True, help="the text")


@tool("fill", "Replace the text of an input, textarea or editable element; a slider or spin "
      "button the page draws takes a number, set by its keys", TARGET, TEXT,
      *looking.LOOK, mutating=True)
async def fill(call: Call, args: dict[str, Any]) -> Result:
    async with tab_of(call, args) as tab:
        out = await actions.enter_text(tab, target(args), str(args["text"]), "fill")
        return await looking.reported(tab, out, args)


@tool("type", "Type text at the end of an input, textarea or editable element, or where "
      "the page puts the caret as it takes focus (a mask); a line break is pressed as Enter",
      TARGET, TEXT, *looking.LOOK, mutating=True)
async def type_(call: Call, args: dict[str, Any]) -> Result:
    async with tab_of(call, args) as tab:
        out = await actions.enter_text(tab, target(args), str(args["text"]), "type")
        return await looking.reported(tab, out, args)


@tool("press", "Press keys or shortcuts, e.g. Enter, Tab, Control+A, 'ArrowDown ArrowDown'",
      Param("target", positional=True, help="focus this element first (@N, loc=, text=, CSS)"),
      Param("keys", required=True, positional=True, help="space-separated keys or chords"),
      *looking.LOOK, mutating=True)
async def press(call: Call, args: dict[str, Any]) -> Result:
    async with tab_of(call, args) as tab:
        out = await actions.press(tab, str(args["keys"]), optional_target(args))
        return await looking.reported(tab, out, args)


@tool("select", "Choose option(s) of a <select> by value or label, or the option of a "
      "dropdown the page made (a combobox, a listbox or menu button): opened, then clicked",
      TARGET,
      Param("values", "list", required=True, positional=True, help="values or labels"),
      *looking.LOOK, mutating=True)
async def select(call: Call, args: dict[str, Any]) -> Result:
    async with tab_of(call, args) as tab:
        values = [str(v) for v in args["values"]]
        return await looking.reported(tab, await actions.select(tab, target(args), values), args)


@tool("check", "Check a checkbox, radio button or switch (no-op when checked)", TARGET,
      *looking.LOOK, mutating=True)
async def check(call: Call, args: dict[str, Any]) -> Result:
    async with tab_of(call, args) as tab:
        return await looking.reported(tab, await actions.check(tab, target(args), True), args)


@tool("uncheck", "Uncheck a checkbox or switch (no-op when unchecked)", TARGET, *looking.LOOK,
      mutating=True)
async def uncheck(call: Call, args: dict[str, Any]) -> Result:
    async with tab_of(call, args) as tab:
        return await looking.reported(tab, await actions.check(tab, target(args), False), args)


@tool("scroll", "Scroll the page or an element by dx/dy pixels; with only a target, "
      "scroll it into view",
      Param("target", positional=True, help="element to scroll (default: the page)"),
      Param("dy", "int", help="pixels down (negative: up)"),
      Param("dx", "int", help="pixels right (negative: left)"), *looking.LOOK, mutating=False)
async def scroll(call: Call, args: dict[str, Any]) -> Result:
    dy = args.get("dy")
    if dy is None and not args.get("target"):
        dy = 600
    async with tab_of(call, args) as tab:
        out = await actions.scroll(tab, optional_target(args), int(args.get("dx") or 0),
                                   int(dy or 0))
        return await looking.reported(tab, out, args)


@tool("drag", "Drag one element onto another, or by a distance in pixels (dx, dy: a swipe, "
      "a splitter)",
      TARGET, Param("to", positional=True, help="where to drop: @N, loc=, text= or CSS"),
      Param("dx", "int", help="instead of TO: move the pointer this many pixels right "
                              "(negative: left) and let go there"),
      Param("dy", "int", help="instead of TO: pixels down (negative: up)"),
      *looking.LOOK, mutating=True)
async def drag(call: Call, args: dict[str, Any]) -> Result:
    by = args.get("dx") is not None or args.get("dy") is not None
    if by == bool(args.get("to")):
        raise UsageError("give where to drop (TO) or an offset (--dx/--dy), not both or "
                         "neither; nothing was dragged")
    async with tab_of(call, args) as tab:
        out = await (dragging.drag_by(tab, target(args), int(args.get("dx") or 0),
                                      int(args.get("dy") or 0)) if by
                     else dragging.drag(tab, target(args), target(args, "to")))
        return await looking.reported(tab, out, args)
