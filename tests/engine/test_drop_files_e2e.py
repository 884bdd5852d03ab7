"""Files dropped on a page's drop zone (no file input, no chooser), as a person drags them
from a folder: they arrive whole, and the drop is put to policy as an upload first; a file
chooser a plain click opens is caught and reported, never shown; on both transports."""

from __future__ import annotations

from pathlib import Path

import pytest
from fixture_server import Site
from pagetools import goto, text_of
from tabsteward.bridge.engine import actions, files
from tabsteward.bridge.engine.session import Browser
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse
from tabsteward.bridge.errors import PolicyError
from tabsteward.bridge.policy.intent import Intent

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


async def test_files_are_dropped_on_a_drop_zone_that_has_no_file_input(
        tab: Tab, site: Site, tmp_path: Path) -> None:
    await goto(tab, site.url("dropzone.html"))
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("alpha")
    b.write_text("beta")
    out = await files.upload(tab, parse("#zone p"), [str(a), str(b)])
    assert out.did.startswith("dropped 2 file(s) on @")
    assert out.data["files"] == ["a.txt", "b.txt"]
    await actions.wait(tab, text="dropped: a.txt=alpha, b.txt=beta")


async def test_a_zone_a_framework_handles_from_its_root_takes_the_drop_too(
        tab: Tab, site: Site, tmp_path: Path) -> None:
    await goto(tab, site.url("dropzone.html"))
    a = tmp_path / "a.txt"
    a.write_text("alpha")
    await files.upload(tab, parse("#delegated"), [str(a)])
    await actions.wait(tab, text="delegated: a.txt")


async def test_on_a_page_that_cancels_every_drop_a_button_still_opens_its_chooser(
        tab: Tab, site: Site, tmp_path: Path) -> None:
    await goto(tab, site.url("dropeverywhere.html"))
    a = tmp_path / "a.txt"
    a.write_text("alpha")
    out = await files.upload(tab, parse("#choose"), [str(a)])
    assert out.did.startswith("chose 1 file(s) through @")
    await actions.wait(tab, text="chosen: a.txt")
    # a zone there that opens no chooser gets the files dropped
    out = await files.upload(tab, parse("#zone"), [str(a)])
    assert out.did.startswith("dropped 1 file(s) on @")
    await actions.wait(tab, text="dropped: a.txt")


async def test_a_drop_policy_refuses_drops_nothing(
        tab: Tab, site: Site, browser: Browser, tmp_path: Path) -> None:
    seen: list[Intent] = []

    async def refuse_uploads(_tab: Tab, intent: Intent) -> None:
        seen.append(intent)
        if intent.action == "upload":
            raise PolicyError("asked about: an upload")
    browser.gate = refuse_uploads
    try:
        await goto(tab, site.url("dropzone.html"))
        secret = tmp_path / "secret.txt"
        secret.write_text("do not send")
        with pytest.raises(PolicyError, match="asked about: an upload"):
            await files.upload(tab, parse("#zone"), [str(secret)])
    finally:
        browser.gate = None
    upload = next(i for i in seen if i.action == "upload")
    assert upload.files == (str(secret),)
    assert await text_of(tab, "#out") == "no files"


async def test_a_plain_click_that_opens_a_file_chooser_says_so_and_upload_still_fills_it(
        tab: Tab, site: Site, tmp_path: Path) -> None:
    await goto(tab, site.url("upload.html"))
    out = await actions.click(tab, parse("#choose"))
    assert "it opened a file chooser, which nobody sees; nothing was chosen" in out.text()
    assert await text_of(tab, "#out") == "no files"
    a = tmp_path / "a.txt"
    a.write_text("alpha")
    await files.upload(tab, parse("#choose"), [str(a)])
    await actions.wait(tab, text="hidden: a.txt=alpha")
    again = await actions.click(tab, parse("#choose"))  # still caught after an upload
    assert "it opened a file chooser" in again.text()
