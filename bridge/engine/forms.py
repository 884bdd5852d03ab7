"""Choosing in forms: a <select>'s options, and a list of the page's own."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from ..errors import TabstewardError, TargetNotInteractable, UsageError
from .acting import Outcome, _call_on, describe, guarded
from .entry import enter_text, press
from .options import OPTION_ROLES, alike, offering, offers, shown_instead, takes_words
from .pointer import _report_state, click, closing_said, hover, opening_said, scroll
from .reporting import replied, report_replied
from .snapshot import Line, quote
from .tab import Tab
from .targets import RefTarget, Target

# a list of a page's own making (not a <select>): how long its list may take to show its
# choices after the click that opens it, and how often it is looked at
LIST_WAIT, LIST_LOOK = 2.0, 0.1
TYPE_AFTER = 0.5  # seconds a combobox one types in may take to show its list on a click
# seconds a list Escape closes may take to go (Shoelace's closes once its hide animation ran),
# looked at every CLOSE_LOOK
CLOSE_WAIT, CLOSE_LOOK = 0.5, 0.05
LIST_ROLES = ("combobox", "listbox", "menu")  # what holds or opens such a list
# a button that says nothing of a list may show one while the pointer is over it (a nav
# menu, Ant Design's dropdown): tried by hovering it, never by a click, for this long
HOVER_OPENERS, HOVER_WAIT = ("button", "link", "clickable"), 1.0
FIELD_OPENERS = ("textbox", "searchbox")
SCROLL_VIEWS = 30  # views of a list that draws only what is in view scrolled through, at most

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
  // a person's choice takes focus there first: the field left says its change then
  if (this.getRootNode().activeElement !== this) this.focus({preventScroll: true});
  const dropped = this.multiple ? opts.filter(o => o.selected && !picked.includes(o)) : [];
  for (const o of opts) o.selected = picked.includes(o);
  // (as the browser's own: input crosses a shadow root to its host; change does not)
  this.dispatchEvent(new Event('input', {bubbles: true, composed: true}));
  this.dispatchEvent(new Event('change', {bubbles: true}));
  return {selected: picked.map(o => o.text.trim()), dropped: dropped.map(o => o.text.trim())};
}"""



async def select(tab: Tab, target: Target, values: list[str]) -> Outcome:
    if not values:
        raise UsageError("give at least one option value or label; nothing was selected")
    tab.attach_ahead("Runtime.callFunctionOn")  # what picks the options needs the debugger
    handle, info = await tab.resolve_info(target)
    what = describe(handle, info)
    if info.get("disabled"):  # natively or by aria-disabled (the page's disabledOf)
        raise TargetNotInteractable(f"{what} is disabled; nothing was selected")
    tab.check_no_dialog()
    # a field's suggestions from a <datalist> (the browser's own popup, no page's list)
    offered = await _call_on(tab, handle, _SUGGESTED) if info.get("suggests") else None
    if isinstance(offered, list) and offered:
        return await _suggested(tab, handle.ref, what, values, offered)
    if info.get("tag") != "select":  # a list of the page's own: opened and chosen from
        return await _choose(tab, handle.ref, info, what, values)
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
    dropped = [str(d) for d in res.get("dropped") or []]
    if dropped:  # (a select of several holds the values given, and no longer the others)
        out.changes.insert(0, f"no longer selected: {', '.join(dropped)}")
        out.data["dropped"] = dropped
    # what the page said to the change (its handler's status line, a field it found wrong)
    report_replied(tab, handle.frame, await replied(tab, handle.frame), out)
    return out


# a field's <datalist> suggestions: [value, label] of each (a label the same as its value
# is given as ""), 500 at most
_SUGGESTED = """function() {
  if (!this.list) return null;
  return Array.from(this.list.options).slice(0, 500).filter((o) => !o.disabled)
    .map((o) => [o.value, o.label !== o.value ? o.label : ""]);
}"""


