"""History, waits, reading, screenshots, downloads, uploads, and refused input."""

from __future__ import annotations

from pathlib import Path

import pytest
from fixture_server import Site, download_body
from pagetools import goto, js, png_size, target, text_of
from tabsteward.bridge.engine import actions, files
from tabsteward.bridge.engine.outputs import at
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse
from tabsteward.bridge.errors import (
    ActionTimeout,
    BrowserError,
    PolicyError,
    RefNotFound,
    TargetNotInteractable,
    UsageError,
)
from tabsteward.bridge.policy.intent import Intent

pytestmark = pytest.mark.browser


# -- history ---------------------------------------------------------------------------------
async def test_open_waits_for_the_load_and_reports_the_url(tab: Tab, site: Site) -> None:
    out = await actions.navigate(tab, site.url("nav1.html"))
    assert out.data["url"] == site.url("nav1.html")
    assert await js(tab, "document.readyState") == "complete"
    assert tab.state.url == site.url("nav1.html")


async def test_open_of_an_unreachable_address_fails_saying_so(tab: Tab) -> None:
    with pytest.raises(BrowserError, match=r"could not open.*ERR_NAME_NOT_RESOLVED"):
        await actions.navigate(tab, "http://no-such-host.invalid/")


async def test_javascript_url_is_refused(tab: Tab) -> None:
    with pytest.raises(PolicyError, match="Nothing was opened"):
        await actions.navigate(tab, "javascript:alert(1)")


async def test_click_on_a_link_reports_the_navigation(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("nav1.html"))
    shot = await tab.snapshot()
    out = await actions.click(tab, target(shot, "link", "Go to the second page"))
    assert out.data["url"] == site.url("nav2.html")
    assert f"navigated to {site.url('nav2.html')}" in out.text()


@pytest.mark.parametrize("script", ["location.href = 'nav2.html'",
                                    "document.querySelector('a').click()"])
async def test_a_script_that_navigates_reports_the_navigation(
        tab: Tab, site: Site, script: str) -> None:
    await goto(tab, site.url("nav1.html"))
    out = await actions.evaluate(tab, script)
    assert out.data["url"] == site.url("nav2.html")
    assert f"navigated to {site.url('nav2.html')}" in out.text()
    assert await js(tab, "document.readyState") != "loading"


async def test_back_forward_and_reload(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("nav1.html"))
    await goto(tab, site.url("nav2.html"))
    back = await actions.history(tab, -1)
    assert back.data["url"] == site.url("nav1.html")
    assert (await tab.snapshot()).title == "First page"
    forward = await actions.history(tab, 1)
    assert forward.data["url"] == site.url("nav2.html")
    assert (await tab.snapshot()).title == "Second page"
    with pytest.raises(UsageError, match="no page to go forward to"):
        await actions.history(tab, 1)


async def test_back_with_no_history_is_a_usage_error(tab: Tab) -> None:
    with pytest.raises(UsageError, match="no page to go back to; nothing was done"):
        await actions.history(tab, -1)


async def test_reload_loads_the_page_again(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("reload.html"))
    assert await text_of(tab, "#count") == "loaded 1 times"
    out = await actions.reload(tab)
    assert out.did == "reloaded"
    assert await text_of(tab, "#count") == "loaded 2 times"


# -- waits -----------------------------------------------------------------------------------
async def test_wait_for_text_that_appears_later(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("mutate.html"))
    await actions.click(tab, parse("#later"))
    out = await actions.wait(tab, text="done later")
    assert "is on the page" in out.did
    assert await text_of(tab, "#out") == "done later"


async def test_wait_for_a_selector_to_become_visible(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("mutate.html"))
    await actions.wait(tab, target=parse("#late"), state="visible")
    assert await js(tab, "!!document.getElementById('late')") is True


async def test_wait_for_a_ref_state(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("controls.html"))
    shot = await tab.snapshot()
    news = target(shot, "checkbox", "Newsletter")
    with pytest.raises(ActionTimeout):
        await actions.wait(tab, target=news, state="checked", timeout=0.3)
    await js(tab, "document.getElementById('news').checked = true")
    out = await actions.wait(tab, target=news, state="checked", timeout=5)
    assert out.did == "target is checked"


async def test_wait_for_an_element_to_go_away(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("rerender.html"))
    shot = await tab.snapshot()
    save = target(shot, "button", "Save")
    await actions.click(tab, target(shot, "button", "Remove all"))
    await actions.wait(tab, target=save, state="detached", timeout=5)


async def test_wait_for_the_url(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("mutate.html"))
    await actions.click(tab, parse("#go"))
    out = await actions.wait(tab, url="#finished")
    assert out.did.endswith("mutate.html#finished")
    await actions.wait(tab, url="http://127.0.0.1:*/mutate.html#fin*")


async def test_wait_for_the_url_reads_it_again_when_an_event_was_lost(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("nav1.html"))
    tab.state.url = "about:blank"  # as if the commit's event never reached the hub
    out = await actions.wait(tab, url="nav1.html", timeout=5)
    assert out.did.endswith("/nav1.html")
    assert tab.state.url.endswith("/nav1.html")


