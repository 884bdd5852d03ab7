"""Choosing in forms: select options, check and uncheck."""

from __future__ import annotations

from typing import Any

from ..errors import TargetNotInteractable, UsageError
from ..policy.facts import is_toggle
from ..policy.intent import Element
from ..policy.words import TOGGLE_ROLES
from .acting import Outcome, _call_on, describe, guarded
from .aiming import Ask
from .pointer import MOUSE, _click
from .tab import Tab
from .targets import Target

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
  if (missing.length) return {error: 'missing', missing, count: opts.length,
                              options: opts.slice(0, 30).map(o => o.text.trim())};
  const off = picked.filter(o => o.disabled || (o.parentNode && o.parentNode.disabled));
  if (off.length) return {error: 'off', off: off.map(o => o.text.trim())};
  if (!this.multiple && picked.length > 1) return {error: 'single'};
  for (const o of opts) o.selected = picked.includes(o);
  this.dispatchEvent(new Event('input', {bubbles: true}));
  this.dispatchEvent(new Event('change', {bubbles: true}));
  return {selected: picked.map(o => o.text.trim())};
}"""


# the roles that are checked or not (policy's TOGGLE_ROLES), for the page to test
TOGGLES = sorted(TOGGLE_ROLES)


async def select(tab: Tab, target: Target, values: list[str]) -> Outcome:
    if not values:
        raise UsageError("give at least one option value or label; nothing was selected")
    tab.attach_ahead("Runtime.callFunctionOn")  # what picks the options needs the debugger
    handle, info = await tab.resolve_info(target)
    what = describe(handle, info)
    if info.get("disabled"):  # natively or by aria-disabled (the page's disabledOf)
        raise TargetNotInteractable(f"{what} is disabled; nothing was selected")
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
        more = int(res.get("count") or 0) - len(res["options"])
        raise TargetNotInteractable(
            f"{what} has no option {', '.join(res['missing'])!r}; options are: "
            f"{', '.join(res['options'])}" + (f" and {more} more (`text @{handle.ref}` lists "
                                               "them all)" if more > 0 else "") +
            ". Nothing was selected")
    if err == "off":
        raise TargetNotInteractable(f"{what}: the option {', '.join(res['off'])!r} is "
                                    "disabled, and a person cannot choose it; nothing was "
                                    "selected")
    if err == "single":
        raise UsageError(f"{what} takes one option; nothing was selected")
    if err:
        raise TargetNotInteractable(f"{what} is {err}; nothing was selected")
    out = Outcome(f"selected {', '.join(res['selected'])} in {what}", seen.changes,
                  {**seen.data, "selected": res["selected"]})
    return out


async def check(tab: Tab, target: Target, on: bool) -> Outcome:
    # read with where the click goes, in one trip, unless it is already as asked (nothing
    # is done then: it is not even scrolled to)
    tab.attach_ahead(MOUSE)
    handle, info, placed = await tab.resolve_placed(
        target, aiming=True, check={"want": on, "toggles": TOGGLES})
    what = describe(handle, info)
    word = "checked" if on else "unchecked"
    if not is_toggle(Element.from_page(info)):
        raise TargetNotInteractable(f"{what} is not a checkbox, radio button or switch, so it "
                                    f"cannot be {word}; nothing was done (to click it, use "
                                    "click)")
    checked = "checked" in info.get("states", []) or info.get("checked") is True
    if checked == on:
        return Outcome(f"{what} was already {word}; nothing was done")
    out, after = await _click(tab, handle, info, "left", 1, 0, Ask("check" if on else "uncheck"),
                              placed)
    if after is None:
        after = await tab.info(handle)
    now = "checked" in after.get("states", []) or after.get("checked") is True
    if now != on:
        raise TargetNotInteractable(f"clicked {what} but it is still "
                                    f"{'checked' if now else 'unchecked'}; the page did not "
                                    "take the change")
    out.did = f"{word} {what}"
    return out
