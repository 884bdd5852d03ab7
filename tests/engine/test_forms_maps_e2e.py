"""Surveys, maps and seat plans as pages draw them: an ARIA radio a label wraps is one line
named by the label's words; a survey's next questions laid out see-through below a page
that does not scroll are not shown; the controls of a map drawn as one image show in the
full snapshot as in -i, and one a class marks chosen in a group of its own says so; a seat
a class and a no-entry pointer mark taken is [disabled]; a field a picker the page lays
elsewhere writes to is said changed (on a page of many fields, the focused one); a map a
drag pans says how far its pane moved; on both transports."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto, line_of, ref, text_of, value_of, watch_listeners
from tabsteward.bridge.engine import actions, dragging
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse
from tabsteward.bridge.errors import TargetNotInteractable

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


async def test_an_aria_radio_a_label_wraps_is_one_line_named_by_the_labels_words(
        tab: Tab, site: Site) -> None:
    # (Google Forms: `clickable "Morning"` and a nameless `radio loc=div.rad in "Morning"`
    # for each option; a click on the first said nothing of the radio)
    await watch_listeners(tab)
    await goto(tab, site.url("formsmaps.html"))
    shot = await tab.snapshot(interactive=True)
    assert 'clickable "Morning"' not in shot.text, shot.text
    assert "div.rad" not in shot.text, shot.text
    out = await actions.check(tab, parse(ref(shot, "radio", "Afternoon")), True)
    assert out.changes[0] == "now checked", out.text()
    assert await text_of(tab, "#out") == "session Afternoon"


async def test_the_controls_of_a_map_drawn_as_one_image_show_in_the_full_snapshot(
        tab: Tab, site: Site) -> None:
    # (`svg role=img`: -i listed its states, the full snapshot only the image)
    await watch_listeners(tab)
    await goto(tab, site.url("formsmaps.html"))
    full = await tab.snapshot(interactive=False)
    texas = ref(full, "clickable", "Texas")
    assert line_of(full, texas).startswith("  - "), full.text  # (under the image's line)
    short = await tab.snapshot(interactive=True)
    assert ref(short, "clickable", "Texas") == texas
    await actions.click(tab, parse(texas))
    assert await text_of(tab, "#out") == "state Texas"


async def test_a_seat_its_class_and_a_no_entry_pointer_mark_taken_is_disabled(
        tab: Tab, site: Site) -> None:
    await watch_listeners(tab)
    await goto(tab, site.url("formsmaps.html"))
    shot = await tab.snapshot(interactive=True)
    taken = ref(shot, "clickable", "Seat C5")
    assert line_of(shot, taken).endswith("[disabled]"), shot.text
    assert "disabled" not in line_of(shot, ref(shot, "clickable", "Seat C4"))
    with pytest.raises(TargetNotInteractable, match="is disabled; nothing was clicked"):
        await actions.click(tab, parse(taken))


async def test_questions_waiting_see_through_below_a_page_that_does_not_scroll_are_not_shown(
        tab: Tab, site: Site) -> None:
    # (a Typeform-like survey: every question and its thanks were listed at once)
    await goto(tab, site.url("offstage.html"))
    shot = await tab.snapshot(interactive=False)
    assert "How did you hear" not in shot.text, shot.text
    assert "Thanks" not in shot.text, shot.text
    await actions.click(tab, parse("#ok"))
    shot = await tab.snapshot(interactive=False)
    assert 'button "A friend"' in shot.text, shot.text
    assert "first name" not in shot.text, shot.text


async def test_a_field_a_picker_laid_elsewhere_writes_to_is_said_changed(
        tab: Tab, site: Site) -> None:
    # (flatpickr's range: its days deep in a box at the body's end, the field's new value
    # unsaid, the second day's click saying nothing at all)
    await goto(tab, site.url("formsmaps.html"))
    await actions.click(tab, parse("#dates"))
    out = await actions.click(tab, parse('loc=clickable "March 10"'))
    assert "\"Travel dates\" now 'Mar 10'" in out.changes, out.text()
    out = await actions.click(tab, parse('loc=clickable "March 17"'))
    assert "\"Travel dates\" now 'Mar 10 to Mar 17'" in out.changes, out.text()


async def test_a_state_a_class_marks_chosen_in_a_group_of_its_own_says_so(
        tab: Tab, site: Site) -> None:
    # (a D3 map: each state's path in a <g> with its label, no sibling to tell its mark by)
    await watch_listeners(tab)
    await goto(tab, site.url("formsmaps.html"))
    shot = await tab.snapshot(interactive=True)
    await actions.click(tab, parse(ref(shot, "clickable", "Nevada")))
    shot = await tab.snapshot(interactive=True)
    assert line_of(shot, ref(shot, "clickable", "Nevada")).endswith("[current]"), shot.text
    assert "current" not in line_of(shot, ref(shot, "clickable", "Oregon")), shot.text


async def test_a_map_a_drag_pans_says_how_far_what_it_holds_moved(
        tab: Tab, site: Site) -> None:
    # (Leaflet: "it stands where it stood", and the agent took the pan for failed)
    await goto(tab, site.url("formsmaps.html"))
    out = await dragging.drag_by(tab, parse("#map"), -60, 20)
    assert "it stands where it stood; what it holds moved by -60,20" in out.changes, out.text()


async def test_on_a_page_of_many_fields_the_focused_one_a_keypad_writes_to_is_said_changed(
        tab: Tab, site: Site) -> None:
    # (more fields than the page-wide watch takes: only the one with the focus is watched,
    # so a keypad's key says what it wrote, and a field far off the page filled says nothing)
    await watch_listeners(tab)
    await goto(tab, site.url("keypadform.html"))
    await actions.click(tab, parse("#amount"))
    out = await actions.click(tab, parse('loc=clickable "7"'))
    assert "\"Amount\" now '7'" in out.changes, out.text()
    assert not any("Reference" in c for c in out.changes), out.text()
    assert await value_of(tab, "#reference") == "TX-7"
