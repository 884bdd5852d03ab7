"""Tables and repeated containers in snapshots: a row is one line of its cells, a list item,
post or card is one line with its controls under it; in full and interactive snapshots; a
header whose cells stick in view is in a snapshot of what shows."""

from __future__ import annotations

import re

import pytest
from fixture_server import Site
from pagetools import goto, js, line_of, ref, refs_in, target, under, watch_listeners
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse
from tabsteward.bridge.errors import TargetNotInteractable

pytestmark = pytest.mark.browser


# -- tables ---------------------------------------------------------------------------------

async def test_a_key_value_table_is_one_line_per_row_with_its_cells_in_order(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("tables.html"))
    shot = await tab.snapshot()
    assert '- table "Profile"' in shot.text
    for row in ("| Name | Ada Lovelace |", "| Gender | Female |",
                "| Born | 10 December 1815 |", "| Note | Likes a \\| b tables |"):
        assert f"\n    - row {row}\n" in shot.text, shot.text
    assert "> Profile" not in shot.text  # the caption is the table's name, said once
    # the keys are header cells a person does not act on: no refs for them
    assert not any(info["name"] in ("Gender", "Born", "Note") for info in shot.refs.values())


async def test_header_cells_get_a_ref_only_when_they_sort_the_column_and_say_how_it_is_sorted(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("tables.html"))
    shot = await tab.snapshot()
    assert "- header | Name | Email | Role | Actions |" in shot.text
    headers = under(shot, "- header | Name")
    assert [ln.split(" @")[0] for ln in headers] == ['- columnheader "Name"',
                                                      '- columnheader "Email"']
    await actions.click(tab, target(shot, "columnheader", "Name"))
    assert await js(tab, "window.sorted") == ["name"]
    # how the rows are sorted now shows on the header's line; "none" shows nothing
    sorted_by = under(await tab.snapshot(), "- header | Name")
    assert [ln.split(" @")[0] + ln.partition(" @")[2].partition(" ")[2] for ln in sorted_by] \
        == ['- columnheader "Name"[sort=ascending]', '- columnheader "Email"']


async def test_a_control_in_a_cell_keeps_its_ref_under_its_rows_line(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("tables.html"))
    for interactive in (False, True):
        shot = await tab.snapshot(interactive=interactive)
        alan = under(shot, "- row | Alan Turing | alan@bletchley.example | Analyst | Delete |")
        assert [ln.split(" @")[0] for ln in alan] == ['- link "Alan Turing"',
                                                      '- button "Delete"'], shot.text
    await actions.click(tab, parse(refs_in(alan)[1]))
    assert await js(tab, "document.body.textContent.includes('Alan Turing')") is False
    assert await js(tab, "document.body.textContent.includes('Grace Hopper')") is True


async def test_an_empty_row_is_left_out_and_interactive_keeps_only_rows_with_refs(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("tables.html"))
    full = await tab.snapshot()
    assert "- row |  |  |  |  |" not in full.text
    inter = await tab.snapshot(interactive=True)
    assert "Gender" not in inter.text
    assert "notes.txt" not in inter.text
    assert "- row | Grace Hopper |" in inter.text
    assert set(inter.refs) == set(full.refs)


async def test_a_clickable_row_carries_its_ref_on_its_line_and_acts(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("tables.html"))
    shot = await tab.snapshot()
    line = line_of(shot, ref(shot, "row", "Alan The machine halts 08:40"))
    assert re.fullmatch(r"    - row @\d+ \| Alan \| The machine halts \| 08:40 \|", line), line
    await actions.click(tab, target(shot, "row", "Alan The machine halts 08:40"))
    assert await js(tab, "window.opened") == [2]
    # its role and name find it again, as the locator printed for it says
    handle = await tab.resolve(parse('loc=row "Alan The machine halts 08:40"'))
    assert f"@{handle.ref}" == ref(shot, "row", "Alan The machine halts 08:40")


async def test_aria_grid_and_treegrid_rows_are_lines_of_cells_with_their_states(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("tables.html"))
    text = (await tab.snapshot()).text
    assert '- grid "Files"\n    - header | File | Size |\n' in text
    assert "\n    - row [selected] | notes.txt | 2 KB |\n" in text
    assert '- treegrid "Folders"\n    - row [expanded level=1] | src | folder |\n' in text
    assert "\n    - row [level=2] | main.py | file |\n" in text
    # a virtual grid holds 3 of its 40 rows (aria-rowcount): the rest are counted
    assert "    - row | photo.jpg | 3 MB |\n    - [37 more rows not in the page yet " \
           "(aria-rowcount); scrolling the table, or its next page, brings them]\n" in text


