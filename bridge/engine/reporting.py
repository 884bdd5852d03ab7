"""How an action's report says what the page replied: the fields it found invalid, what
it said, what else it changed (page_info.js `replied`, page_said.js and page_watch.js read
it), as lines of the action's Outcome."""

from __future__ import annotations

import logging
import re
from typing import Any

from ..errors import TabstewardError
from .acting import FADING, HIDDEN, Outcome, describe
from .model import Frame, Handle
from .snapshot import left_out, quote, shorten
from .tab import Tab

log = logging.getLogger("tabsteward.engine")


def report_invalid(tab: Tab, frame: Frame, found: Any, outcome: Outcome) -> None:
    """Say which fields the page found invalid during the action (page_info.js
    `invalidFound`, the element's read-back carries it): with their refs and the page's
    message, and that no form went on when the browser's check stopped it."""
    if not isinstance(found, dict) or not isinstance(found.get("fields"), list):
        return
    said, data = [], []
    for entry in found["fields"]:
        if not isinstance(entry, dict) or not isinstance(entry.get("id"), int):
            continue
        role, name = str(entry.get("role") or ""), str(entry.get("name") or "")
        handle = Handle(frame, entry["id"], tab.ref_of(frame, entry["id"], role, name))
        message = shorten(str(entry.get("message") or ""), 150)
        tag = str(entry.get("tag") or "element")
        said.append(describe(handle, {"role": role, "name": name, "tag": tag}) +
                    (f" {quote(message)}" if message else ""))
        data.append({"ref": f"@{handle.ref}", "role": role, "name": name,
                     "message": message})
    if not said:
        return
    more = int(found.get("more") or 0)
    blocked = found.get("blocked") is True
    outcome.changes.append(("form not sent, " if blocked else "") + "invalid: " +
                           ", ".join(said) + (f" and {more} more" if more > 0 else ""))
    outcome.data["invalid"] = data


async def replied(tab: Tab, frame: Frame) -> dict[str, Any] | None:
    """What the page replied in the frame's document since its last read (page_info.js
    `replied`: the fields it found invalid, what it said, the dialog that went), read after
    input that has no element to read back (keys, a drag, a slider's steps, a late look);
    None where it could not be read (the document went)."""
    try:
        found = await tab.evaluate(frame, "__ts.replied()", follow=False)
    except TabstewardError as exc:
        log.debug("no reply read: %s", exc.message)
        return None
    return found if isinstance(found, dict) else None


def report_replied(tab: Tab, frame: Frame, found: dict[str, Any] | None,
                   outcome: Outcome) -> None:
    """Say what `replied` read: the fields found invalid, what the page said."""
    if found is not None:
        report_invalid(tab, frame, found.get("invalid"), outcome)
        report_said(found.get("said"), outcome)


async def top_replied(tab: Tab, outcome: Outcome) -> None:
    """Say what an action in a frame changed in the top document around it, watched since
    it began (frames.py `watch_top`: a card field's frame enabling the page's Pay button, a
    player's frame writing the page's status line), as the frame's own replies are said."""
    if not tab.top_watched:
        return
    tab.top_watched = False
    top = tab.frames.get(tab.target_id)
    if top is None or tab.state.dialog is not None or "url" in outcome.data:
        return
    report_replied(tab, top, await replied(tab, top), outcome)


