"""Text entry and keys: fill or type into a field, press keys."""

from __future__ import annotations

import contextlib
import json
from typing import Any

from ..cdp.connection import Command
from ..errors import (
    RefNotFound,
    TabstewardError,
    TargetNotInteractable,
    UsageError,
)
from ..policy import keystrokes
from . import keyboard, keys, pasting, pointer, replies, stepping
from .acting import Outcome, _call_on, describe, guarded, input_then_read, read_back
from .model import Handle
from .pointer import _report_state
from .reporting import replied, report_invalid, report_replied, report_said
from .tab import Tab
from .targets import RefTarget, Target

# fields with no text caret, whose value is set as a picker sets it, and the form each
# value must take (HTML's value formats)
_FORMATS = {"date": "YYYY-MM-DD", "time": "HH:MM or HH:MM:SS", "month": "YYYY-MM",
            "datetime-local": "YYYY-MM-DDTHH:MM", "week": "YYYY-Www (2024-W07)",
            "number": "a number such as -12.5", "range": "a number such as 40",
            "color": "#rrggbb"}

# null, and nothing set, when the field would refuse the value (the browser empties it)
_FIELD_IN = ("(e => {{ const f = e && e.querySelector('input:not([type=hidden]):not([type=range])"
             ":not([type=checkbox]):not([type=radio]), textarea'); return f && "
             "f.checkVisibility() && !f.readOnly && !f.disabled ? __ts.idOf(f) : 0 }})"
             "(__ts.get({}))")


def _same_number(value: Any, text: str) -> bool:
    """Whether a number field's value is the number typed (12.50 is 12.5)."""
    try:
        return float(str(value)) == float(text)
    except ValueError:
        return str(value) == text


async def _field_in(tab: Tab, handle: Handle) -> Handle | None:
    """The text field a widget holds (a counter's number between its buttons), if one shows
    and takes text."""
    found = await tab.evaluate(handle.frame, _FIELD_IN.format(handle.local))
    if not isinstance(found, int) or found <= 0:
        return None
    return Handle(handle.frame, found, tab.ref_of(handle.frame, found, "textbox", ""))


KEYED_MAX = 64  # characters a fill types a key at a time where the page hears the keys

_SET_VALUE = """function(v) {
  if (v !== '' && this.tagName === 'INPUT') {
    const probe = document.createElement('input');
    probe.type = this.type === 'range' ? 'number' : this.type;
    probe.value = v;
    if (probe.value === '' || (this.type === 'color' && probe.value !== v.toLowerCase()))
      return null;
  }
  this.focus();  // (as a person's click into it: the field before loses focus, and saves)
  const proto = this.tagName === 'TEXTAREA' ? HTMLTextAreaElement.prototype
                                           : HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(proto, 'value').set.call(this, v);
  // (as the browser's own: input crosses a shadow root to its host, md-slider's; change not)
  this.dispatchEvent(new Event('input', {bubbles: true, composed: true}));
  this.dispatchEvent(new Event('change', {bubbles: true}));
  return this.value;
}"""