async def test_grid_cells_that_take_focus_or_selection_keep_their_refs_under_the_row(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("tables.html"))
    shot = await tab.snapshot()
    days = under(shot, "- row | 1 | 2 |")
    assert [re.sub(r" @\d+", "", ln) for ln in days] == ['- gridcell "1"',
                                                       '- gridcell "2" [selected]'], shot.text
    await actions.click(tab, target(shot, "gridcell", "1"))
    assert await js(tab, "window.picked") == [1]


async def test_a_layout_table_stays_text(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("tables.html"))
    text = (await tab.snapshot()).text
    assert "> Layout left" in text
    assert "- row | Layout left" not in text


async def test_a_long_table_stays_within_the_budget_and_says_how_many_rows_were_left_out(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("bigtable.html"))
    for interactive in (False, True):
        shot = await tab.snapshot(interactive=interactive)
        assert len(shot.text) < 12_000, len(shot.text)
        rows = [ln for ln in shot.text.splitlines() if ln.lstrip().startswith("- row |")]
        assert len(rows) == 100
        assert "- header | Order | Customer | Total |" in shot.text or interactive
        assert "- [1,900 more rows left out; --scope on the table or -v after scrolling " \
               "shows them]" in shot.text
        assert len(shot.refs) == 100
    full = await tab.snapshot()
    assert full.text.endswith("> End of orders.")  # what follows the table is still there
    # the table itself, scoped, shows its rows up to the scoped snapshot's budget, and says
    # how much it cut and how to see more; with a larger max_chars, every row
    part = await tab.snapshot(scope=parse("#orders"))
    assert len(part.text) < 41_000, len(part.text)
    assert re.search(r"\n\[cut: [\d,]+ more lines \([\d,]+ chars\) over a scoped snapshot's "
                     r"budget of 40,000 chars; --max-chars N shows more", part.text), \
        part.text[-300:]
    whole = await tab.snapshot(scope=parse("#orders"), max_chars=1_000_000)
    assert "- row | #2000 | Customer 2000 | 6000.00 | View |" in whole.text
    assert "more rows" not in whole.text
    assert "[cut:" not in whole.text
    await js(tab, "document.querySelector('#orders tbody tr:last-child').scrollIntoView()")
    seen = await tab.snapshot(viewport=True)
    assert "- row | #2000 | Customer 2000 | 6000.00 | View |" in seen.text
    assert "more rows" not in seen.text


async def test_a_header_whose_cells_stick_in_view_is_in_a_snapshot_of_what_shows(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("stickyhead.html"))
    await js(tab, "[...document.querySelectorAll('#prices td')].find((c) => "
                  "c.textContent === 'Item 30').scrollIntoView()")
    seen = await tab.snapshot(viewport=True)
    lines = [ln.strip() for ln in seen.text.splitlines()]
    assert "- header | Name | Price |" in lines, seen.text
    after = lines[lines.index("- header | Name | Price |") + 1]
    assert re.match(r"- row \| Item [2-3]\d \|", after), seen.text


async def test_cells_spanning_rows_or_columns_keep_every_value_under_its_header(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("tables-real.html"))
    shot = await tab.snapshot()
    table = under(shot, '- table "Specs"')
    assert table[:6] == ["- header | Group | Key | Value |",
                         "- row | Size | Width | 10 cm |",
                         "- row | Size | Height | 20 cm |",  # Size spans two rows
                         "- row | Weight |  | 1 kg |",  # Weight spans two columns
                         "- row | Power | Battery | 4000 mAh |",
                         "- row | Power | Charger | Buy charger |"], shot.text
    charger = under(shot, "- row | Power | Charger | Buy charger |")
    assert [ln.split(" @")[0] for ln in charger] == ['- button "Buy charger"']


async def test_a_table_inside_a_cell_is_rows_of_its_own_under_the_outer_row(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("tables-real.html"))
    shot = await tab.snapshot()
    assert ('- table "Orders"\n'
            "  - header | Order | Items | Total |\n"
            "  - row | #1 | [table] | 9.00 |\n"
            "    - header | Item | Qty |\n"
            "    - row | Pen | 2 |\n"
            "    - row | Ink | 1 |\n"
            "  - row | #2 | Paper | 3.00 |\n") in shot.text, shot.text


