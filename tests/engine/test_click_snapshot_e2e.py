"""`click @N -i` / `--snapshot`, and the same options of every tool that changes the page:
the page's snapshot comes back with the action, once a page it opened has loaded; exactly
what `snapshot` prints right after; on both transports."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto, js, ref, run_tool
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.errors import UsageError

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


async def test_a_click_that_opens_a_page_prints_that_pages_snapshot_once_it_loaded(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("nav1.html"))
    link = ref(await tab.snapshot(), "link", "Go to the second page")
    clicked = await run_tool(tab, "click", target=link, interactive=True)
    first, _, shot = clicked.text.partition("\n[untrusted page data")
    assert f"navigated to {site.url('nav2.html')}" in first
    assert 'link "Back to the first page"' in shot
    assert await js(tab, "document.readyState") == "complete"
    again = await run_tool(tab, "snapshot", interactive=True)
    assert clicked.data["snapshot"]["text"] == again.text
    back = next(r for r, e in clicked.data["snapshot"]["refs"].items()
                if e["name"] == "Back to the first page")
    await run_tool(tab, "click", target=back)  # its refs act at once
    assert await js(tab, "location.pathname") == "/nav1.html"


async def test_a_click_that_stays_prints_the_full_snapshot_with_what_it_changed(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("form.html"))
    await js(tab, "document.querySelector('#email').value = 'ada@example.org', true")
    button = ref(await tab.snapshot(), "button", "Create account")
    clicked = await run_tool(tab, "click", target=button, snapshot=True)
    assert clicked.text.startswith("clicked @")
    assert "submitted ada@example.org" in clicked.text.partition("\n")[2]
    assert clicked.data["snapshot"]["text"] == (await run_tool(tab, "snapshot")).text


async def test_a_click_without_a_snapshot_flag_prints_only_what_it_did(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("nav1.html"))
    link = ref(await tab.snapshot(), "link", "Go to the second page")
    clicked = await run_tool(tab, "click", target=link)
    assert "\n" not in clicked.text
    assert "snapshot" not in clicked.data


async def test_a_click_that_raises_a_dialog_says_no_snapshot_was_taken(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("nav1.html"))
    await js(tab, "(() => { const b = document.createElement('button'); b.textContent = "
                  "'Warn'; b.onclick = () => alert('careful'); document.body.append(b); "
                  "return true; })()")
    button = ref(await tab.snapshot(), "button", "Warn")
    clicked = await run_tool(tab, "click", target=button, interactive=True)
    assert "alert dialog open: 'careful'" in clicked.text
    assert clicked.text.endswith("no snapshot taken: answer the dialog first")
    assert "snapshot" not in clicked.data
    await run_tool(tab, "dialog", action="accept")


def unmarked(text: str) -> str:
    """A snapshot's text without its `[new]` marks (the next snapshot has seen those lines)."""
    return text.replace(" [new]", "")


async def test_typing_into_an_autocomplete_prints_the_suggestions_it_brought_up(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("suggest.html"))
    field = ref(await tab.snapshot(interactive=True), "combobox", "City")
    typed = await run_tool(tab, "type", target=field, text="Par", interactive=True)
    first, _, shot = typed.text.partition("\n")
    assert first.startswith(f"typed into {field} ")
    assert "value now 'Par'" in first
    assert 'option "Paris" @' in shot
    assert 'option "Parma" @' in shot
    assert 'option "Porto"' not in shot
    again = await run_tool(tab, "snapshot", interactive=True)
    assert unmarked(typed.data["snapshot"]["text"]) == again.text
    parma = next(r for r, e in typed.data["snapshot"]["refs"].items() if e["name"] == "Parma")
    picked = await run_tool(tab, "click", target=parma)  # its refs act at once
    assert "\n" not in picked.text
    assert "snapshot" not in picked.data
    waited = await run_tool(tab, "wait", text="picked Parma", snapshot=True)
    assert 'value="Parma"' in waited.text.partition("\n")[2]
    assert waited.data["snapshot"]["text"] == (await run_tool(tab, "snapshot")).text


