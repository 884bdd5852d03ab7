"""`open URL -i` / `--snapshot`: the page's snapshot comes back with the open, exactly what
`snapshot` (-i) prints right after, and its refs act at once; on both transports."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import js, run_tool
from tabsteward.bridge.engine.tab import Tab

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


async def test_open_with_interactive_prints_what_snapshot_i_prints_right_after(
        tab: Tab, site: Site) -> None:
    opened = await run_tool(tab, "open", url=site.url("form.html"), interactive=True)
    first, _, shot = opened.text.partition("\n")
    assert first == f"opened {site.url('form.html')}"
    again = await run_tool(tab, "snapshot", interactive=True)
    assert shot == again.text
    assert shot.startswith("[untrusted page data")
    assert opened.data["snapshot"] == {"text": again.text, "refs": again.data["refs"]}
    assert opened.data["url"] == site.url("form.html")


async def test_open_with_snapshot_prints_the_full_snapshot_and_its_refs_act_at_once(
        tab: Tab, site: Site) -> None:
    opened = await run_tool(tab, "open", url=site.url("form.html"), snapshot=True)
    refs = opened.data["snapshot"]["refs"]
    name = next(r for r, e in refs.items() if e["role"] == "textbox" and e["name"] == "Email")
    assert f" {name}" in opened.text
    again = await run_tool(tab, "snapshot")
    assert opened.text.partition("\n")[2] == again.text
    await run_tool(tab, "fill", target=name, text="ada@example.com")
    assert await js(tab, "document.querySelector('#email').value") == "ada@example.com"


async def test_open_without_a_snapshot_flag_prints_only_what_it_did(
        tab: Tab, site: Site) -> None:
    opened = await run_tool(tab, "open", url=site.url("form.html"))
    assert opened.text == f"opened {site.url('form.html')}"
    assert "snapshot" not in opened.data


async def test_open_whose_page_raises_a_dialog_says_no_snapshot_was_taken(
        tab: Tab, site: Site) -> None:
    if tab.browser.kind == "extension":
        await js(tab, "0")  # a debugger hears the page's dialogs: open with one attached
    opened = await run_tool(tab, "open", url=site.url("alert-on-load.html"), interactive=True)
    assert "dialog open" in opened.text
    assert opened.text.endswith("no snapshot taken: answer the dialog first")
    assert "snapshot" not in opened.data
    await run_tool(tab, "dialog", action="accept")