async def enter_text(tab: Tab, target: Target, text: str, mode: str) -> Outcome:
    """fill (replace) or type (append) into an input, textarea or contenteditable."""
    if len(text) > 100_000:
        raise UsageError("text is over 100,000 characters; nothing was typed")
    # a person types only into a field they can see and reach: scroll to it, hit-test it
    tab.attach_ahead(keyboard.TEXT)
    handle, info, placed = await tab.resolve_placed(target, aiming=False)
    what = describe(handle, info)
    if info.get("disabled"):  # natively or by aria-disabled (the page's disabledOf)
        raise TargetNotInteractable(f"{what} is disabled; nothing was typed")
    kind = str(info.get("type") or "")
    if info.get("tag") == "input" and kind in _FORMATS and kind != "number" and mode == "type":
        # (its keys go to one part at a time, day, month, hour: typed words land scrambled)
        raise UsageError(f"{what} takes a {kind} by its parts' keys, not as typed words; "
                         f"nothing was typed. To set it, use fill with a {kind} written as "
                         f"{_FORMATS[kind]}")
    tab.check_no_dialog()
    await tab.permit(mode, info, text=text)
    await tab.point(handle, what, placed)
    verb = "filled" if mode == "fill" else "typed into"
    out = Outcome(f"{verb} {what}")
    out.suggests = info.get("role") == "combobox" or info.get("completes") is True
    if mode == "fill" and info.get("role") in ("slider", "spinbutton") and \
            info.get("tag") not in ("input", "textarea") and not info.get("editable"):
        field = await _field_in(tab, handle)
        if field is None:
            # a widget of the page's own: no text goes in, its keys move it
            return await stepping.set_number(tab, handle, str(info["role"]), what, text, out)
        handle = field  # a counter that holds its number's field (Webix's): typed there
    if info.get("tag") == "input" and kind in _FORMATS and mode == "fill" and not (
            kind == "number" and await tab.evaluate(handle.frame,
                                                    f"__ts.keysHeard({handle.local})")):
        # these have no text caret: set the value the way a picker would (a number whose
        # keys the page hears is typed, below: flatpickr's year box reads it on keyup)
        value = await _call_on(tab, handle, _SET_VALUE, text)
        if value is None:
            raise UsageError(f"{what} takes a {kind} written as {_FORMATS.get(kind, kind)}; "
                             f"{text[:40]!r} is not one, and nothing was typed")
        out.changes.append(f"value now {value!r}")
        out.data["value"] = value
        if kind in ("number", "range") and not _same_number(value, text):
            # (its bounds or step, or the page: a range's other thumb it passed, MUI's)
            out.changes.append(f"it is not {text!r}: the field, or the page, put it at "
                               f"{value!r}")
        # (what its input and change made the page say: a filter's count of results)
        report_replied(tab, handle.frame, await replied(tab, handle.frame), out)
        return out
    # focus it and place the caret (page_info.js `prepare`), once the debugger that sends
    # the text is there: the page is shown to have focus, as a person's would
    await tab.ready_for(keyboard.TEXT)
    prepare = f"__ts.prepare({handle.local}, {json.dumps(mode)})"
    state = await tab.evaluate(handle.frame, prepare)
    if isinstance(state, str) and state.startswith("moved:") and state[6:].isdigit():
        # the page handed focus on to another field (its raw number's): the text goes
        # there, once policy allowed it, and that field is read back
        local = int(state[6:])
        handle = Handle(handle.frame, local, tab.ref_of(handle.frame, local, "textbox", ""))
        await tab.permit(mode, await tab.info(handle), text=text)
        prepare = f"__ts.prepare({handle.local}, {json.dumps(mode)})"
        state = await tab.evaluate(handle.frame, prepare)
    if state == "readonly":
        # a person clicks into a field first: a kit's may take text only then (Ant Design's
        # date field, read-only until pressed, opens its picker on the press)
        clicked = await pointer.click(tab, RefTarget(handle.ref))
        out.changes += [c for c in clicked.changes if c not in out.changes]
        state = await tab.evaluate(handle.frame, prepare)
        if state == "readonly":
            raise TargetNotInteractable(f"{what} is readonly, also once clicked; nothing was "
                                        "typed")
    # (the page hears the field's keys: a fill types them, or ends on its last as a key)
    heard = isinstance(state, str) and state.endswith("+keys")
    if heard:
        state = state.removesuffix("+keys")
    room = None  # how many characters it takes (its maxlength); None for any number
    if isinstance(state, str) and state.startswith("ok:") and state[3:].isdigit():
        state, room = "ok", int(state[3:])
    keyed = state == "keys"  # a key at a time, focus moving on (a date's segments)
    if keyed:
        state, room = "ok", 0
    # a code editor's own field: the editor's keys select what it holds, or go to its end
    chord = state[5:] if isinstance(state, str) and state.startswith("keys:") else ""
    if chord:
        state = "ok"
    if state == "gone":
        raise RefNotFound(f"{what} is no longer in the page; nothing was typed. Take a new "
                          "snapshot")
    if state != "ok":
        if str(state).startswith("not-text"):
            cell = info.get("role") in ("gridcell", "cell")
            raise TargetNotInteractable(
                f"{what} does not take text ({str(state)[9:]}); nothing was typed" + (
                    f". A grid's cell takes text in the editor it opens: dblclick @{handle.ref}"
                    " (or click it and press the keys), fill the field it shows, then press "
                    "Enter" if cell else ""))
        raise TargetNotInteractable(f"{what} is {state}; nothing was typed")

    typed: list[str] = []

    async def act() -> dict[str, Any] | None:
        """The input, then the field's info read in the barrier's round trip (None when
        it could not be read)."""
        if chord:
            await keyboard.press_chord(tab, keys.parse_chord(chord))
        # (a short text goes in a key at a time where the page hears the field's keys, as
        # a person's typing: a search on keyup, a price the page formats as keys come)
        if mode == "type" or (room is not None and len(text) > room) or (
                heard and len(text) <= KEYED_MAX and all(ord(c) >= 32 for c in text)):
            # (a fill longer than the field takes goes on as typing does: a code's boxes)
            over = await keyboard.type_lines(tab, text, typed, handle, room,
                                             mode == "type" or heard)
            if over.fields and (keyed or room is None):
                out.changes.append(
                    f"its keys went in one at a time, on into the {over.fields} field"
                    f"{'s' if over.fields != 1 else ''} the page moved focus to")
            elif over.fields:
                out.changes.append(
                    f"it takes {room} character{'s' if room != 1 else ''}; the rest went on, "
                    f"a key at a time, into the {over.fields} field"
                    f"{'s' if over.fields != 1 else ''} the page moved focus to")
            if over.dropped:
                out.changes.append(
                    f"{over.dropped} character{'s' if over.dropped != 1 else ''} did not go "
                    "in: " + ("no field had focus any more (the page took it away)"
                              if over.lost else "the field that had focus was full"))
        elif text:
            taken = bool(chord) and await pasting.into_editor(tab, handle, text)
            rich = None if chord else pasting.wanted(str(info.get("tag") or ""), text)
            if not taken and (rich is None or not await pasting.paste(tab, handle, text, rich)):
                insert: Command = (keyboard.TEXT, {"text": text}, tab.session_id)
                if not chord:
                    return await input_then_read(tab, _ending_on_a_key(tab, text, heard),
                                                 handle)
                await tab.send(*insert[:2])
        else:
            await keyboard.press_chord(tab, keys.parse_chord("Delete"))
        if chord:  # the editor draws its lines, what its field is read by, on its next frame
            await tab.frame_drawn()
        return await read_back(tab, handle)

    read = await keyboard.stopped_after(guarded(tab, act(), mode, out, barrier=False),
                                        typed, "typed")
    if mode == "fill" and text and not chord and room is None and tab.state.dialog is None and \
            read is not None and read.get("value") == info.get("value") != text and \
            info.get("type") != "password" and not info.get("masked"):
        # the page undid the text put in at once, as a field that takes its keys itself
        # does (PrimeReact's InputNumber formats a price as they come): all of it selected
        # again, its keys go in one at a time, as a person's
        first: dict[str, Any] = read

        async def by_keys() -> dict[str, Any] | None:
            if await tab.evaluate(handle.frame, prepare) != ("ok+keys" if heard else "ok"):
                return first
            await keyboard.insert(tab, text, typed, handle, each=True)
            return await read_back(tab, handle)

        typed = []
        read = await keyboard.stopped_after(guarded(tab, by_keys(), mode, out, barrier=False),
                                            typed, "typed")
    if tab.state.dialog is None:
        after = read if read is not None else await tab.info(handle)
        shown = "(hidden)" if info.get("type") == "password" or info.get("masked") else \
            after.get("value")
        out.changes.append(f"value now {shown!r}")
        out.data["value"] = shown
        if mode == "fill" and text and shown != text and shown == info.get("value"):
            # (Ant Design's date field once its picker closed: it writes its own value back)
            out.changes.append("the page put its value back: the text did not take (a kit's "
                               "field may take text only once clicked, its picker open)")
        report_invalid(tab, handle.frame, after.get("invalid"), out)  # an Enter sent a form
        report_said(after.get("said"), out)
        # (what the text armed for the next frame or at once, as a click's: a list a view
        # transition redraws a frame later; not a debounce's, a look after waits for that)
        if out.armed and await replies.due_within(tab, out.armed_in, pointer.REPLY_WAIT):
            with contextlib.suppress(TabstewardError):  # (the page went meanwhile)
                await replies.came(tab, out.armed_in, cap=pointer.REPLY_WAIT, data=False)
                report_replied(tab, handle.frame, await replied(tab, handle.frame), out)
    return out