async def test_wait_for_a_load_state(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("nav1.html"))
    out = await actions.wait(tab, load="load")
    assert out.did == "page reached load"


async def test_wait_that_never_holds_times_out_saying_so(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("nav1.html"))
    with pytest.raises(ActionTimeout, match="never held"):
        await actions.wait(tab, text="not on this page", timeout=0.3)


async def test_wait_without_a_condition_is_a_usage_error(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("nav1.html"))
    with pytest.raises(UsageError):
        await actions.wait(tab)
    with pytest.raises(UsageError):
        await actions.wait(tab, seconds=-1)


# -- reading ---------------------------------------------------------------------------------
async def test_text_reads_the_visible_text(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("article.html"))
    text = await actions.read(tab, "text")
    assert "Release notes" in text
    assert "Faster snapshots" in text
    assert "Hidden paragraph" not in text


async def test_markdown_keeps_headings_links_lists_and_code(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("article.html"))
    md = await actions.read(tab, "markdown")
    lines = md.splitlines()
    assert "# Release notes" in lines
    assert "## Highlights" in lines
    assert "- Faster snapshots" in lines
    assert "[many changes](https://example.org/changes)" in md
    assert "```\ntabsteward open URL\n```" in md
    assert "Hidden paragraph" not in md


# -- screenshots ------------------------------------------------------------------------------
async def test_screenshot_of_viewport_full_page_and_element(
        tab: Tab, site: Site, tmp_path: Path) -> None:
    await goto(tab, site.url("long.html"))
    view = tmp_path / "view.png"
    full = tmp_path / "sub" / "full.png"
    elem = tmp_path / "button.png"
    out = await files.screenshot(tab, at(str(view), str(tmp_path)))
    assert out.data == {"path": str(view), "bytes": view.stat().st_size}
    await files.screenshot(tab, at(str(full), str(tmp_path)), full=True)
    await files.screenshot(tab, at(str(elem), str(tmp_path)), target=parse("#bottom"))
    vw, vh = png_size(view)
    _, fh = png_size(full)
    ew, eh = png_size(elem)
    inner = await js(tab, "[innerWidth, innerHeight, document.documentElement.scrollHeight]")
    assert (vw, vh) == (inner[0], inner[1])
    assert fh == inner[2] > vh
    box = await js(tab, "(r => [Math.round(r.width), Math.round(r.height)])"
                        "(document.getElementById('bottom').getBoundingClientRect())")
    assert abs(ew - box[0]) <= 1
    assert abs(eh - box[1]) <= 1


async def test_jpeg_screenshot_by_extension(tab: Tab, site: Site, tmp_path: Path) -> None:
    await goto(tab, site.url("nav1.html"))
    path = tmp_path / "shot.jpg"
    await files.screenshot(tab, at(str(path), str(tmp_path)))
    assert path.read_bytes()[:3] == b"\xff\xd8\xff"


# -- downloads and uploads --------------------------------------------------------------------
async def test_download_is_saved_where_asked_and_reported_with_path_and_size(
        tab: Tab, site: Site, tmp_path: Path) -> None:
    await goto(tab, site.url("download.html"))
    shot = await tab.snapshot()
    out = await files.download(tab, target(shot, "link", "Download the report"),
                               at(str(tmp_path), str(tmp_path)))
    saved = tmp_path / "report.csv"
    assert saved.read_bytes() == download_body("report.csv")
    assert out.data["download"]["path"] == str(saved)
    assert out.data["download"]["bytes"] == len(download_body("report.csv"))
    assert f"downloaded report.csv to {saved}" in out.text()


async def test_download_to_a_file_name(tab: Tab, site: Site, tmp_path: Path) -> None:
    await goto(tab, site.url("download.html"))
    dest = tmp_path / "deep" / "mine.csv"
    await files.download(tab, parse("#report"), at(str(dest), str(tmp_path)))
    assert dest.read_bytes() == download_body("report.csv")


async def test_click_that_starts_no_download_says_so(
        tab: Tab, site: Site, tmp_path: Path) -> None:
    await goto(tab, site.url("download.html"))
    with pytest.raises(ActionTimeout, match="started no download"):
        await files.download(tab, parse("#page"), at(str(tmp_path), str(tmp_path)))
    assert list(tmp_path.iterdir()) == []


async def test_upload_into_a_file_input(tab: Tab, site: Site, tmp_path: Path) -> None:
    await goto(tab, site.url("upload.html"))
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("alpha")
    b.write_text("beta")
    out = await files.upload(tab, parse("#file"), [str(a), str(b)])
    assert out.data["files"] == ["a.txt", "b.txt"]
    await actions.wait(tab, text="file: a.txt=alpha, b.txt=beta")
    shot = await tab.snapshot()
    assert 'value="a.txt, b.txt"' in shot.text


