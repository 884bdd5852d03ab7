"""Code editors as pages build them: one that takes its keys in a field of no size and draws
its lines beside it (Monaco, CodeMirror 5, Ace) is filled with its text as it is, typed into
at its end, and read by the lines it shows; an editable one (CodeMirror 6, Slate) keeps its
indentation and blank lines, and not its placeholder. On both transports."""

from __future__ import annotations

import json
import re

import pytest
from fixture_server import Site
from pagetools import goto, js, line_of, ref, run_tool, text_of
from tabsteward.bridge.engine import actions, reading
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

CODE = "def f(x):\n    if x:\n        return 1\n\n    return 0"
FIELDS = {"mono": 'loc=textbox "Code editor"', "cm5": 'loc=textbox "Query"',
          "ace": "textarea.ace_text-input"}


async def held(tab: Tab) -> dict[str, str]:
    """What each editor holds, as the page itself says once saved."""
    await actions.click(tab, parse('loc=button "Save"'))
    return dict(json.loads(await text_of(tab, "#out")))


@pytest.mark.parametrize("editor", list(FIELDS))
async def test_a_code_editor_s_field_of_no_size_is_filled_with_the_text_as_it_is(
        tab: Tab, site: Site, editor: str) -> None:
    await goto(tab, site.url("codeeditors.html"))
    out = await actions.enter_text(tab, parse(FIELDS[editor]), CODE, "fill")
    # (typed, each line break would be an Enter the editor indents after)
    assert (await held(tab))[editor] == CODE
    assert f"value now {CODE!r}" in out.changes, out.text()


@pytest.mark.parametrize("editor", list(FIELDS))
async def test_typing_into_a_code_editor_goes_on_at_its_end_as_keys(
        tab: Tab, site: Site, editor: str) -> None:
    await goto(tab, site.url("codeeditors.html"))
    await actions.enter_text(tab, parse(FIELDS[editor]), "if x:", "fill")
    await actions.enter_text(tab, parse(FIELDS[editor]), "\ngo()", "type")
    assert (await held(tab))[editor] == "if x:\n    go()"  # its Enter indented the line


@pytest.mark.parametrize("editor", list(FIELDS))
async def test_a_code_editor_emptied_by_a_fill_holds_nothing(
        tab: Tab, site: Site, editor: str) -> None:
    await goto(tab, site.url("codeeditors.html"))
    await actions.enter_text(tab, parse(FIELDS[editor]), "", "fill")
    assert (await held(tab))[editor] == ""


async def test_a_code_editor_is_one_field_whose_value_is_the_lines_it_shows(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("codeeditors.html"))
    await actions.enter_text(tab, parse(FIELDS["mono"]), "a = 1\n\n  b = 2", "fill")
    await actions.enter_text(tab, parse(FIELDS["cm5"]), "SELECT\n\n  1;", "fill")
    shot = await tab.snapshot()
    mono, cm5 = ref(shot, "textbox", "Code editor"), ref(shot, "textbox", "Query")
    # in the order they are drawn (Monaco's lines are placed, not in the page's order), with
    # their indentation and blank lines (CodeMirror 5 draws one as a zero-width space)
    assert shot.refs[mono]["value"] == "a = 1\n\n  b = 2"
    assert shot.refs[cm5]["value"] == "SELECT\n\n  1;"
    assert "hover-only" not in line_of(shot, mono)
    # its lines, gutter and scroll box are the field's: no clickable of their own, no text
    # (nor its box, which listens for clicks, its find box open: the field has the ref)
    assert [i["role"] for i in shot.refs.values()] == \
        ["textbox"] * 3 + ["button"] * 2 + ["textbox"] * 5 + ["button"], shot.text
    assert "b = 2" not in shot.text.replace(shot.refs[mono]["value"].replace("\n", "\\n"), "")
    # the fields of its own widgets are theirs, even one of no size (its find box's)
    assert shot.refs[ref(shot, "textbox", "Find")]["value"] == "needle"
    assert not shot.refs[ref(shot, "textbox", "Replace")].get("value"), shot.text


async def test_an_editable_editor_keeps_its_indentation_and_blank_lines(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("codeeditors.html"))
    shot = await tab.snapshot()
    script = ref(shot, "textbox", "Script")
    assert shot.refs[script]["value"] == "def main():\n\n    return 42"
    assert await reading.read_element(tab, parse(script)) == \
        ("value", "def main():\n\n    return 42")


async def test_an_editor_s_placeholder_is_not_its_value(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("codeeditors.html"))
    shot = await tab.snapshot()
    notes = ref(shot, "textbox", "Notes")
    assert not shot.refs[notes].get("value"), line_of(shot, notes)
    await actions.enter_text(tab, parse(notes), "Buy milk", "fill")
    assert await js(tab, "document.getElementById('slate').innerText.includes('Buy milk')")


async def test_an_editor_that_draws_only_some_of_its_lines_says_its_value_is_a_part(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("codeeditors.html"))
    shot = await tab.snapshot()
    log = ref(shot, "textbox", "Log")
    assert "partial" in line_of(shot, log)
    assert shot.refs[log]["value"] == "line 1\nline 2\n\u2026\nline 80"  # where its gap is
    assert await reading.read_element(tab, parse(log)) == \
        ("lines", "line 1\nline 2\n\u2026\nline 80")
    # `text @N` says so above what it drew, and how to bring more
    said = await run_tool(tab, "text", target=log)
    assert said.data["format"] == "lines"
    assert f"it may hold more: `scroll {log} --dy 600` and read again" in said.text
    whole = await run_tool(tab, "text", target=ref(shot, "textbox", "Script"))
    assert "may hold more" not in whole.text
    for editor in FIELDS.values():  # lines that fill the editor's box: it may hold more
        await actions.enter_text(tab, parse(editor), "\n".join(map(str, range(12))), "fill")
    shot = await tab.snapshot()
    assert len(re.findall(r"\[[^\]]*\bpartial\b", shot.text)) == len(FIELDS) + 1, shot.text
    for editor in FIELDS.values():
        await actions.enter_text(tab, parse(editor), "a\nb", "fill")
    shot = await tab.snapshot()
    assert "partial" not in shot.text.replace(line_of(shot, ref(shot, "textbox", "Log")), ""), \
        shot.text


async def test_a_name_a_code_editor_gives_its_field_by_its_caret_names_nothing(
        tab: Tab, site: Site) -> None:
    # (Ace's "Cursor at row 1" changes as the caret moves: the words before it say which)
    await goto(tab, site.url("codeeditors.html"))
    shot = await tab.snapshot()
    style = next(r for r, i in shot.refs.items() if i.get("hint") == "Style")
    assert shot.refs[style]["name"] == ""
    assert shot.refs[style]["value"] == "a { color: red; }"
    assert "Cursor at row" not in shot.text
