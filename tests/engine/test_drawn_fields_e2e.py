"""Fields a page draws with boxes of its own, its form's field kept unseen: a check box
see-through and letting the pointer through beside the box drawn for it (in a label, by a
label's `for`, in a shadow root), a select's field laid under the box that shows its tags,
and one kept for screen readers in a box a pixel wide, are each a control with a ref, named
by its label and showing its value, and `check` and `select` work on them (a click that
opens a select's list says so); a popover kept
see-through in place still shows nothing; on both transports."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto, line_of, ref, text_of
from tabsteward.bridge.engine import actions, checking
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

CHECKS = [("I accept the terms", "terms true"), ("Send me news", "news true"),
          ("Email notifications", "notifications true")]


async def test_a_check_box_drawn_beside_its_see_through_input_has_a_ref_and_its_label_words(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("drawnfields.html"))
    shot = await tab.snapshot(interactive=False)
    for name, _ in CHECKS:
        assert line_of(shot, ref(shot, "checkbox", name)).strip().startswith(
            f'- checkbox "{name}" @'), shot.text


@pytest.mark.parametrize(("name", "said"), CHECKS)
async def test_check_ticks_a_check_box_drawn_beside_its_see_through_input(
        tab: Tab, site: Site, name: str, said: str) -> None:
    await goto(tab, site.url("drawnfields.html"))
    shot = await tab.snapshot(interactive=True)
    out = await checking.check(tab, parse(ref(shot, "checkbox", name)), True)
    assert "now checked" in out.text(), out.text()
    assert await text_of(tab, "#out") == said


async def test_a_select_whose_field_lies_under_its_tags_is_a_combobox_with_their_words(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("drawnfields.html"))
    shot = await tab.snapshot(interactive=True)
    line = line_of(shot, ref(shot, "combobox", "Tags"))
    assert 'value="Alpha"' in line, shot.text
    out = await actions.select(tab, parse(ref(shot, "combobox", "Tags")), ["Beta"])
    assert await text_of(tab, "#out") == "tags: Alpha,Beta", out.text()
    assert "opened the list" not in out.text(), out.text()  # (a choice opens it)


async def test_a_click_that_opens_a_list_of_options_says_so(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("drawnfields.html"))
    shot = await tab.snapshot(interactive=True)
    out = await actions.click(tab, parse(ref(shot, "combobox", "Tags")))
    assert 'opened the list "Tags" of 2 options' in out.text(), out.text()


async def test_a_select_whose_field_is_kept_for_screen_readers_is_a_combobox_by_its_box(
        tab: Tab, site: Site) -> None:
    # (PrimeVue's MultiSelect: its label and the box's words were gone with it)
    await goto(tab, site.url("drawnfields.html"))
    shot = await tab.snapshot(interactive=True)
    line = line_of(shot, ref(shot, "combobox", "Visited"))
    assert 'value="Select cities"' in line, shot.text
    out = await actions.select(tab, parse(ref(shot, "combobox", "Visited")), ["Lyon"])
    assert await text_of(tab, "#out") == "cities: Lyon", out.text()
    assert "value now 'Lyon'" in out.text(), out.text()


async def test_a_popover_kept_see_through_in_place_still_shows_nothing(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("drawnfields.html"))
    shot = await tab.snapshot(interactive=False)
    assert "Ghost action" not in shot.text, shot.text