def report_said(found: Any, outcome: Outcome) -> None:
    """Say what the page said in reply to the action in its live regions (page_said.js
    `saidFound`, the element's read-back carries it): an alert, a status line, a toast;
    that the dialog the action's element was in closed with it, and that one opened; the
    tooltip or popover it showed; the new value of a field beside the element; other
    controls whose state it changed; the items it added to lists or took out of them (one
    or two named); the words that came in a plain box (no live region: a form's "Account
    created" in a bare div), and those it took out of sight; the buttons that came; the
    field it put the focus in."""
    if not isinstance(found, dict) or not isinstance(found.get("said"), list):
        return
    for key, verb in (("closed", "closed"), ("opened", "opened")):
        dialog = found.get(key)
        if isinstance(dialog, dict):
            # (the page's words only inside quotes: its role is one of two, or "dialog")
            role = dialog.get("role") if dialog.get("role") == "alertdialog" else "dialog"
            name = dialog.get("name")
            if key == "closed":  # (what fades out or hides with it is said so)
                outcome.changes[:] = [c for c in outcome.changes if c not in (FADING, HIDDEN)]
            outcome.changes.append(f"{verb} the {role}" +
                                   (f" {quote(name)}" if isinstance(name, str) and name else ""))
    listed = found.get("listed")
    first = listed.get("first") if isinstance(listed, dict) else None
    if isinstance(listed, dict) and listed.get("role") == "list" and \
            isinstance(listed.get("items"), int) and isinstance(first, list) and \
            all(isinstance(w, str) and w for w in first):
        # (a list of plain items that came, its first ones named: a combobox's countries)
        count, name = listed["items"], listed.get("name")
        named = f" {quote(name)}" if isinstance(name, str) and name else ""
        more = count - len(first)
        outcome.changes.append(f"the page now shows a list{named} of {count} items: " +
                               ", ".join(quote(w) for w in first) +
                               (f" and {more} more" if more > 0 else ""))
        outcome.data["listed"] = {"role": "list", "name": name if isinstance(name, str) else "",
                                  "items": count, "first": first}
    elif isinstance(listed, dict) and isinstance(listed.get("items"), int) and \
            listed["items"] > 0:
        # (a menu or a list of options that came: the page's words only inside quotes)
        # (or one open before that offers other items now: suggestions as more is typed)
        menu, again = listed.get("role") == "menu", listed.get("again") is True
        name, count = listed.get("name"), listed["items"]
        held = f"{count} {'item' if menu else 'option'}{'' if count == 1 else 's'}"
        named = f" {quote(name)}" if isinstance(name, str) and name else ""
        outcome.changes.append(f"the {'menu' if menu else 'list'}{named} now holds {held}"
                               if again else f"opened the {'menu' if menu else 'list'}"
                               f"{named} of {held}")
        outcome.data["listed"] = {"role": "menu" if menu else "listbox",
                                  "name": name if isinstance(name, str) else "",
                                  "items": count, "again": again}
    shut = found.get("shut")
    if isinstance(shut, dict) and not outcome.data.get("list_closed"):
        # (a menu or a list of options that showed and shows no more: an Escape, a click
        # elsewhere closing a field's suggestions)
        name = shut.get("name")
        outcome.changes.append(f"closed the {'menu' if shut.get('role') == 'menu' else 'list'}"
                               + (f" {quote(name)}" if isinstance(name, str) and name else ""))
        outcome.data["list_closed"] = name if isinstance(name, str) else ""
    shows = found.get("shows")
    if isinstance(shows, str) and shows:
        outcome.changes.append(f"shows the tooltip {quote(shows)}")
        outcome.data["tooltips"] = [shows]
    # a field beside the element whose value the action changed (a quantity its + stepped)
    for entry in found.get("values") or []:
        if isinstance(entry, list) and len(entry) == 2 and all(isinstance(v, str) for v in entry) \
                and f"value now {entry[1]!r}" not in outcome.changes:  # (not the element's own)
            outcome.changes.append(f"{quote(entry[0])} now {entry[1]!r}")
    said = _words_cut(found["said"])
    if said:
        more = found.get("more")
        more = more if isinstance(more, int) and more > 0 else 0
        outcome.changes.append("the page said " + ", ".join(
            quote(words) + left_out(left) for words, left in said) +
            (f" and {more} more" if more else ""))
        outcome.data["said"] = [words for words, _ in said]
    # (its states are the helper's own words, never the page's: checked as such)
    moved = [entry for entry in found.get("moved") or ()
             if isinstance(entry, list) and len(entry) == 2 and
             all(isinstance(v, str) for v in entry) and _STATES.fullmatch(entry[1])]
    if moved:  # (other controls the action changed: a carousel's current dot)
        more = found.get("movedMore")
        outcome.changes.append(
            ", ".join(f"{quote(name)} now {states}" for name, states in moved) +
            (f" and {more} more" if isinstance(more, int) and more > 0 else ""))
        outcome.data["moved"] = [{"name": name, "now": states} for name, states in moved]
    _report_focus(found.get("focused"), outcome)
    # (not the options of a list said whole above: those it offers as more is typed)
    again = isinstance(listed, dict) and listed.get("again") is True
    items = found.get("items")
    if isinstance(items, int) and items > 0 and not again:  # (a Load more's, a cart's line)
        words = found.get("addedWords")  # (one or two added: named)
        which = [w for w in words if isinstance(w, str) and w] if isinstance(words, list) else []
        named = ", ".join(quote(w) for w in which) if len(which) == items else ""
        outcome.changes.append(f"{items} item{'s' if items > 1 else ''} added to a list" +
                               (f": {named}" if named else ""))
        outcome.data["items_added"] = items
    gone = found.get("gone")
    if isinstance(gone, int) and gone > 0 and not again:  # (a filter narrowing, a row deleted)
        left = found.get("goneWords")  # (one or two deleted: named)
        which = [w for w in left if isinstance(w, str) and w] if isinstance(left, list) else []
        put = found.get("put")  # (others in their place: a page for another, a sort's)
        put = put if isinstance(put, int) and put > 0 else 0
        named = ", ".join(quote(w) for w in which) if len(which) == gone else ""
        items = f"{gone} item{'s' if gone > 1 else ''}"
        came = found.get("putWords")  # (one or two put in: named, "No results found")
        new = [w for w in came if isinstance(w, str) and w] if isinstance(came, list) else []
        outcome.changes.append(
            f"{items} of a list{f' ({named})' if named else ''} replaced by {put} "
            f"other{'s' if put > 1 else ''}" + (
                ": " + ", ".join(quote(w) for w in new) if len(new) == put else "") if put else
            f"{items} removed from a list" + (f": {named}" if named else ""))
        outcome.data["items_removed"] = gone
        if put:
            outcome.data["items_put"] = put
    boxes = found.get("boxes")  # (a Select all's rows, ticked by its script)
    if isinstance(boxes, list) and len(boxes) == 2 and all(isinstance(b, int) for b in boxes):
        for count, state in zip(boxes, ("checked", "not checked"), strict=True):
            if count > 0 and not any(c.endswith(f" now {state}") for c in outcome.changes):
                outcome.changes.append(f"{count} other check box{'es' if count > 1 else ''} "
                                       f"now {state}")
    for key, says in (("columnsWent", "no longer shows"), ("columnsCame", "now shows")):
        names = [c for c in found.get(key) or () if isinstance(c, str) and c]
        if names:  # (a column menu's choice: a table's header cells taken out or put in)
            outcome.changes.append(f"the table {says} the column{'s' if len(names) > 1 else ''} "
                                   + ", ".join(quote(c) for c in names))
            outcome.data["columns_went" if key == "columnsWent" else "columns_came"] = names
    sorted_ = found.get("sorted")
    if isinstance(sorted_, int) and sorted_ > 1:  # (a sort moving a table's rows)
        outcome.changes.append(f"the page put {sorted_} rows or items in another order")
        outcome.data["reordered"] = sorted_
    came = _words_cut(found.get("came"))
    if came:  # (words a plain box took on, which no live region announced)
        more = found.get("cameMore")  # (more boxes than it says: a form's errors)
        more = more if isinstance(more, int) and more > 0 else 0
        outcome.changes.append("the page now shows " + ", ".join(
            quote(words) + left_out(left) for words, left in came) + (
            f" and {more} more" if more else ""))
        outcome.data["came"] = [words for words, _ in came]
    went = _words_cut(found.get("went"))
    if went:  # (a popover's panel that closed as focus left it, a panel taken away)
        outcome.changes.append("the page no longer shows " + ", ".join(
            quote(words) + left_out(left) for words, left in went))
        outcome.data["went"] = [words for words, _ in went]
    shown = found.get("buttons")
    buttons = [b for b in shown if isinstance(b, str) and b][:6] if isinstance(shown, list) \
        else []
    if buttons:  # (a list's bulk actions once a row is checked)
        more = f" and {len(buttons) - 3} more" if len(buttons) > 3 else ""
        outcome.changes.append(f"the page now shows the button{'s' if len(buttons) > 1 else ''} "
                               + ", ".join(quote(b) for b in buttons[:3]) + more)
        outcome.data["buttons"] = buttons
    _report_parts(found.get("parts"), outcome)