WRITING = ("Backspace", "Delete")  # keys that change a field's text, beside characters


def _pressed_state(state: dict[str, Any], parts: list[str]) -> dict[str, Any]:
    """The focused element's state as a press's report compares it: not whether it is
    invalid (the fields an Enter found invalid are said apart), nor its value emptied
    unless a key wrote in it (a chip field an Enter empties into a tag says the tag, not
    ''; a combobox an Enter filled with its choice says it)."""
    states = [s for s in state.get("states") or [] if s != "invalid"]
    writes = any(len(p) == 1 or p in WRITING or p.lower().endswith(("+v", "+x"))
                 for p in parts)
    return {**state, "states": states} | ({} if writes or state.get("value") else
                                          {"value": None})


def _ending_on_a_key(tab: Tab, text: str, heard: bool) -> list[list[Command]]:
    """A fill's text put in at once; where the page hears the field's keys (and the text is
    long, or holds a line break: no Enter pressed), all but its last character, which goes
    in as a key, as a person's typing ends: its listeners read the whole value then."""
    last = text[-1]
    if not heard or ord(last) < 32:
        return [[(keyboard.TEXT, {"text": text}, tab.session_id)]]
    key: list[Command] = [(keyboard.KEY, ev, tab.session_id)
                          for ev in keys.events(keys.Chord((), keys.key_for(last), 0))]
    head: list[Command] = [(keyboard.TEXT, {"text": text[:-1]}, tab.session_id)]
    return [head, key] if len(text) > 1 else [key]


