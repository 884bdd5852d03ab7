"""Parts of a page a person does not see, or sees without words: words that are only in a
hidden button name no box around them (`text=` finds no shown element, nothing is clicked);
`text @N` of a panel hidden now says so; a chart's focusable svg keeps its ref though its
layers are focusable by script; an answer shut to no height is not in the page's text (nor
a live region kept in a pixel for screen readers), and the question that opens it says it;
a control its class hides for good is no hover-only ref, where one a hover shows is; a
chart's tooltip is said once, not once a part; a sortable card's parts are no items of a
list; radios alike say their place where the page gives it (a rating's stars); a field of
no size kept for screen readers is no ref; on both transports."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto, js, line_of, listened_snapshot, ref, run_tool
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.errors import RefNotFound

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


async def test_text_only_in_a_hidden_button_names_no_box_around_it(
        tab: Tab, site: Site) -> None:
    await listened_snapshot(tab, site.url("quietparts.html"))
    with pytest.raises(RefNotFound, match='no shown element has the text "Cancel order"'):
        await run_tool(tab, "click", target="text=Cancel order")
    assert await js(tab, "document.getElementById('log').textContent") == "nothing clicked"


async def test_reading_a_panel_hidden_now_says_it_is_hidden(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("quietparts.html"))
    shown = await run_tool(tab, "text", target="#npm-panel")
    assert "npm install @acme/core" in shown.text, shown.text
    assert "not shown" not in shown.text, shown.text
    await run_tool(tab, "click", target="#pnpm")
    hidden = await run_tool(tab, "text", target="#npm-panel")
    assert "#npm-panel is not shown on the page now" in hidden.text, hidden.text
    assert hidden.data["format"] == "hidden", hidden.data


async def test_a_charts_focusable_svg_keeps_its_ref(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("quietparts.html"))
    chart = ref(await tab.snapshot(interactive=True), "application", "Sales chart")
    await run_tool(tab, "press", target=chart, keys="ArrowRight")
    assert await js(tab, "document.getElementById('chart-log').textContent") == \
        "key ArrowRight"


async def test_an_answer_shut_to_no_height_is_out_of_the_text_until_opened(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("quietparts.html"))
    for markdown in (False, True):
        text = (await run_tool(tab, "text", markdown=markdown)).text
        assert "Can I cancel?" in text, text
        assert "billing settings" not in text, text
        assert "was dropped" not in text, text  # (a screen reader's pixel of a live region)
    said = (await run_tool(tab, "click", target="text=Can I cancel?")).text
    assert 'now expanded; the page now shows "Yes. You can cancel anytime from your billing ' \
        'settings."' in said, said
    await run_tool(tab, "wait", text="billing settings", timeout=5)  # (as it opens)
    assert "billing settings" in (await run_tool(tab, "text")).text


async def test_a_control_hidden_for_good_is_no_hover_only_ref(tab: Tab, site: Site) -> None:
    shot = await listened_snapshot(tab, site.url("quietparts.html"))
    assert 'button "Seek to live"' not in shot.text, shot.text
    assert "[hover-only]" in line_of(shot, ref(shot, "button", "Archive")), shot.text


async def test_a_charts_tooltip_is_said_once_not_once_a_part(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("quietparts.html"))
    out = await run_tool(tab, "hover", target="#plot", at="100,40")
    assert out.data.get("tooltips") == ["East sales : 9800"], out.text


async def test_a_sortable_cards_parts_are_no_items_of_a_list(tab: Tab, site: Site) -> None:
    shot = await listened_snapshot(tab, site.url("quietparts.html"))
    assert 'button "Kickoff meeting"' in shot.text, shot.text
    assert "div.labels" not in shot.text, shot.text
    assert 'clickable "Kickoff meeting"' not in shot.text, shot.text


async def test_radios_alike_say_their_place_where_the_page_gives_it(
        tab: Tab, site: Site) -> None:
    shot = await listened_snapshot(tab, site.url("quietparts.html"))
    stars = [ln.strip() for ln in shot.text.splitlines() if ln.strip().startswith('- radio "star"')]
    assert [s.split("[")[1].split("]")[0] for s in stars] == [
        "1/5", "2/5", "3/5", "4/5", "5/5"], shot.text
    fourth = next(w for w in stars[3].split() if w.startswith("@"))
    await run_tool(tab, "click", target=fourth)
    assert "[checked 4/5" in line_of(await tab.snapshot(interactive=True), fourth)


async def test_a_field_of_no_size_kept_for_screen_readers_is_no_ref(
        tab: Tab, site: Site) -> None:
    shot = await listened_snapshot(tab, site.url("quietparts.html"))
    assert "for screen reader" not in shot.text, shot.text
    assert 'treeitem "src" @' in shot.text, shot.text
