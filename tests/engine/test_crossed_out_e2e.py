"""Words a page crosses out: a control whose words a line is drawn through (a size sold out,
a colour no longer made) is marked `[struck]`, where a line drawn around a box of its own
does not reach it; markdown crosses out such words (an old price, a task done) and keeps
apart the words of boxes side by side with no space between them; a group its aria-label
names is a line over its controls; on both transports."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto, run_tool
from tabsteward.bridge.engine.tab import Tab

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


def line_of(text: str, start: str) -> str:
    return next(ln for ln in text.splitlines() if ln.strip().startswith(start))


async def test_a_control_whose_words_are_crossed_out_is_marked_struck(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("soldout.html"))
    shot = await tab.snapshot(interactive=True)
    for crossed in ('button "9"', 'button "10"', 'radio "Blue"'):  # (a class, <s>, a label)
        assert "[struck]" in line_of(shot.text, f"- {crossed}"), shot.text
    for plain in ('button "8"', 'button "11"', 'radio "Red"', 'checkbox "Toggle Walk dog"'):
        assert "[struck]" not in line_of(shot.text, f"- {plain}"), shot.text


async def test_a_line_drawn_through_words_stops_at_a_box_of_its_own_among_them(
        tab: Tab, site: Site) -> None:
    # (CSS draws no line through an inline-block: the button beside the ended deal is not)
    await goto(tab, site.url("soldout.html"))
    shot = await tab.snapshot(interactive=True)
    assert "[struck]" not in line_of(shot.text, '- button "Notify me"'), shot.text
    md = (await run_tool(tab, "text", markdown=True)).text
    assert "~~Summer deal ended~~ Notify me" in md, md


async def test_markdown_crosses_out_an_old_price_a_sold_out_size_and_a_task_done(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("soldout.html"))
    md = (await run_tool(tab, "text", markdown=True)).text
    assert "~~$120.00~~ $89.00" in md, md
    assert "Red ~~Blue~~" in md, md
    assert "- [x] ~~Buy milk~~" in md, md
    assert "- [ ] Walk dog" in md, md


async def test_markdown_keeps_apart_the_words_of_boxes_side_by_side(tab: Tab, site: Site) -> None:
    # (size buttons with no space between them in the markup read "89 1011")
    await goto(tab, site.url("soldout.html"))
    md = (await run_tool(tab, "text", markdown=True)).text
    assert "8 ~~9~~ ~~10~~ 11" in md, md


async def test_a_group_its_aria_label_names_is_a_line_over_its_controls(
        tab: Tab, site: Site) -> None:
    # (Bootstrap's btn-group of sizes, `role=group aria-label="Size"`: its radios were listed
    # with nothing saying what they choose)
    await goto(tab, site.url("soldout.html"))
    shot = await tab.snapshot(interactive=False)
    lines = shot.text.splitlines()
    at = lines.index('- group "Size"')
    assert lines[at + 1].startswith('  - button "8" @'), shot.text
