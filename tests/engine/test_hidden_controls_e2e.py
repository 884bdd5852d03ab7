"""A control a page marks aria-hidden on itself that a person sees and may press
(hiddencontrols.html: PrimeReact's FileUpload buttons) is in the snapshot, a ref its
report's "now enabled" names; one inside a box hidden as a whole (a carousel's clone) is
not. Both transports."""

from __future__ import annotations

from pathlib import Path

import pytest
from fixture_server import Site
from pagetools import goto, ref, run_tool, text_of
from tabsteward.bridge.engine.tab import Tab

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


async def test_a_button_hidden_on_itself_that_shows_is_a_control_its_report_names(
        tab: Tab, site: Site, tmp_path: Path) -> None:
    await goto(tab, site.url("hiddencontrols.html"))
    shot = await tab.snapshot(interactive=True)
    upload = ref(shot, "button", "Upload")
    assert "[disabled]" in next(ln for ln in shot.text.splitlines() if upload in ln)
    assert "Shop now" not in shot.text, shot.text
    note = tmp_path / "note.txt"
    note.write_text("hi")
    said = (await run_tool(tab, "upload", target="#file", files=[str(note)])).text
    assert '"Upload" now enabled' in said, said
    await run_tool(tab, "click", target=upload)
    assert await text_of(tab, "#out") == "Uploaded note.txt"
