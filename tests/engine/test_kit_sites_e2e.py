"""Pages as sites build them, read as a person reads them: a pager's phone-sized twins
hidden at a desktop's width, a blank part of a field's label that listens, a closed dialog
a style sheet lays out see-through; on both transports."""

from __future__ import annotations

import re

import pytest
from fixture_server import Site
from pagetools import (
    goto,
    js,
    line_of,
    listened_snapshot,
    ref,
    run_tool,
    text_of,
    under,
    watch_listeners,
)
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


async def test_a_control_hidden_at_this_width_beside_its_shown_twin_is_no_hover_control(
        tab: Tab, site: Site) -> None:
    # (Syncfusion's grid pager: the phone-sized "previous" was listed first, marked
    # hover-only, and `loc=` took it: "not visible; nothing was done")
    shot = await listened_snapshot(tab, site.url("kitsites.html"))
    assert shot.text.count('button "Go to previous page"') == 1, shot.text
    prev = ref(shot, "button", "Go to previous page")
    assert "hover-only" not in line_of(shot, prev), shot.text
    await actions.click(tab, parse('loc=button "Go to previous page"'))
    assert await text_of(tab, "#page") == "Page 2"


async def test_a_control_shown_only_under_the_pointer_is_still_listed_beside_its_likes(
        tab: Tab, site: Site) -> None:
    shot = await listened_snapshot(tab, site.url("kitsites.html"))
    deletes = [ln for ln in shot.text.splitlines() if 'button "Delete"' in ln]
    assert len(deletes) == 2, shot.text
    assert all("[hover-only]" in ln for ln in deletes), shot.text
    await actions.click(tab, parse('loc=button "Delete" in "Bob: invoice"'))
    assert await text_of(tab, "#out") == "deleted Bob: invoice"


async def test_a_blank_part_of_a_fields_label_that_listens_is_no_control(
        tab: Tab, site: Site) -> None:
    # (Quasar's message line under a field: an empty "clickable" line)
    shot = await listened_snapshot(tab, site.url("kitsites.html"))
    assert not re.search(r"^\s*- clickable @\d+", shot.text, re.M), shot.text


async def test_the_text_of_a_page_leaves_out_a_closed_dialog_laid_out_see_through(
        tab: Tab, site: Site) -> None:
    # (DaisyUI's modal: `text` read "Invite a member Send invite" while none shows)
    await goto(tab, site.url("kitsites.html"))
    for fmt in ("text", "markdown"):
        body = await actions.read(tab, fmt)
        assert "Invite member" in body, body
        assert "Invite a member" not in body, body
        assert "Send invite" not in body, body
    await actions.click(tab, parse("#invite"))
    assert "Send invite" in await actions.read(tab, "text")


async def test_a_combobox_whose_list_opens_on_keys_alone_is_chosen_from_by_typing(
        tab: Tab, site: Site) -> None:
    # (Syncfusion's ComboBox: the words put in at once opened nothing, and the error named
    # another widget's options)
    await goto(tab, site.url("keyupcombo.html"))
    out = await actions.select(tab, parse('loc=combobox "City"'), ["Paris"])
    assert 'chose "Paris"' in out.text(), out.text()
    assert await text_of(tab, "#out") == "city: Paris"


async def test_a_tables_body_that_listens_for_its_rows_keeps_them_one_line_each(
        tab: Tab, site: Site) -> None:
    # (DataTables' Responsive: the body read as one clickable of all its words, no rows)
    shot = await listened_snapshot(tab, site.url("kitsites.html"))
    full = await tab.snapshot(interactive=False)
    assert "- row | Grace Hopper | New York | 85 |" in full.text, full.text
    assert "Ada Lovelace" not in shot.text, shot.text


async def test_the_last_item_of_a_list_keeps_its_line_over_its_controls(
        tab: Tab, site: Site) -> None:
    # (the last file of an upload's list: "cat.png" was nowhere in -i, only its Remove)
    shot = await listened_snapshot(tab, site.url("kitsites.html"))
    items = under(shot, '- listitem "cat.png"')
    assert any('button "Remove"' in ln for ln in items), shot.text


async def test_typing_waits_for_a_list_the_carets_move_delays(tab: Tab, site: Site) -> None:
    # (CKEditor 5's mentions: the wait its selectionchange armed was not waited for)
    await watch_listeners(tab)
    await goto(tab, site.url("mentionlist.html"))
    result = await run_tool(tab, "type", target='loc=textbox "Comment"', text="hi @ca",
                            interactive=True)
    assert 'button "@carol"' in result.text, result.text


async def test_the_cards_of_a_sortable_lane_are_each_taken_hold_of_and_the_lane_is_not(
        tab: Tab, site: Site) -> None:
    # (SortableJS: a lane of one card read as one clickable, the card without a ref; a lane
    # of two a clickable of both cards' words)
    shot = await listened_snapshot(tab, site.url("kitsites.html"))
    for card in ("Write specs", "Fix login bug", "Refactor API"):
        assert "[draggable]" in line_of(shot, ref(shot, "clickable", card)), shot.text
    assert 'clickable "Write specs Fix login bug"' not in shot.text, shot.text