async def press(tab: Tab, spec: str, target: Target | None = None) -> Outcome:
    """Press keys as a person would. Each chord that can activate something (Enter, Space)
    is judged against the element focused when it lands, in whichever frame holds focus;
    the chords between are judged together (see policy/keystrokes.py)."""
    parts = spec.split()
    chords = [keys.parse_chord(part) for part in parts]
    if not chords:
        raise UsageError("no key given; nothing was pressed")
    steps = keystrokes.steps(parts)
    out = Outcome(f"pressed {keystrokes.shown(parts)}")
    tab.attach_ahead(keyboard.KEY)
    handle: Handle | None = None
    keys_in = None  # (the frame focus was in as the keys began: what they changed there)
    held: Handle | None = None  # (the element that had focus then: its state is read back)
    if target is not None:
        handle, was = await tab.resolve_info(target)
        await tab.permit("press", was, keys=" ".join(steps[0]))
        obj = await tab.object_id(handle)
        await tab.send("DOM.focus", {"objectId": obj}, session=handle.frame.session)
        held = handle
    else:
        was = await tab.focused_info() or {}
        await tab.permit("press", was or None, keys=" ".join(steps[0]))
        keys_in = tab.focused_in
        if keys_in is not None:  # (keys in a frame: what they change around it is said too)
            await tab.watch_top(keys_in)
            if isinstance(was.get("local"), int):
                held = Handle(keys_in, int(was["local"]), 0)
    pressed: list[str] = []
    await keyboard.stopped_after(
        guarded(tab, keyboard.press_steps(tab, steps, handle, pressed), "press", out),
        pressed, "pressed")
    # what the keys made the page say, or close (an Escape shutting a dialog), and the
    # fields an Enter or a Space that asked a form to go found invalid: once the timers
    # and frames they armed in reply ran (as a click's: pointer.REPLY_WAIT)
    if tab.state.dialog is None and "url" not in out.data:
        # (with no element named: the frame the keys went to, where focus was)
        frame = handle.frame if handle is not None else \
            keys_in or tab.frames.get(tab.target_id)
        if frame is not None:
            await replies.came(tab, frame.id, cap=pointer.REPLY_WAIT, data=False)
            # (how the element that had focus changed, as a click says: a tree's item an
            # arrow key expanded, a field the keys wrote in; what the page said with it)
            found = await read_back(tab, held) if held is not None and held.frame is frame \
                else None
            if found is not None and found.get("connected") is not False and \
                    found.get("shown") is not False:
                _report_state(tab, _pressed_state(was, parts), _pressed_state(found, parts),
                              out)
            elif found is None:
                found = await replied(tab, frame)
            report_replied(tab, frame, found, out)
            said = (found or {}).get("said")
            if found is not None and (found.get("inDialog") or
                                      (isinstance(said, dict) and said.get("closed"))):
                # a dialog an Escape closes may fade out first, then go once its timers
                # ran: said closed once it went, and the next command finds it gone
                with contextlib.suppress(TabstewardError):  # (the page went meanwhile)
                    await replies.came(tab, frame.id, cap=pointer.CLOSE_WAIT, data=False)
                    if found.get("inDialog"):
                        await pointer.closed_later(tab, frame, out)
    return out