async def test_tables_built_of_divs_by_css_or_aria_roles_are_rows_of_cells_with_their_header(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("tables-real.html"))
    for interactive in (False, True):
        shot = await tab.snapshot(interactive=interactive)
        pro = under(shot, "- row | Pro | $15 Choose Pro |")
        assert [ln.split(" @")[0] for ln in pro] == ['- link "Choose Pro"'], shot.text
        grace = under(shot, "- row | Grace |  |")
        assert [ln.split(" @")[0] for ln in grace] == ['- textbox "Grace city"'], shot.text
    text = (await tab.snapshot()).text
    assert "\n- header | Plan | Price |\n- row | Basic | $5 |\n" in text, text
    assert '- table "People"\n  - header | Name | City |\n  - row | Ada | London |' in text
    # a display: table that only centres its one cell stays text
    assert "\n> Just centered text" in text
    await actions.click(tab, parse(refs_in(pro)[0]))
    assert await js(tab, "location.hash") == "#pro"


# -- repeated containers ----------------------------------------------------------------------

async def test_a_list_item_with_words_and_controls_is_a_line_with_its_controls_under_it(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("feed.html"))
    for interactive in (False, True):
        shot = await tab.snapshot(interactive=interactive)
        alan = under(shot, '- listitem "Alan sent a puzzle."')
        assert [ln.split(" @")[0] for ln in alan] == ['- button "Open"', '- button "Archive"']
        # its words are said on its line, not again as text under it; its controls are
        # located by them (the list's other items have an Open and an Archive too)
        assert all(ln.endswith(' in "Alan sent a puzzle."') for ln in alan), alan
    await actions.click(tab, parse(refs_in(alan)[1]))
    assert await js(tab, "window.done") == ["archive:alan"]


async def test_three_posts_each_hold_their_author_text_and_three_icons(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("feed.html"))
    full = await tab.snapshot()
    post = under(full, '- article "Edsger Dijkstra"')
    assert post[0] == "> Go to statement considered harmful."
    assert len(refs_in(post)) == 3
    inter = await tab.snapshot(interactive=True)
    icons = refs_in(under(inter, '- article "Edsger Dijkstra"'))
    assert icons == refs_in(post)
    await actions.click(tab, parse(icons[1]))
    assert await js(tab, "window.done") == ["like:2"]
    cards = under(inter, '- group "Coffee"')
    assert [ln.split(" @")[0] for ln in cards] == ['- button "Buy"']


async def test_repeated_custom_elements_with_shadow_roots_hold_their_controls(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("feed.html"))
    for interactive in (False, True):
        shot = await tab.snapshot(interactive=interactive)
        msg = under(shot, '- group "Linus: Patch sent."')
        assert [ln.split(" @")[0] for ln in msg] == ['- button "Reply"'], shot.text
    await actions.click(tab, parse(refs_in(msg)[0]))
    assert await js(tab, "window.done") == ["reply:Linus"]


async def test_only_repeated_containers_with_words_before_a_ref_get_a_line(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("feed.html"))
    for interactive in (False, True):
        text = (await tab.snapshot(interactive=interactive)).text
        # the inbox's three items; not the nav's (a link, no words of their own)
        assert len(re.findall(r"^- listitem ", text, re.M)) == 3, text
        # paragraphs with links stay flat, and a block that does not repeat gets no line
        assert re.search(r'^- link "FAQ" @\d+$', text, re.M), text
        assert re.search(r'^- button "Solo" @\d+$', text, re.M), text
        assert '"Read the' not in text
        assert '"Underground' not in text  # columns of prose with links are not cards
        assert '"Alone here' not in text
    assert "\n> Alone here\n- button \"Solo\"" in (await tab.snapshot()).text


async def test_a_button_that_sorts_its_column_says_how_the_rows_are_sorted(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("sort_buttons.html"))
    shot = await tab.snapshot(interactive=True)
    name = ref(shot, "button", "Name: Activate to invert sorting")
    age = ref(shot, "button", "Age: Activate to sort")
    assert "[sort=ascending]" in line_of(shot, name), shot.text
    assert "sort=" not in line_of(shot, age), shot.text
    done = await actions.click(tab, parse(age))
    assert "now sort=ascending" in done.changes, done
    shot = await tab.snapshot(interactive=True)
    assert "sort=" not in line_of(shot, name), shot.text


