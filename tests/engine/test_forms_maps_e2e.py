"""Survey options, maps and seat plans as pages draw them: an ARIA radio a label wraps is
one line named by the label's words; the controls of a map drawn as one image show in the
full snapshot as in -i; a seat a class and a no-entry pointer mark taken is [disabled];
on both transports."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto, line_of, ref, text_of, watch_listeners
from tabsteward.bridge.engine import actions
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