async def test_enter_that_sends_a_form_prints_the_next_page_once_loaded_and_back_the_first(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("suggest.html"))
    await run_tool(tab, "fill", target="#city", text="Porto")
    pressed = await run_tool(tab, "press", target="#city", keys="Enter", interactive=True)
    first, _, shot = pressed.text.partition("\n[untrusted page data")
    assert f"navigated to {site.url('longtext.html')}?city=Porto" in first
    assert "page: Build log" in shot
    assert await js(tab, "document.readyState") == "complete"
    back = await run_tool(tab, "back", interactive=True)
    assert back.text.startswith(f"went back; navigated to {site.url('suggest.html')}\n")
    assert 'combobox "City" @' in back.data["snapshot"]["text"]
    assert back.data["snapshot"]["text"] == \
        (await run_tool(tab, "snapshot", interactive=True)).text
    scrolled = await run_tool(tab, "scroll", dy=10)
    assert "snapshot" not in scrolled.data


async def test_a_delta_prints_only_the_lines_an_action_changed_and_none_when_nothing_did(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("suggest.html"))
    first = await run_tool(tab, "snapshot", interactive=True, delta=True)
    assert "note: no earlier snapshot -i of this page to compare with: all of it" in first.text
    field = ref(await tab.snapshot(interactive=True), "combobox", "City")
    typed = await run_tool(tab, "type", target=field, text="Par", delta=True)
    shot = typed.text.partition("\n[untrusted page data")[2]
    changed = shot.splitlines()[3:]
    assert changed[0].startswith("changed since your last snapshot -i of this page: ")
    assert f'- - combobox "City" {field} [collapsed]' in changed
    assert any(ln.startswith(f'+ - combobox "City" {field} [expanded') for ln in changed)
    assert any(ln.startswith('+ - option "Paris" @') for ln in changed)
    assert not any("[new]" in ln for ln in changed)
    refs = typed.data["snapshot"]["refs"]  # every ref, for --json and the SDK
    assert {e["name"] for e in refs.values()} >= {"City", "Paris", "Parma"}
    again = await run_tool(tab, "snapshot", interactive=True, delta=True)
    assert again.text.splitlines()[3].startswith("no change since your last snapshot -i")
    with pytest.raises(UsageError, match="--delta compares whole-page snapshots"):
        await run_tool(tab, "snapshot", delta=True, viewport=True)


async def test_a_look_after_a_click_waits_for_the_data_it_had_the_page_fetch(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("fetches.html"))
    shot = await tab.snapshot(interactive=True)
    clicked = await run_tool(tab, "click", target=ref(shot, "button", "Search flights"),
                             interactive=True)
    assert 'button "IB 3103 Madrid" @' in clicked.text
    assert "Loading" not in clicked.text
    # a request made with the first one's answer is waited for too
    clicked = await run_tool(tab, "click", target=ref(shot, "button", "Search with details"),
                             snapshot=True)
    assert "IB 3103 Madrid, 2 stops" in clicked.text


async def test_a_look_after_a_click_whose_data_never_comes_says_so_and_reads_the_page(
        tab: Tab, site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    from tabsteward.bridge.engine import acting, settling
    monkeypatch.setattr(acting, "ANSWERS_WAIT", 0.5)
    monkeypatch.setattr(settling, "ANSWERS_WAIT", 0.5)
    await goto(tab, site.url("fetches.html"))
    shot = await tab.snapshot()
    clicked = await run_tool(tab, "click", target=ref(shot, "button", "Search forever"),
                             snapshot=True)
    first, _, rest = clicked.text.partition("\n[untrusted page data")
    assert first.endswith("the page was still loading data after 0.5 s; read as it was")
    assert "Loading..." in rest