async def test_resize_handles_beside_data_cells_are_no_controls_and_ticks_read_as_marks(
        tab: Tab, site: Site) -> None:
    # (Tabulator: its handles listen in every row; the header's are where columns resize,
    # and a kit's own class names are no hints; a cell drawing a tick or a cross for its
    # aria-checked reads as the mark)
    await watch_listeners(tab)
    await goto(tab, site.url("resize_grid.html"))
    shot = await tab.snapshot()
    handles = [i for i in shot.refs.values() if i["role"] == "clickable"]
    assert [i["loc"] for i in handles] == ['div.g-col-resize-handle in "Name"',
                                           'div.g-col-resize-handle in "City"'], shot.text
    assert "tabulator" not in shot.text
    assert shot.text.endswith("- row | Ada | Oslo | ✓ |\n  - row | Grace | 42 | ✗ |")


async def test_cells_with_words_listening_as_their_clickable_row_does_get_no_refs_of_their_own(
        tab: Tab, site: Site) -> None:
    # (Grid.js listens on every row and every cell: the row's ref takes the click, and a
    # wordless cell, an icon, keeps its own)
    await watch_listeners(tab)
    await goto(tab, site.url("clickrows.html"))
    shot = await tab.snapshot(interactive=True)
    roles = sorted(i["role"] for i in shot.refs.values())
    assert roles == ["cell", "cell", "row", "row"], shot.text
    await actions.click(tab, target(shot, "row", "Grace grace@example.org"))
    assert await js(tab, "document.getElementById('out').textContent") == "row Grace"


@pytest.mark.parametrize("font", ["", "?font=system"])
async def test_a_ref_whose_row_now_shows_another_entry_acts_on_the_entry_it_was_shown_in(
        tab: Tab, site: Site, font: str) -> None:
    # the rows are drawn into the same elements in a new order: @N of "Delete" in Linus's
    # row is in Margaret's row now; the click goes to Linus's, where the snapshot showed it.
    # (In the font stack Bootstrap and Ant Design set, whose last fallback is "Segoe UI
    # Symbol", the rows' words are words, not an icon font's glyph names.)
    await goto(tab, site.url(f"reuse_rows.html{font}"))
    shot = await tab.snapshot(interactive=True)
    linus = ref(shot, "button", "Delete")
    assert 'in "Linus"' in line_of(shot, linus), shot.text
    await actions.click(tab, parse("#sort"))
    out = await actions.click(tab, parse(linus))
    assert await js(tab, "document.getElementById('out').textContent") == "deleted Linus"
    assert f"in place of {linus}" in out.did, out.did


async def test_a_bare_field_in_a_grid_of_divs_is_hinted_by_its_columns_header(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("grid_field.html"))
    shot = await tab.snapshot(interactive=True)
    assert shot.refs[ref(shot, "spinbutton", "")].get("hint") == "Age", shot.text


async def test_rows_a_framework_writes_after_empty_anchors_name_their_controls_by_their_words(
        tab: Tab, site: Site) -> None:
    # (Vue keeps an empty text node before each cell's words: they are still the row's)
    await goto(tab, site.url("vue_rows.html"))
    shot = await tab.snapshot()
    edits = [info["loc"] for info in shot.refs.values() if info["name"] == "Edit"]
    assert edits == ['button "Edit" in "Ada"', 'button "Edit" in "Alan"',
                     'button "Edit" in "Grace"'], shot.text
    await actions.click(tab, parse('loc=button "Edit" in "Alan"'))
    assert await js(tab, "document.getElementById('out').textContent") == "edit Alan"


async def test_fill_on_a_grid_cell_that_takes_no_text_says_how_its_editor_is_opened(
        tab: Tab, site: Site) -> None:
    # (Handsontable's and AG Grid's cells are plain boxes until their editor opens)
    await goto(tab, site.url("grid_field.html"))
    with pytest.raises(TargetNotInteractable, match=r"does not take text.*nothing was typed\. "
                       r"A grid's cell takes text in the editor it opens: dblclick @\d+"):
        await actions.enter_text(tab, parse('loc=text "Grace"'), "Ada", "fill")
    assert await js(tab, "document.querySelector('[role=gridcell]').textContent") == "Grace"
