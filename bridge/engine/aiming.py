"""Every click put to policy as what it really activates, before any input reaches the page."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from ..errors import TargetNotInteractable
from ..policy.facts import is_toggle, plain
from ..policy.intent import Element
from .model import Handle
from .placing import Aim, At
from .snapshot import left_out, quote
from .tab import Tab

# A gate that took longer than this waited for the person: the page may have changed since.
ANSWERED = 0.5


@dataclass(frozen=True)
class Ask:
    """What policy is asked about a click: the action the click is part of (a click, a
    check, a download, an upload through a button, either end of a drag) and its facts."""

    action: str = "click"
    facts: dict[str, Any] = field(default_factory=dict)


CLICK = Ask()


def intent_of(ask: Ask, target: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The action and facts to gate for a click that activates `target` (page info)."""
    action, facts = ask.action, dict(ask.facts)
    if action in ("check", "uncheck") and not is_toggle(Element.from_page(target)):
        action = "click"  # a check on what is no checkbox, radio or switch is a plain click
    if action == "download":
        facts["url"] = str(target.get("href") or facts.get("url") or "")
    return action, facts


async def aim_and_ask(tab: Tab, handle: Handle, what: str, info: dict[str, Any],
                      ask: Ask = CLICK, placed: dict[str, Any] | None = None,
                      at: At | None = None) -> Aim:
    """The point a click on the element goes to, once policy allowed what the click activates
    there (`info` when it activates nothing). When the person took time to answer, the point
    is found again, and must still activate the element they were asked about. `placed`:
    the page's aim already read with the element (`Tab.resolve_placed`); `at`: the point of
    the element asked for, there or nowhere."""
    aim = await tab.aim(handle, what, placed, at)
    if ask.action != "drag" and aim.target is not None and aim.target_id != handle.local \
            and aim.target.get("disabled"):
        # the words of a disabled button: the page would still get the click (aria-disabled
        # stops no event), where a person's does nothing (a drop may still land there)
        raise TargetNotInteractable(f"a click on {what} goes to {named(aim.target)}, which is "
                                    "disabled; nothing was clicked")
    action, facts = intent_of(ask, aim.target or info)
    started = time.monotonic()
    await tab.permit(action, aim.target or info, **facts)
    if aim.also is not None and says_more(aim.also, aim.target or info):
        await tab.permit("click", aim.also)  # the click runs it too: the riskier counts
    if time.monotonic() - started < ANSWERED:
        return aim
    again = await tab.aim(handle, what, at=at)
    if (again.target_id, _id(again.also)) != (aim.target_id, _id(aim.also)):
        raise TargetNotInteractable(f"the page changed while the person was asked: a click on "
                                    f"{what} now reaches another element; nothing was done")
    return again


def says_more(other: dict[str, Any], target: dict[str, Any]) -> bool:
    """Whether another element a click runs says something its target does not (a menu item
    holding a link of the same name is asked about once): other words, or a destination."""
    if other.get("href") and other.get("href") != target.get("href"):
        return True
    known = plain(f"{target.get('name') or ''} {target.get('text') or ''}").lower()
    return any(plain(str(other.get(key) or "")).lower() not in known for key in ("name", "text"))


def _id(info: dict[str, Any] | None) -> int:
    return int(info.get("id") or 0) if info is not None else 0


def reaches(handle: Handle, aim: Aim) -> str:
    """', which activates button "Buy"' when the click reaches another element than the one
    named, else ''."""
    t = aim.target
    # (nor when that element is a box handling the clicks of what it holds, a table's
    # wrapper that selects its rows: page_info.js `delegate`; nor the check box a label
    # stands in for, whose line the label is: `stoodFor`)
    if t is None or aim.target_id == handle.local or t.get("delegate") is True or \
            t.get("stoodFor") is True:
        return ""
    return f", which activates {named(t)}"


def named(t: dict[str, Any]) -> str:
    """'button "Buy"': an element's kind and (its first 40 characters) name, from its info;
    for one of no name, its words (a tree's node that listens: 'div "Report.pdf"')."""
    name = str(t.get("name") or "")
    kind = str(t.get("role") or t.get("tag") or "element")
    if name:
        left = max(0, len(name) - 40) + int(t.get("nameLeft") or 0)
        return f'{kind} "{name[:40]}"{left_out(left)}'
    # (the page's words, quoted as acting.describe quotes them: they cannot end the quote)
    text = " ".join(str(t.get("text") or "").split())
    return kind + (f" {quote(text[:40])}{left_out(len(text) - 40)}" if text else "")
