"""Chips drawn inline (a mail's recipients, an item's tags): each is a line named by its
words with its remove control under it, and that control's locator names its chip, not its
place among the others (its glyph, a times sign, `in "bob@example.com"`); a trail of crumbs
and a sentence's links stay as they were; an unnamed check box's hint keeps a title and its
label chip apart; on both transports."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto, js, listened_snapshot, run_tool, under
from tabsteward.bridge.engine.tab import Tab

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

TIMES = "\u00d7"  # the remove glyph the chips draw


async def test_each_inline_chip_is_a_line_over_its_remove_glyph(tab: Tab, site: Site) -> None:
    shot = await listened_snapshot(tab, site.url("chiprows.html"))
    for who in ("alice@example.com", "bob@example.com", "carol@example.com"):
        kids = under(shot, f'- group "{who}"')
        assert len(kids) == 1, shot.text
        assert kids[0].startswith(f'- clickable "{TIMES}"'), shot.text
        assert f'in "{who}"' in kids[0], shot.text
    for tag in ("urgent", "billing", "later"):
        kids = under(shot, f'- group "{tag}"')
        assert len(kids) == 1, shot.text
        assert kids[0].startswith('- button "Remove"'), shot.text


async def test_a_chips_remove_glyph_is_found_by_its_chip_after_the_others_went(
        tab: Tab, site: Site) -> None:
    await listened_snapshot(tab, site.url("chiprows.html"))
    await run_tool(tab, "click", target=f'loc=clickable "{TIMES}" in "alice@example.com"')
    # the chips were drawn anew and moved up: nth= would now name carol's
    await run_tool(tab, "click", target=f'loc=clickable "{TIMES}" in "carol@example.com"')
    assert await js(tab, "JSON.stringify(removed)") == \
        '["alice@example.com","carol@example.com"]'
    await run_tool(tab, "click", target='loc=button "Remove" in "billing"')
    assert await js(tab, "tags.join()") == "urgent,later"


async def test_crumbs_and_a_sentences_links_are_no_chips(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("chiprows.html"))
    for interactive in (True, False):
        shot = await tab.snapshot(interactive=interactive)
        for words in ("Home", "Docs", "guide", "questions"):
            assert f'group "{words}' not in shot.text, shot.text
        assert '- link "Home"' in shot.text, shot.text
        assert '- link "guide"' in shot.text, shot.text


async def test_an_unnamed_check_boxs_hint_keeps_a_title_and_its_label_apart(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("chiprows.html"))
    hints = [info.get("hint") for info in (await tab.snapshot(interactive=True)).refs.values()
             if info["role"] == "checkbox"]
    assert any(h and h.startswith("Crash on open bug") for h in hints), hints
    assert any(h and h.startswith("Dark mode enhancement") for h in hints), hints
