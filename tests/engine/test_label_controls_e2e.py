"""Controls a page hides behind their own labels (a visually hidden checkbox beside a styled
switch, a radio drawn as a pill) are clicked where a person clicks: on the label, which the
browser passes on to the control; never through a link inside the label."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto, target, text_of
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse
from tabsteward.bridge.errors import TargetError

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(("role", "name", "checked"), [
    ("checkbox", "Email alerts", "email"),  # in its label, clipped to nothing
    ("checkbox", "SMS alerts", "sms"),  # zero-sized, its label apart
    ("radio", "Weekly", "weekly"),  # visibility: hidden
])
async def test_a_control_hidden_behind_its_label_is_clicked_through_the_label(
        tab: Tab, site: Site, role: str, name: str, checked: str) -> None:
    await goto(tab, site.url("toggles.html"))
    shot = await tab.snapshot(interactive=True)
    out = await actions.click(tab, target(shot, role, name))
    assert "now checked" in out.text(), out.text()
    assert await text_of(tab, "#out") == checked


async def test_a_hidden_checkbox_whose_label_is_all_link_is_not_clicked_through_the_link(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("toggles.html"))
    shot = await tab.snapshot(interactive=True)
    with pytest.raises(TargetError, match="nothing was done"):
        await actions.click(tab, target(shot, "checkbox", "Read the terms"))
    assert tab.state.url == site.url("toggles.html")
    assert await text_of(tab, "#out") == ""


async def test_a_control_a_label_stands_in_for_is_one_line_with_one_ref_the_labels(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("toggles.html"))
    shot = await tab.snapshot(interactive=True)
    lines = [ln.strip() for ln in shot.text.splitlines() if "@" in ln]
    # neither the zero-sized inputs nor the knob drawn in a label has a line of its own
    assert [ln.split(" @")[0] for ln in lines] == [
        '- checkbox "Email alerts"', '- checkbox "SMS alerts"', '- radio "Daily"',
        '- radio "Weekly"', '- checkbox "Read the terms"', '- link "Read the terms"',
        "- checkbox"], shot.text
    switch = lines[-1].split()[2]
    out = await actions.click(tab, target(shot, "checkbox", "SMS alerts"))
    assert "now checked" in out.text(), out.text()
    out = await actions.click(tab, parse(switch))
    assert "now checked" in out.text(), out.text()
    assert await text_of(tab, "#out") == "sms,dark"


async def test_the_class_that_hides_a_control_from_sight_says_nothing_of_what_it_is(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("settingrows.html"))
    shot = await tab.snapshot(interactive=True)
    lines = [ln.strip() for ln in shot.text.splitlines() if "@" in ln]
    assert [ln.split(" @")[0] for ln in lines] == ["- checkbox", "- checkbox"], shot.text
    assert not any("hint=" in ln for ln in lines), shot.text  # no "sr only", "visually hidden"
    # the setting's words tell them apart
    await actions.check(tab, parse('loc=input.sr-only in "Dark mode"'), True)
    await actions.check(tab, parse('loc=input.visually-hidden in "Email alerts"'), True)
    assert await text_of(tab, "#out") == "dark,alerts"


async def test_a_toggle_unseen_under_the_words_of_its_box_is_checked_there_and_hinted_by_them(
        tab: Tab, site: Site) -> None:
    # (Fomantic UI: the input lies under a label that names no control, and the kit's
    # script toggles it on a click in its box)
    await goto(tab, site.url("undertoggles.html"))
    shot = await tab.snapshot(interactive=True)
    hints = {info.get("hint"): r for r, info in shot.refs.items()}
    assert set(hints) == {"I agree to the terms", "Phone", "Mail"}, shot.refs
    out = await actions.check(tab, parse(hints["I agree to the terms"]), True)
    assert out.changes == ["now checked", 'the page now shows "terms"'], out.text()
    await actions.check(tab, parse(hints["Mail"]), True)
    assert await text_of(tab, "#out") == "terms mail"