async def _suggested(tab: Tab, ref: int, what: str, values: list[str],
                     offered: list[Any]) -> Outcome:
    """Choose one of a field's <datalist> suggestions, by its value or label (whatever the
    case; else the one whose value or label begins so): its value filled in, as a person
    who picks it from the browser's list, or types it, puts it there."""
    if len(values) > 1:
        raise UsageError(f"{what} takes one of its suggestions; nothing was typed")
    want = " ".join(values[0].split()).casefold()
    pairs = [(str(v), str(label)) for v, label in (p for p in offered if isinstance(p, list)
                                                   and len(p) == 2)]
    named = [v for v, label in pairs if want in (v.casefold(), label.casefold())]
    begun = [v for v, label in pairs if v.casefold().startswith(want) or
             (label and label.casefold().startswith(want))]
    found = named[:1] or (begun if len(begun) == 1 else [])
    if not found:
        shown = ", ".join(quote(label or v) for v, label in pairs[:30])
        more = f" and {len(pairs) - 30} more" if len(pairs) > 30 else ""
        why = f"several begin so ({', '.join(quote(v) for v in begun[:5])})" if begun else \
            f"its suggestions are {shown}{more}"
        raise TargetNotInteractable(f"{what} suggests no {quote(values[0])}: {why}; nothing "
                                    "was typed (to type other words, use fill)")
    filled = await enter_text(tab, RefTarget(ref), found[0], "fill")
    return Outcome(f"chose {quote(found[0])} in {what} (one of its suggestions)",
                   filled.changes, {**filled.data, "selected": [found[0]]})


