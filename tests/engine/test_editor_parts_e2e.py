"""Rich-text editors as kits draw them: a list item's marker laid out of the flow (Quill's)
parts no line of the markdown; the focus a toolbar hands back to its editor is said with
the editor's lines apart; `type` after a toolbar left the caret at the end of a heading
the editor keeps an empty paragraph after (TipTap's) goes on with the heading, and after
an Enter goes into the new line; on both transports."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto, js, run_tool
from tabsteward.bridge.engine.tab import Tab

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


async def test_a_list_items_marker_laid_out_of_the_flow_parts_no_line(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("editorparts.html"))
    md = (await run_tool(tab, "text", markdown=True)).text
    assert "- first item\n- second item" in md, md


async def test_the_focus_a_toolbar_hands_back_is_said_with_the_editors_lines(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("editorparts.html"))
    said = (await run_tool(tab, "click", target="#heading")).text
    assert 'focus moved to textbox "Story", value "Hello world\\none\\ntwo"' in said, said


async def test_typing_after_a_heading_goes_on_with_it_not_into_the_kept_paragraph(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("editorparts.html"))
    await run_tool(tab, "click", target="#make-title")
    await run_tool(tab, "type", target="#post", text=" and more")
    assert await js(tab, "document.querySelector('#post h2').textContent") == \
        "My Title and more"
    await run_tool(tab, "press", keys="Enter")
    await run_tool(tab, "type", target="#post", text="Body")
    assert await js(tab, "document.getElementById('post').innerText.trim()") == \
        "My Title and more\nBody"