async def test_the_words_of_an_uploads_drop_zone_are_no_items_to_drag(
        tab: Tab, site: Site) -> None:
    # (Dropzone's: each paragraph a clickable [draggable] item of a "list")
    shot = await listened_snapshot(tab, site.url("kitsites.html"))
    zone = [ln for ln in shot.text.splitlines() if "Drag files here" in ln]
    assert len(zone) == 1, shot.text
    assert "[draggable]" not in zone[0], shot.text
    assert 'clickable "PDF or PNG' not in shot.text, shot.text


async def test_an_item_is_reported_by_its_words_as_they_read_with_letters_marked_apart(
        tab: Tab, site: Site) -> None:
    # (Tribute's list: "clicked @3 (listitem "G o r don Ramsey")")
    await goto(tab, site.url("mentionlist.html"))
    out = await actions.hover(tab, parse('loc=listitem "Gordon Ramsey"'))
    assert '"Gordon Ramsey"' in out.text(), out.text()


async def test_buttons_a_class_marks_on_are_pressed_in_a_toolbar_or_where_several_are_on(
        tab: Tab, site: Site) -> None:
    # (Tiptap's toolbar: Bold alone on read [current], Bold and Bullet list on read nothing)
    await goto(tab, site.url("kitsites.html"))
    out = await actions.click(tab, parse('loc=button "Bold"'))
    assert "now pressed" in out.text(), out.text()
    out = await actions.click(tab, parse('loc=button "Bullet list"'))
    assert "now pressed" in out.text(), out.text()
    shot = await tab.snapshot(interactive=True)
    for on in ("Bold", "Bullet list", "Red", "Blue"):
        assert "[pressed" in line_of(shot, ref(shot, "button", on)), shot.text
    for off in ("Italic", "Green"):
        assert "pressed" not in line_of(shot, ref(shot, "button", off)), shot.text
    out = await actions.click(tab, parse('loc=button "Bold"'))
    assert "now not pressed" in out.text(), out.text()


async def test_lines_typed_into_an_editor_that_draws_them_on_its_next_frame_stay_in_order(
        tab: Tab, site: Site) -> None:
    # (Trix's: "abc\ndef\nghi" went in as "abcdef\nghi", the keys after an Enter coming
    # before the frame that put the new line in)
    await goto(tab, site.url("nextframeeditor.html"))
    await actions.enter_text(tab, parse('loc=textbox "Comment"'), "abc\ndef\nghi", "type")
    shown = await js(tab, "[...editor.children].map((d) => d.textContent).join('|')")
    assert shown == "abc|def|ghi"


async def test_a_change_a_click_makes_on_a_timer_it_armed_is_reported(
        tab: Tab, site: Site) -> None:
    # (DataTables 2 sorts in a 0 ms timer: "now named ..." was said only now and then)
    await watch_listeners(tab)
    await goto(tab, site.url("kitsites.html"))
    out = await actions.click(tab, parse("#sort-age"))
    assert 'now named "Age: activate to invert sorting"' in out.text(), out.text()


async def test_what_a_page_lays_see_through_taking_no_pointer_is_not_shown(
        tab: Tab, site: Site) -> None:
    # (Dropzone's "Upload failed" under a file that went up, Editor.js's closed toolbox)
    shot = await listened_snapshot(tab, site.url("kitsites.html"))
    full = await tab.snapshot(interactive=False)
    for hidden in ("Upload failed", "Heading"):
        assert hidden not in full.text, full.text
    assert "cat.png" in full.text, full.text
    await actions.click(tab, parse("#plus"))
    shot = await tab.snapshot(interactive=True)
    await actions.click(tab, parse(ref(shot, "clickable", "Heading")))
    assert await text_of(tab, "#out") == "heading"


async def test_controls_faded_in_under_the_pointer_are_still_listed(
        tab: Tab, site: Site) -> None:
    shot = await listened_snapshot(tab, site.url("kitsites.html"))
    done = ref(shot, "button", "Done")
    assert "[hover-only]" in line_of(shot, done), shot.text
    await actions.click(tab, parse(done))
    assert await text_of(tab, "#out") == "done"


async def test_a_small_control_listening_in_a_wide_cell_that_shows_a_pointer_has_the_ref(
        tab: Tab, site: Site) -> None:
    # (Gmail's star: the ref was the cell's, whose middle is the row's: the mail opened)
    shot = await listened_snapshot(tab, site.url("inboxrows.html"))
    await actions.click(tab, parse('loc=clickable "★" in "Alice Chen"'))
    assert await text_of(tab, "#out") == "Conversation starred"
    assert "cell \"★\"" not in shot.text, shot.text


async def test_a_look_after_a_click_says_a_change_a_timer_made_once(
        tab: Tab, site: Site) -> None:
    # (read again once its timers ran, and again once the look waited: said twice)
    await watch_listeners(tab)
    await goto(tab, site.url("kitsites.html"))
    result = await run_tool(tab, "click", target="#sort-age", interactive=True)
    done = result.text.splitlines()[0]
    assert done.count('now named "Age: activate to invert sorting"') == 1, result.text