async def _choose(tab: Tab, ref: int, info: dict[str, Any], what: str,
                  values: list[str]) -> Outcome:
    """Choose in a list of the page's own (a combobox, a button that opens a listbox or a
    menu) as a person does: click it, then the option with that name once it shows; each
    click is put to policy as a click. An open list (or the option itself) is not clicked
    first. The box a widget library draws for a <select> it hides opens a list, whatever
    its role says. A button that says nothing of a list is only hovered (put to policy as
    a hover): a list it shows then is chosen from; it is never clicked to find out."""
    states = info.get("states") or []
    unsaid = info.get("role") not in (*LIST_ROLES, *OPTION_ROLES) and \
        not {"haspopup", "expanded", "collapsed"} & set(states) and \
        not await _stands_for_select(tab, ref)
    refused = (f"{what} is not a <select> nor a list that opens (a combobox, a listbox, a "
               "button with a popup)")
    # a text field may show a list of its own as it takes focus (a grid's cell editor,
    # Tabulator's): clicked to find out, as a click there only puts the caret in it
    field = info.get("role") in FIELD_OPENERS and "disabled" not in states
    if unsaid and info.get("role") not in HOVER_OPENERS and not field:
        raise TargetNotInteractable(f"{refused}; nothing was selected. To click it, use click")
    wants = [" ".join(v.split()) for v in values]
    want = wants[0]
    # several options: only where the list says it takes them (else the second choice
    # would take the first one's place)
    many = len(wants) > 1 and await _takes_many(tab, ref)
    lines, _ = await tab.collect(interactive=True, viewport=False, scope=None)
    before = {ln.ref for ln in lines if ln.ref}  # (what came since is the list's)
    opened: Outcome | None = None
    if info.get("role") in OPTION_ROLES and alike(str(info.get("name") or ""), want):
        option: Line | None = next((ln for ln in lines if ln.ref == ref), None)
    else:  # its own list, open already (never another widget's that shows the same words)
        option = offering(lines, want, before, await _tied(tab, ref, lines, want, before))
    if option is None and unsaid and not field:
        # (what the page shows only under the pointer counts as come once it is there)
        known = {ln.ref for ln in lines if ln.ref and "hover-only" not in ln.states}
        opened = await hover(tab, RefTarget(ref))
        option, shown = await _shown_option(tab, ref, want, known, HOVER_WAIT)
        if option is None:
            raise TargetNotInteractable(
                f"{refused}, and with the pointer over it no option {quote(want)} showed"
                f"{shown_instead(want, shown)}; nothing was selected. To click it, use click")
    typed, search = False, None
    if option is None:
        # (what shows only under the pointer, as the press brings it, comes with the press;
        # not for a text field, whose list is none of what the pointer shows on its way)
        known = {ln.ref for ln in lines if ln.ref and ("hover-only" not in ln.states or field)}
        opened = await click(tab, RefTarget(ref))
        # a combobox one types in may show its list only once typed in (React Aria's,
        # Headless UI's): what a person does next is type the choice's words
        editable = takes_words(info)
        option, shown = await _shown_option(tab, ref, want, known, TYPE_AFTER)
        # or one that opens a search box of its own and lists only what is typed there
        # (Select2's that asks for two letters first): the person types there
        search = None if editable or option is not None else await _search_box(tab, known)
        # (a text field that showed nothing as it took focus has no list: no longer wait)
        listless = field and not [ln for ln in shown if ln.ref not in known]
        if option is None and (editable or search is not None):
            into = RefTarget(search or ref)
            opened = await enter_text(tab, into, want, "fill")
            typed = True
            option, shown = await _shown_option(tab, ref, want, known, TYPE_AFTER)
            if option is None and not [ln for ln in shown if ln.ref not in known]:
                # nothing came: a list that opens on keys alone (Syncfusion's, on keyup)
                # gets the words again a key at a time, as a person types them
                await enter_text(tab, into, "", "fill")
                opened = await enter_text(tab, into, want, "type")
            if option is None:
                option, shown = await _shown_option(tab, ref, want, known, LIST_WAIT - TYPE_AFTER)
        elif option is None and not listless:
            option, shown = await _shown_option(tab, ref, want, known, LIST_WAIT - TYPE_AFTER)
        if option is None and listless:
            raise TargetNotInteractable(f"{refused}: clicked it, and no list showed; nothing "
                                        "was selected. To type into it, use fill")
        if option is None:  # a list that draws only what is in its view: scrolled through
            option, shown = await _scrolled_to(tab, ref, want, known, shown)
        if option is None:
            # a list the click opened is closed again, as a person backs out (left open, it
            # may lie over its control); not one typed in (its words stay, to go on with),
            # nor where another list offers the choice (an Escape could close that one)
            came = [ln for ln in shown if ln.ref not in known]
            left = " (its list may still be open; to type into it, use type)" if typed or \
                not came or any(offers(ln, want) for ln in shown) else \
                await _closed_again(tab, opened, came[0].ref)
            raise TargetNotInteractable(
                f"{opened.did}, but no option {quote(want)} showed"
                f"{shown_instead(want, shown, '; it showed no options')}. Nothing was "
                f"chosen{left}")
    if len(wants) > 1:
        many = many or await _takes_many(tab, option.ref)  # (a list that came says so now)
        refusal = await _refusal(tab, ref, what, wants[1:], many, takes_words(info), before)
        if refusal is not None:
            # backed out of as a person backs out: the list opened for it goes again
            raise refusal[0](refusal[1] + await _closed_again(tab, opened, option.ref))
    if len(wants) == 1 and {"selected", "checked"} & set(option.states.split()) and \
            await _takes_many(tab, ref) and await _chosen_behind(tab, ref, option.ref):
        # in a list of several a click takes a chosen option out again: it is left alone,
        # as `check` leaves a checked box
        left = await _closed_again(tab, opened, option.ref)
        return Outcome(f"{quote(option.name)} is chosen in {what} already; nothing was "
                       f"clicked{left}", data={"selected": [option.name]})
    if opened is not None:  # a list that just came may be starting its entrance
        with contextlib.suppress(TabstewardError):
            await tab.next_frame()
    try:
        picked = await click(tab, RefTarget(option.ref))
    except TargetNotInteractable as exc:  # (a disabled option): backed out of, list closed
        raise type(exc)(exc.message + await _closed_again(tab, opened, option.ref),
                        **exc.details) from None
    # what the opening click did but change the list's own state (its list shown), then
    # how the list stands now against before it opened (closed again, named by the choice)
    changes = [c for c in (opened.changes if opened else []) if not opening_said(c)]
    if typed:
        changes.insert(0, f"its list showed the option once {quote(want)} was typed in "
                          f"{'its search box' if search else 'it'}")
    # (the option going with its list is no news: the list closing is how a choice ends)
    changes += [c for c in picked.changes if not closing_said(c)]
    chosen, did = [option.name], [picked.did]
    for more in wants[1:]:
        picked, option = await _choose_next(tab, ref, info, what, more, chosen, before)
        chosen.append(option.name)
        did.append(picked.did)
        changes += [c for c in picked.changes if not closing_said(c)]
    confirmed = await _confirm(tab, ref, option.ref)
    if confirmed is not None:  # (its dialog chooses nothing until it is confirmed)
        did.append(confirmed.did)
        changes += [c for c in confirmed.changes if not closing_said(c)]
    elif len(chosen) > 1 or await _takes_many(tab, ref):
        # (a list of several stays open over the page, covering what is under it: a person
        # closes it once done)
        closing = await _close_list(tab, option.ref, ref)
        if closing:
            changes.append("its list was closed with Escape, as a person closes it when done"
                           if closing == "closed" else "its list is open: Escape did not "
                           "close it")
    # (each choice of several says the same of its option: said once; nor is the focus
    # going back to the control chosen in news: Shoelace's select takes it from its list)
    name = str(info.get("name") or "")
    back = f"focus moved to {info.get('role')}" + (f" {quote(name)}" if name else "")
    changes = [c for c in changes if c != back and not c.startswith(back + ", value ")]
    out = Outcome(f"chose {', '.join(quote(c) for c in chosen)} in {what} ({'; '.join(did)})",
                  list(dict.fromkeys(changes)), {**picked.data, "selected": chosen})
    if opened is not None and "url" not in out.data and tab.state.dialog is None:
        with contextlib.suppress(TabstewardError):
            # a list may close in its next animation frame (Choices.js does)
            await tab.next_frame()
            now = await tab.info(await tab.resolve(RefTarget(ref)))
            _report_state(tab, info, now, out)
    return out