async def test_upload_through_a_button_that_opens_a_file_chooser(
        tab: Tab, site: Site, tmp_path: Path) -> None:
    await goto(tab, site.url("upload.html"))
    doc = tmp_path / "doc.txt"
    doc.write_text("chosen")
    shot = await tab.snapshot()
    out = await files.upload(tab, target(shot, "button", "Choose files"), [str(doc)])
    assert out.did.startswith("chose 1 file(s)")
    await actions.wait(tab, text="hidden: doc.txt=chosen")


async def test_upload_of_a_missing_file_uploads_nothing(
        tab: Tab, site: Site, tmp_path: Path) -> None:
    await goto(tab, site.url("upload.html"))
    with pytest.raises(UsageError, match="no such file"):
        await files.upload(tab, parse("#file"), [str(tmp_path / "absent.txt")])
    assert await text_of(tab, "#out") == "no files"


# -- refused input ---------------------------------------------------------------------------
@pytest.mark.parametrize("bad", ["", "   ", "@", "@0", "@-1", "@x", "@1.5",
                                 'loc=button "unterminated', 'loc=button "Save" nth=x',
                                 'loc=button "Save" extra', "loc=", "x" * 2001])
async def test_malformed_targets_give_usage_error(tab: Tab, site: Site, bad: str) -> None:
    await goto(tab, site.url("form.html"))
    with pytest.raises(UsageError):
        await actions.click(tab, parse(bad))


@pytest.mark.parametrize("bad", ["###", "button[", "a >>> b", ":nth-child(x)"])
async def test_invalid_css_selector_gives_usage_error(tab: Tab, site: Site, bad: str) -> None:
    await goto(tab, site.url("form.html"))
    with pytest.raises(UsageError, match="not a valid CSS selector; nothing was done"):
        await actions.click(tab, parse(bad))


async def test_target_that_matches_nothing_says_so(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("form.html"))
    with pytest.raises(RefNotFound, match="no element matches '#nope'; nothing was done"):
        await actions.click(tab, parse("#nope"))
    with pytest.raises(RefNotFound, match='no button "Nope" in the page\'s snapshot'):
        await actions.click(tab, parse('loc=button "Nope"'))


async def test_text_entry_refuses_a_read_only_or_disabled_field(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("form.html"))
    await js(tab, "document.getElementById('email').readOnly = true")
    with pytest.raises(TargetNotInteractable, match="readonly, also once clicked; nothing"):
        await actions.enter_text(tab, parse("#email"), "x", "fill")
    assert await js(tab, "document.getElementById('email').value") == ""


async def test_a_field_read_only_until_pressed_is_clicked_into_then_typed_in(
        tab: Tab, site: Site) -> None:
    # (Ant Design's date field: read-only until its picker is pressed or focused)
    await goto(tab, site.url("typinglater.html"))
    out = await actions.enter_text(tab, parse("#start"), "2024-05-01", "fill")
    assert await js(tab, "document.getElementById('out').textContent") == "typed 2024-05-01"
    assert "filled" in out.did, out.text()
    # one that writes its own value back says so
    out = await actions.enter_text(tab, parse("#when"), "2024-06-01", "fill")
    assert "the page put its value back: the text did not take" in out.text(), out.text()
    assert await js(tab, "document.getElementById('when').value") == "2024-05-01"
    # one that stays read-only is refused, as before
    with pytest.raises(TargetNotInteractable, match="readonly, also once clicked; nothing"):
        await actions.enter_text(tab, parse("#total"), "1", "fill")
    assert await js(tab, "document.getElementById('total').value") == "42.00"


async def test_policy_is_asked_with_the_pages_facts_before_an_action_reaches_the_page(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("form.html"))
    seen: list[Intent] = []

    async def refuse(asking: Tab, intent: Intent) -> None:
        seen.append(intent)
        raise PolicyError("the test's policy refuses it; nothing was done")

    tab.browser.gate = refuse
    try:
        with pytest.raises(PolicyError):
            await actions.evaluate(tab, "document.title = 'changed'")
        with pytest.raises(PolicyError):
            await actions.click(tab, parse("button[type=submit]"))
        with pytest.raises(PolicyError):
            await actions.enter_text(tab, parse("#pw"), "s3cret", "fill")
    finally:
        tab.browser.gate = None
    assert await js(tab, "document.title") == "Sign up"
    assert await js(tab, "document.getElementById('out').textContent") == ""
    assert await js(tab, "document.getElementById('pw').value") == "hunter2"
    evaluated, clicked, filled = seen
    assert (evaluated.action, clicked.action, filled.action) == ("eval", "click", "fill")
    assert clicked.page_url == site.url("form.html")
    assert (clicked.element.role, clicked.element.name) == ("button", "Create account")
    assert clicked.element.form is not None
    assert clicked.element.form.submits
    assert clicked.element.form.has_password
    assert (filled.element.type, filled.element.field, filled.text) == ("password", "pw pw",
                                                                         "s3cret")
    out = await actions.evaluate(tab, "document.title.length")  # no gate: nothing asked
    assert out.data["value"] == len("Sign up")