def list_opened(change: str) -> bool:
    """Whether a change line says a menu or a list of options came, or what one holds now
    (`report_said`)."""
    return change.startswith(("opened the menu", "opened the list")) or (
        change.startswith(("the menu", "the list ")) and " now holds " in change)


def list_emptied(change: str) -> bool:
    """Whether a change line says only that items left a list, or that it closed
    (`report_said`): the options of a list closing as its choice is made."""
    return re.fullmatch(r"\d+ items? removed from a list(?:: .*)?", change) is not None or \
        re.fullmatch(r'closed the (?:list|menu)(?: ".*")?', change) is not None


_ROLE = re.compile(r"[a-z]+")


def _report_focus(focused: Any, outcome: Outcome) -> None:
    """The field the action put the focus in, where keys now go (page_said.js `focusCame`):
    a cell's editor a double click opened, the next field a Tab went to."""
    if not isinstance(focused, dict) or not isinstance(focused.get("role"), str) or \
            not _ROLE.fullmatch(focused["role"]):
        return  # (the page's words only inside quotes: its role a plain word)
    name = focused.get("name") if isinstance(focused.get("name"), str) else ""
    value = focused.get("value") if isinstance(focused.get("value"), str) else ""
    came = focused.get("came") is True
    outcome.changes.append(f"focus moved to {'a new ' if came else ''}{focused['role']}" +
                           (f" {quote(name)}" if name else "") +
                           (f", value {quote(value)}" if value else ""))
    outcome.data["focused"] = {"role": focused["role"], "name": name, "value": value,
                               "new": came}