async def _confirm(tab: Tab, control: int, option: int) -> Outcome | None:
    """Where the option's list is a dialog the control opened, still open once the option
    was clicked, with a button that alone confirms its choices (Ionic's alert select:
    nothing is chosen until OK), that button clicked, as a person ends the choice (put to
    policy as a click); else None. Never a dialog the control is in (a form's modal)."""
    found = None
    with contextlib.suppress(TabstewardError):
        handle, box = await tab.resolve(RefTarget(option)), await tab.resolve(RefTarget(control))
        if box.frame is handle.frame:
            found = await tab.evaluate(handle.frame, f"__ts.confirmOf({handle.local}, {box.local})")
    if not isinstance(found, dict) or not isinstance(found.get("id"), int):
        return None
    ref = tab.ref_of(handle.frame, found["id"], str(found.get("role") or ""),
                     str(found.get("name") or ""))
    return await click(tab, RefTarget(ref))


async def _stands_for_select(tab: Tab, ref: int) -> bool:
    """Whether `ref` is the box a widget library draws for a <select> it hides (Chosen's:
    no role says it opens a list, but it does)."""
    with contextlib.suppress(TabstewardError):
        handle = await tab.resolve(RefTarget(ref))
        said = await tab.evaluate(handle.frame, f"__ts.selectBehind({handle.local})")
        return isinstance(said, dict)
    return False


