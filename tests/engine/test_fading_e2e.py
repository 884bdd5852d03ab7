"""What fades out of the page (a dialog closing) is gone from what the agent reads, as a
person sees it go; what fades in is there. On both transports (a hidden tab's fade stands
still until it is drawn: still on its way out)."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto, js, ref
from tabsteward.bridge.engine import actions, reading
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

WORDS = "Delete the draft for ever?"


async def test_a_dialog_fading_in_is_read_and_one_fading_out_is_not(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("fading.html"))
    await actions.click(tab, parse("#open"))
    shot = await tab.snapshot()
    assert WORDS in shot.text, shot.text
    assert "Draft saved" in shot.text, shot.text  # (fading in)
    assert "modal dialog is open" in shot.text, shot.text
    assert "Draft saved" in await reading.read(tab, "text")
    kept = await actions.click(tab, parse(ref(shot, "button", "Keep it")))
    assert 'closed the dialog "Confirm"' in kept.changes, kept.text()
    assert await js(tab, "document.getAnimations().length") == 2  # (the dialog fading out)
    shot = await tab.snapshot()
    assert WORDS not in shot.text, shot.text
    assert "Keep it" not in shot.text, shot.text
    assert "closing" in shot.text
    # (a modal fading out leaves the page behind it its refs)
    assert "modal dialog is open" not in shot.text, shot.text
    assert ref(shot, "button", "Open dialog")
    for fmt in ("text", "markdown"):
        read = await reading.read(tab, fmt)
        assert WORDS not in read, (fmt, read)
        assert "Drafts" in read, (fmt, read)


async def test_a_note_set_to_fade_after_a_delay_is_read_while_it_shows(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("fading.html"))
    out = await actions.click(tab, parse("#notify"))
    assert 'the page said "Equipment added"' in out.changes, out.text()
    assert "Equipment added" in (await tab.snapshot()).text
    assert "Equipment added" in await reading.read(tab, "text")