def _report_parts(parts: Any, outcome: Outcome) -> None:
    """Parts of a form that came (a checkout's next step, an address added): their heading
    and their fields, by name (page_watch.js `formPart`)."""
    said = []
    for part in parts if isinstance(parts, list) else ():
        if not isinstance(part, dict) or not isinstance(part.get("fields"), list):
            continue
        fields = [f for f in part["fields"] if isinstance(f, str)]
        more = part["more"] if isinstance(part.get("more"), int) else 0
        lead = part.get("lead") if isinstance(part.get("lead"), str) else ""
        frame = part.get("frame")
        if not fields and isinstance(frame, str):  # (a chat widget's, a launcher showed)
            outcome.changes.append("the page now shows the frame" + (
                f" {quote(frame)}" if frame else ""))
            said.append({"heading": "", "fields": [], "more": 0, "frame": frame})
            continue
        if not fields:
            continue
        said.append({"heading": lead, "fields": fields, "more": max(0, more)})
        outcome.changes.append(
            (f"the page now shows {quote(lead)} with " if lead else "the page now shows ") +
            ("the field " if len(fields) == 1 and not more else "the fields ") +
            ", ".join(quote(f) for f in fields) + (f" and {more} more" if more > 0 else ""))
    if said:
        outcome.data["parts"] = said


_STATES = re.compile(r"[a-z]+(?: [a-z]+)*")


def _words_cut(entries: Any) -> list[tuple[str, int]]:
    """The page helper's [words, characters cut] pairs that are well formed."""
    return [(words, left) for words, left in
            (entry for entry in entries or () if isinstance(entry, list) and len(entry) == 2)
            if isinstance(words, str) and words and isinstance(left, int)]
