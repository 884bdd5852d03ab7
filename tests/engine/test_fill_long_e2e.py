"""`fill` with a long multi-line value: a 3000-line text goes into a textarea or an
editable element whole, in one edit (one input event), with its spaces, tabs, blank lines
and markup-like characters as they are; on both transports."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto, js, value_of
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.pasting import RICH_LINES
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

LISTEN = """window.__inputs = [];
for (const el of document.querySelectorAll('textarea, [contenteditable]'))
  el.addEventListener('input', e => window.__inputs.push(e.target.tagName + ' ' + e.isTrusted));
"""


def many_lines(n: int) -> str:
    return "\n".join(f"{i:04d}  <b>tag</b> &amp;\tend" + ("\n" if i % 9 == 0 else "")
                     for i in range(n))


async def test_a_3000_line_value_is_filled_into_a_textarea_whole_in_one_edit(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("form.html"))
    await js(tab, LISTEN)
    text = many_lines(3000)
    out = await actions.enter_text(tab, parse("textarea[name=bio]"), text, "fill")
    assert await value_of(tab, "textarea[name=bio]") == text
    assert await js(tab, "window.__inputs") == ["TEXTAREA true"]
    assert out.data["value"].startswith("0000  <b>tag</b>")


async def test_a_multi_line_fill_replaces_a_textarea_value_exactly(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("form.html"))
    await actions.enter_text(tab, parse("textarea[name=bio]"), "old\nvalue", "fill")
    text = "  two  spaces\t tab \r\n\r\n\n<i>x</i> &lt; & last  "
    await actions.enter_text(tab, parse("textarea[name=bio]"), text, "fill")
    assert await value_of(tab, "textarea[name=bio]") == text.replace("\r\n", "\n")


async def test_a_3000_line_value_is_filled_into_an_editable_element_whole_in_one_edit(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("form.html"))
    await js(tab, LISTEN)
    text = many_lines(3000)
    await actions.enter_text(tab, parse("#ed"), text, "fill")
    shown = str(await js(tab, "document.getElementById('ed').innerText")).replace("\xa0", " ")
    lines = [ln for ln in shown.split("\n") if ln]
    assert lines == [ln for ln in text.split("\n") if ln]
    assert await js(tab, "window.__inputs") == ["DIV true"]
    assert "Edit me" not in shown


async def test_a_few_lines_into_an_editable_element_are_still_typed_line_by_line(
        tab: Tab, site: Site) -> None:
    # rich-text editors follow each line's own events: short texts keep them
    await goto(tab, site.url("form.html"))
    await js(tab, LISTEN)
    text = "\n".join(f"line {i}" for i in range(RICH_LINES - 1))
    await actions.enter_text(tab, parse("#ed"), text, "fill")
    shown = str(await js(tab, "document.getElementById('ed').innerText"))
    assert [ln for ln in shown.split("\n") if ln] == text.split("\n")
    assert len(await js(tab, "window.__inputs")) > 1