async def _scrolled_to(tab: Tab, control: int, want: str, known: set[int],
                       shown: list[Line]) -> tuple[Line | None, list[Line]]:
    """Where the list that opened scrolls and draws only the options in its view (a virtual
    list: Quasar's, react-window's), the option `want` once the list was scrolled to it a
    view at a time, as a person scrolls a long list, SCROLL_VIEWS at most (each scroll put
    to policy as a scroll); else None and the options it showed last."""
    lines, _ = await tab.collect(interactive=True, viewport=False, scope=None)
    lists = [ln for ln in lines if ln.ref and ln.role == "listbox"]
    # (one that came with the click, else one the control names, open before)
    box = next((ln for ln in lists if ln.ref not in known), None)
    for ln in lists if box is None else []:
        if ln.ref in await _tied(tab, control, [ln], ln.name, {ln.ref}):
            box = ln
            break
    if box is None:
        return None, shown
    with contextlib.suppress(TabstewardError):
        handle = await tab.resolve(RefTarget(box.ref))
        size = await tab.evaluate(handle.frame, f"__ts.rect({handle.local})")
        step = max(40, int(size[3]) - 40) if isinstance(size, list) else 200
        for _ in range(SCROLL_VIEWS):
            moved = await scroll(tab, RefTarget(box.ref), 0, step)
            if moved.did.startswith("nothing scrolled"):
                break
            was = {ln.name for ln in shown}
            option, shown = await _shown_option(tab, control, want, known, LIST_LOOK * 2)
            # (a list that drew all its options at once drew no other: nothing to find)
            if option is not None or {ln.name for ln in shown} == was:
                return option, shown
    return None, shown


async def _chosen_behind(tab: Tab, control: int, option: int) -> bool:
    """Whether the option is chosen as the <select> the control stands for says, where it
    stands for one (a kit may mark the option under the keyboard selected, Choices.js does);
    else as the option says."""
    with contextlib.suppress(TabstewardError):
        box, handle = await tab.resolve(RefTarget(control)), await tab.resolve(RefTarget(option))
        if box.frame is handle.frame:
            said = await tab.evaluate(box.frame, f"__ts.selectBehind({box.local}, {handle.local})")
            if isinstance(said, dict) and isinstance(said.get("chosen"), bool):
                return bool(said["chosen"])
    return True


async def _search_box(tab: Tab, known: set[int]) -> int | None:
    """The text field the opening of a list brought and focused (its search box), if any."""
    lines, _ = await tab.collect(interactive=True, viewport=False, scope=None)
    return next((ln.ref for ln in lines if ln.ref and ln.ref not in known and
                 ln.role in ("searchbox", "textbox", "combobox") and
                 "focused" in ln.states.split()), None)


async def _takes_many(tab: Tab, ref: int) -> bool:
    """Whether the list `ref` opens (or `ref`, an option of it) takes several options."""
    with contextlib.suppress(TabstewardError):
        handle = await tab.resolve(RefTarget(ref))
        many = f"(__ts.selectBehind({handle.local}) || {{}}).multiple === true"
        return await tab.evaluate(handle.frame, f"__ts.takesMany({handle.local}) || {many}") is True
    return False


async def _refusal(tab: Tab, ref: int, what: str, rest: list[str], many: bool,
                   editable: bool, before: set[int]
                   ) -> tuple[type[TabstewardError], str] | None:
    """Why a second option is refused, nothing chosen (the error and its words, to which
    the caller adds how the list was left): for a list that takes one, or one its open list
    does not show (a list one types in shows each once typed: not asked ahead); None when
    it is not."""
    if not many:
        return UsageError, (f"{what} takes one option at a time (its list does not say it "
                            "takes several); nothing was chosen")
    if editable:
        return None
    lines, _ = await tab.collect(interactive=True, viewport=False, scope=None)
    missing = [w for w in rest
               if offering(lines, w, before, await _tied(tab, ref, lines, w, before)) is None]
    if not missing:
        return None
    shown = [ln.name for ln in lines if ln.ref and ln.role in OPTION_ROLES] or \
        [ln.name for ln in lines if ln.ref and ln.ref not in before]
    return TargetNotInteractable, (
        f"{what}'s list shows no option {', '.join(quote(w) for w in missing)}; it shows "
        f"{', '.join(quote(n) for n in shown[:30])}. Nothing was chosen")


