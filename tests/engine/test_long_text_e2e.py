"""Long values and names on real pages: every cut says how much it left out, and `text @N`
reads the whole without the page seeing anything."""

from __future__ import annotations

import asyncio
import re

import pytest
from fixture_server import Site
from pagetools import goto, js, line_of
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.model import Snapshot
from tabsteward.bridge.engine.snapshot import quote
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse

pytestmark = pytest.mark.browser

MARK = re.compile(r" \[\+([\d,]+) chars?\]")


def only(shot: Snapshot, role: str, start: str) -> str:
    """The one ref whose role is `role` and whose name starts with `start`."""
    found = [r for r, i in shot.refs.items() if i["role"] == role and i["name"].startswith(start)]
    assert len(found) == 1, shot.text
    return found[0]


def left_in(line: str) -> int:
    marks = MARK.findall(line)
    assert len(marks) == 1, line
    return int(marks[0].replace(",", ""))


async def page_log(tab: Tab) -> str:
    return str(await js(tab, "document.getElementById('log').value"))


async def test_a_textarea_value_cut_at_300_says_how_many_characters_it_left_out(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("longtext.html"))
    whole = await page_log(tab)
    assert len(whole) == 1500  # as Python counts: the emoji is one character, not two
    shot = await tab.snapshot()
    log = only(shot, "textbox", "Output")
    line = line_of(shot, log)
    shown = shot.refs[log]["value"]
    assert whole.startswith(shown)
    assert len(shown) == 300
    assert line.endswith(f"value={quote(shown)} [+1,200 chars]"), line
    assert shot.refs[log]["value_left"] == 1200


async def test_a_long_message_row_is_named_in_part_and_says_so(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("longtext.html"))
    shot = await tab.snapshot()
    mail = only(shot, "clickable", "Grace Hopper wrote")
    line = line_of(shot, mail)
    body = " ".join(str(await js(tab, "document.getElementById('mail').textContent")).split())
    name = shot.refs[mail]["name"]
    assert len(name) == 150
    assert body.startswith(name)
    assert "..." not in line
    assert left_in(line) == len(body) - 150 == shot.refs[mail]["name_left"]


async def test_a_long_paragraph_is_shown_whole_and_unmarked(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("longtext.html"))
    shot = await tab.snapshot()
    story = " ".join(str(await js(tab, "document.getElementById('story').textContent")).split())
    assert len(story) > 500
    assert f"> {story}" in shot.text.splitlines()
    marked = [ln for ln in shot.text.splitlines() if MARK.search(ln)]
    assert marked == [line_of(shot, only(shot, "textbox", "Output")),
                      line_of(shot, only(shot, "clickable", "Grace")),
                      line_of(shot, only(shot, "textbox", "Reply"))]


async def test_a_long_rich_text_box_is_cut_at_300_too_and_read_whole_by_ref(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("longtext.html"))
    shot = await tab.snapshot()
    reply = only(shot, "textbox", "Reply")
    assert line_of(shot, reply).endswith('" [+299 chars]')  # 600, less its last space
    shown = await js(tab, "document.getElementById('reply').innerText")  # as a person sees it
    assert shown == ("Thanks, Grace. " * 40).rstrip()
    assert await actions.read_element(tab, parse(reply)) == ("value", shown)


async def test_text_of_a_ref_reads_the_whole_value_and_the_page_sees_nothing(
        tab: Tab, site: Site) -> None:
    # the attack on the reader: a read that clicks, focuses or scrolls would let the page act
    # (the message row POSTs /opened when clicked); a read must be invisible to it
    await goto(tab, site.url("longtext.html"))
    shot = await tab.snapshot()
    log, mail = only(shot, "textbox", "Output"), only(shot, "clickable", "Grace Hopper")
    await js(tab, "window.__events = []; window.__focus = document.activeElement.tagName;"
                  "window.__sel = document.getElementById('log').selectionStart")
    before = await js(tab, "[scrollX, scrollY, document.body.innerHTML.length]")
    kind, value = await actions.read_element(tab, parse(log))
    assert (kind, value) == ("value", await page_log(tab))
    assert len(value) == 1500
    assert value.endswith("DONE")
    kind, text = await actions.read_element(tab, parse(mail))
    assert kind == "text"
    assert " ".join(text.split()) == " ".join(
        str(await js(tab, "document.getElementById('mail').textContent")).split())
    assert text.endswith("it changes what we tell users to do first.")
    await asyncio.sleep(0.3)
    assert await js(tab, "window.__events") == []
    assert await js(tab, "[scrollX, scrollY, document.body.innerHTML.length]") == before
    assert await js(tab, "[document.activeElement.tagName, "
                         "document.getElementById('log').selectionStart]") == [
        await js(tab, "window.__focus"), await js(tab, "window.__sel")]
    assert site.posts("/opened") == []


async def test_text_of_a_password_field_stays_masked(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("form.html"))
    shot = await tab.snapshot()
    pw = [r for r, i in shot.refs.items() if i["role"] == "textbox"
          and "assword" in i["name"]]
    assert pw, shot.text
    kind, value = await actions.read_element(tab, parse(pw[0]))
    assert await js(tab, "document.getElementById('pw').value") == "hunter2"
    assert (kind, value) == ("value", "\u2022" * 4)
