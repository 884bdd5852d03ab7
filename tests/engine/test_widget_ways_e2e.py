"""Widgets as kits make them: a choice refused on a disabled option closes the list it
opened; typing goes where the page puts the caret as its field takes focus (a mask's
template); a hover waits for the tooltip a move arms; a drag and a drag by a distance wait
for the drop the page plays; a range's thumb that passes the other says where it stopped
and that the other moved; a focus proxy a pixel wide is no control; a control named by
words far down a long page is found in them; a control a dialog covers keeps its ref from
the dialog's own of its name; marks kits give by data attributes, a button's shown value
beside the label that names it, and what a control shows hidden from assistive technology
are read; a menu a hover left open over an element is left by the pointer before its click;
words a padding holds apart name a control apart; an editor with no name is not named by its
words in reports; on both transports."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto, js, line_of, ref, text_of, value_of, watch_listeners
from tabsteward.bridge.engine import actions, dragging
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse
from tabsteward.bridge.errors import TargetNotInteractable

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


async def opened(tab: Tab, site: Site) -> None:
    await watch_listeners(tab)
    await goto(tab, site.url("widgetways.html"))


async def test_a_choice_refused_on_a_disabled_option_closes_the_list_it_opened(
        tab: Tab, site: Site) -> None:
    # (Radix's select: refused, its list left open over the page, covering what comes next)
    await opened(tab, site)
    with pytest.raises(TargetNotInteractable, match=r"disabled; nothing was clicked \(its "
                                                    r"list was closed again with Escape\)"):
        await actions.select(tab, parse("#fruit"), ["Carrot"])
    assert await js(tab, "!document.getElementById('fruits')")
    assert await text_of(tab, "#fruit") == "Apple"


async def test_typing_goes_where_the_page_puts_the_caret_as_its_field_takes_focus(
        tab: Tab, site: Site) -> None:
    # (IMask's date with its template shown: typed at the end, every digit refused)
    await opened(tab, site)
    out = await actions.enter_text(tab, parse("#date"), "03152024", "type")
    assert out.changes[0] == "value now '03/15/2024'", out.text()
    assert await value_of(tab, "#date") == "03/15/2024"


async def test_a_hover_waits_for_the_tooltip_its_move_arms(tab: Tab, site: Site) -> None:
    # (Radix's tooltip: its delay armed on pointermove, and the hover said nothing of it)
    await opened(tab, site)
    out = await actions.hover(tab, parse("#add"))
    assert 'shows the tooltip "Add to library"' in out.changes, out.text()


async def test_a_drag_waits_for_the_drop_the_page_plays(tab: Tab, site: Site) -> None:
    # (@hello-pangea/dnd: the card moved 330 ms after the release, the report before it)
    await opened(tab, site)
    out = await dragging.drag(tab, parse("#card"), parse("#h2"))
    assert any(c.startswith("it moved to another list") for c in out.changes), out.text()
    assert 'the page now shows "In progress (0)", "Done (1)"' in out.changes, out.text()


async def test_a_drag_by_a_distance_waits_for_the_drop_the_page_plays(
        tab: Tab, site: Site) -> None:
    await opened(tab, site)
    out = await dragging.drag_by(tab, parse("#card"), 216, 0)
    assert any(c.startswith('the page now shows "In progress (0)"') for c in out.changes), \
        out.text()
    assert await js(tab, "document.getElementById('done').contains("
                         "document.getElementById('card'))")


async def test_a_thumb_that_passes_the_other_says_where_it_stopped_and_that_the_other_moved(
        tab: Tab, site: Site) -> None:
    # (MUI's range: 20 to 37, the low thumb set to 50 stays at 37 and the other takes 50;
    # the fill said "value now '37'" alone)
    await opened(tab, site)
    out = await actions.enter_text(tab, parse('loc=slider "Price range"'), "50", "fill")
    assert "it is not '50': the field, or the page, put it at '37'" in out.changes, out.text()
    assert "\"Price range\" now '50'" in out.changes, out.text()
    assert await text_of(tab, "#range-out") == "Range 37 to 50"


async def test_a_focus_proxy_a_pixel_wide_is_no_control(tab: Tab, site: Site) -> None:
    # (Radix's toast: two nameless `clickable` lines around the toast)
    await opened(tab, site)
    shot = await tab.snapshot(interactive=False)
    assert "- clickable @" not in shot.text, shot.text  # (no nameless ones)
    assert "proxy" not in shot.text, shot.text


async def test_a_control_named_by_words_far_down_a_long_page_is_found_in_them(
        tab: Tab, site: Site) -> None:
    # (a toast's Close, the page's only one: its card was read from the page's start and
    # ran out of words before the toast's)
    await opened(tab, site)
    await actions.click(tab, parse('loc=button "Close" in "Scheduled: Catch up"'))
    assert await text_of(tab, "#out") == "toast closed"


async def test_a_control_a_dialog_covers_keeps_its_ref_from_the_dialogs_own_of_its_name(
        tab: Tab, site: Site) -> None:
    # (a consent banner's "Reject All" under the preferences' own: the dialog's took the
    # banner's ref, not [new], and a click on the ref the agent had read rejected there)
    await opened(tab, site)
    shot = await tab.snapshot(interactive=True)
    banner = ref(shot, "button", "Reject All")
    await actions.click(tab, parse("#prefs"))
    shot = await tab.snapshot(interactive=True)
    line = next(ln for ln in shot.text.splitlines() if 'button "Reject All"' in ln)
    assert banner not in line, shot.text
    assert "[new]" in line, shot.text


async def test_marks_kits_give_by_data_attributes_and_labels_are_read(
        tab: Tab, site: Site) -> None:
    # (Mantine: a stepper with no step current, a date button showing no date, last
    # month's 30 a day like this month's)
    await opened(tab, site)
    shot = await tab.snapshot(interactive=True)
    assert line_of(shot, ref(shot, "button", "Verify email")).endswith("[current]"), shot.text
    assert "current" not in line_of(shot, ref(shot, "button", "Get access")), shot.text
    assert 'value="December 17, 2026"' in line_of(shot, ref(shot, "button", "Pick date")), \
        shot.text
    assert "[other-month]" in line_of(shot, ref(shot, "button", "30")), shot.text
    assert "other-month" not in line_of(shot, ref(shot, "button", "1")), shot.text
    # (a fares calendar's price, shown hidden from assistive technology: no price at all)
    assert line_of(shot, ref(shot, "checkbox", "5 January 2027")).endswith('value="5 €54"'), \
        shot.text


async def test_a_menu_a_hover_left_open_over_the_element_is_left_by_the_pointer_first(
        tab: Tab, site: Site) -> None:
    # (a shop's mega menu shown by its item's :hover: after a hover on "Women" every click
    # below it was refused as covered by the menu, and no command closes it)
    await opened(tab, site)
    await actions.hover(tab, parse("#women"))
    await actions.click(tab, parse("#filter"))
    assert await text_of(tab, "#out") == "filters opened"


async def test_words_a_padding_holds_apart_name_a_control_apart(tab: Tab, site: Site) -> None:
    # (a Places suggestion: `clickable "10 Downing StreetLondon, UK"`, and a text locator
    # of the words a person reads found nothing)
    await opened(tab, site)
    shot = await tab.snapshot(interactive=True)
    assert ref(shot, "clickable", "10 Downing Street London, UK"), shot.text
    await actions.click(tab, parse('loc=text "Downing Street London"'))
    assert await text_of(tab, "#out") == "chose Downing Street"


async def test_an_editor_with_no_name_is_not_named_by_its_words_in_reports(
        tab: Tab, site: Site) -> None:
    # (Slate, Draft: `typed into @4 (textbox "The quick brown fox")`, a name no locator takes)
    await opened(tab, site)
    await actions.enter_text(tab, parse("#slate"), "The quick brown fox", "fill")
    out = await actions.enter_text(tab, parse("#slate"), " jumps", "type")
    assert "quick" not in out.did, out.did
    assert out.changes[0] == "value now 'The quick brown fox jumps'", out.text()