async def _closed_again(tab: Tab, opened: Outcome | None, option: int) -> str:
    """A list this choice opened (`opened`), closed again with Escape: how it went, as words
    to end the report with ("" when nothing was opened or it had closed)."""
    if opened is None:
        return ""
    return {"closed": " (its list was closed again with Escape)",
            "open": " (its list is open: Escape did not close it)"}.get(
        await _close_list(tab, option), "")


async def _close_list(tab: Tab, option: int, control: int | None = None) -> str:
    """Close with Escape the list that shows `option` (or that `control` says is expanded:
    a list that takes the chosen option out, Choices.js's), if it still shows: "closed",
    "open" (Escape did not close it), or "" (it had closed)."""
    if not await _still_shown(tab, option, control):
        return ""
    await press(tab, "Escape")
    deadline = asyncio.get_running_loop().time() + CLOSE_WAIT
    while await _still_shown(tab, option, control):
        if asyncio.get_running_loop().time() >= deadline:
            return "open"
        await asyncio.sleep(CLOSE_LOOK)
    return "closed"


async def _choose_next(tab: Tab, ref: int, info: dict[str, Any], what: str, want: str,
                       chosen: list[str], before: set[int]) -> tuple[Outcome, Line]:
    """One more option of a list that takes several: from its list while it stays open,
    else typed into it where it takes words; the click's outcome, and the option."""
    lines, _ = await tab.collect(interactive=True, viewport=False, scope=None)
    option = offering(lines, want, before, await _tied(tab, ref, lines, want, before))
    if option is None and takes_words(info):
        await enter_text(tab, RefTarget(ref), want, "fill")
        option, _ = await _shown_option(tab, ref, want, before)
    if option is None:
        raise TargetNotInteractable(
            f"chose {', '.join(quote(c) for c in chosen)} in {what}, then no option "
            f"{quote(want)} showed (its list closed); {quote(want)} and what follows it were "
            "not chosen")
    return await click(tab, RefTarget(option.ref)), option


async def _still_shown(tab: Tab, ref: int, control: int | None = None) -> bool:
    """Whether the option `ref` is still shown, or `control` says its list is expanded
    (its list stayed open)."""
    lines, _ = await tab.collect(interactive=True, viewport=False, scope=None)
    return any(ln.ref == ref or (ln.ref == control and "expanded" in ln.states.split())
               for ln in lines)


async def _tied(tab: Tab, control: int, lines: list[Line], want: str, known: set[int]
                ) -> set[int]:
    """Of the lines named `want` that showed before (`known`), those of the list the
    control opens (page_values.js tiedTo); none asked for when there are none."""
    old = [ln.ref for ln in lines
           if ln.ref in known and ln.ref != control and offers(ln, want)]
    if not old:
        return set()
    with contextlib.suppress(TabstewardError):
        box = await tab.resolve(RefTarget(control))
        handles = [await tab.resolve(RefTarget(r)) for r in old]
        here = [(r, h.local) for r, h in zip(old, handles, strict=True) if h.frame is box.frame]
        if here:
            said = await tab.evaluate(
                box.frame, f"__ts.tiedTo({box.local}, {json.dumps([h for _, h in here])})")
            if isinstance(said, list):
                return {r for (r, _), yes in zip(here, said, strict=False) if yes is True}
    return set()


async def _shown_option(tab: Tab, control: int, want: str, known: set[int],
                        wait: float = LIST_WAIT) -> tuple[Line | None, list[Line]]:
    """The option `want` once the list a click on `control` (or the pointer over it) opened
    shows it (`wait` seconds at most); else None and the options the page shows (where none
    says it is one, what came since `known`: a list of plain items, Fomantic's)."""
    deadline = asyncio.get_running_loop().time() + wait
    while True:
        lines, _ = await tab.collect(interactive=True, viewport=False, scope=None)
        found = offering(lines, want, known, await _tied(tab, control, lines, want, known))
        if found is not None or asyncio.get_running_loop().time() >= deadline:
            return found, [ln for ln in lines if ln.ref and ln.role in OPTION_ROLES] or \
                [ln for ln in lines if ln.ref and ln.ref not in known and ln.ref != control]
        await asyncio.sleep(LIST_LOOK)
