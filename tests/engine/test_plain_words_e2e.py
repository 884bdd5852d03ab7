"""Words as a person reads them: a line break parts them, and what the page's style shows
is named though its markup says hidden."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto, ref, run_tool, watch_listeners
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse

pytestmark = pytest.mark.browser


async def test_a_line_break_parts_the_words_of_a_containers_name(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("plainwords.html"))
    shot = await tab.snapshot(interactive=True)
    assert '- group "Email digests A weekly summary of activity"' in shot.text, shot.text


async def test_a_button_marked_hidden_that_its_style_shows_is_named(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("plainwords.html"))
    shot = await tab.snapshot(interactive=True)
    assert ref(shot, "button", "Load more posts"), shot.text


async def test_a_box_that_takes_clicks_around_controls_keeps_its_words_under_it(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("plainwords.html"))
    shot = await tab.snapshot()
    lines = [ln.strip() for ln in shot.text.splitlines()]
    at = lines.index("> Adults")
    assert lines[at + 1].startswith('- button "\u2212"'), shot.text
    assert lines[at + 2] == "> 2", shot.text
    assert "> Children" in lines


async def test_a_list_whose_box_listens_for_its_items_keeps_its_items(
        tab: Tab, site: Site) -> None:
    await watch_listeners(tab)
    await goto(tab, site.url("plainwords.html"))
    shot = await tab.snapshot(interactive=True)
    assert '- listitem "Ada — Owner"' in shot.text, shot.text
    assert '- listitem "Grace — Admin"' in shot.text, shot.text


async def test_a_table_whose_box_takes_its_rows_clicks_keeps_its_rows_and_a_row_clicks_as_itself(
        tab: Tab, site: Site) -> None:
    # (DataTables' select: one listener on the wrapper; the table was one clickable line,
    # no row to click, and a row's click said it activated the whole wrapper)
    await watch_listeners(tab)
    await goto(tab, site.url("delegatetable.html"))
    shot = await tab.snapshot()
    assert "- row | Jena Gaines | Edinburgh |" in shot.text, shot.text
    out = await actions.click(tab, parse('loc=row "Jena Gaines"'))
    assert out.did.startswith('clicked @'), out.text()
    assert "activates" not in out.did, out.text()
    assert 'the page said "selected: Jena Gaines"' in out.changes, out.text()


async def test_a_block_editors_block_is_not_hinted_by_the_block_before_it(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("plainwords.html"))
    shot = await tab.snapshot(interactive=True)
    pears = [i for i in shot.refs.values() if i.get("value") == "pears and plums"]
    assert len(pears) == 1, shot.text
    assert not pears[0].get("hint"), shot.text


async def test_an_ordered_lists_items_show_their_numbers_and_a_bullet_stays_with_its_block(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("plainwords.html"))
    shot = await tab.snapshot()
    lines = [ln.strip() for ln in shot.text.splitlines()]
    for line in ("> 1. Open the lid", "> 2. Pour the water", "> 4. Stir", "> \u2022 alpha",
                 "> \u2022 beta"):
        assert line in lines, shot.text


async def test_markdown_numbers_lists_keeps_bullets_with_their_words_and_marks_emphasis(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("plainwords.html"))
    text = (await run_tool(tab, "text", markdown=True)).text
    lines = text.splitlines()
    for line in ("1. Open the lid", "2. Pour the water", "4. Stir", "- alpha", "- beta",
                 "Say **hello** and *wave*, then go."):
        assert line in lines, text


async def test_text_shows_a_selects_choice_not_the_options_of_one_kept_out_of_sight(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("plainwords.html"))
    text = (await run_tool(tab, "text")).text
    assert "Germany" not in text, text
    assert "Free" not in text, text
    assert "Plan Pro" in text, text


async def test_a_row_of_labelled_fields_is_no_group_named_by_a_label(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("fieldrows.html"))
    for interactive in (False, True):
        shot = await tab.snapshot(interactive=interactive)
        assert "group" not in shot.text, shot.text
        assert ref(shot, "textbox", "Email"), shot.text
        assert ref(shot, "switch", "Dark mode"), shot.text


async def test_a_field_given_a_landmarks_role_is_still_a_field(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("fieldrows.html"))
    shot = await tab.snapshot(interactive=True)
    assert ref(shot, "textbox", "Filter table"), shot.text
    out = await actions.enter_text(tab, parse('loc=textbox "Filter table"'), "HTTPS", "fill")
    assert out.did.startswith("filled"), out.text()


async def test_a_tab_holding_a_link_named_as_it_is_has_one_ref(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("fieldrows.html"))
    shot = await tab.snapshot(interactive=True)
    assert ref(shot, "tab", "Stops"), shot.text
    assert 'link "Stops"' not in shot.text, shot.text
    assert 'link "Booking"' not in shot.text, shot.text
    await actions.click(tab, parse(ref(shot, "tab", "Stops")))
    shot = await tab.snapshot()
    assert "Stops panel" in shot.text, shot.text
    assert "Booking panel" not in shot.text, shot.text


async def test_a_glyph_an_icon_button_draws_through_its_slot_is_the_buttons(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("slotglyph.html"))
    shot = await tab.snapshot(interactive=True)
    assert ref(shot, "button", "Favorite"), shot.text
    assert "\u2606" not in shot.text, shot.text
