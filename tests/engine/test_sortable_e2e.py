"""Sortable lists: their items get refs, and `drag` drops an item above or below its target
as a person would, with the moves the list's own code follows, reporting the new order; a
board's empty column that takes drops has a ref to drag onto, and its columns of one card or
none are the lists said, not the board; a dialog one drags about keeps its words."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto, js, line_of, ref, target, text_of, under, watch_listeners
from tabsteward.bridge.engine import actions, dragging
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse

pytestmark = pytest.mark.browser


async def test_items_of_draggable_and_sortable_lists_get_refs_that_say_so(
        tab: Tab, site: Site) -> None:
    await watch_listeners(tab)
    await goto(tab, site.url("sortable.html"))
    shot = await tab.snapshot()
    for name in ("Apples", "Dates", "Write report", "Celebrate", "Preheat", "Serve"):
        assert "draggable" in line_of(shot, ref(shot, "listitem", name)).split("[")[-1], name
    handles = [r for r, i in shot.refs.items() if i.get("hint") == "drag handle"]
    assert len(handles) == 4, shot.text
    assert all("draggable" in shot.refs[r]["states"] for r in handles)


async def test_an_html5_drag_down_the_list_drops_below_the_target(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("sortable.html"))
    shot = await tab.snapshot()
    out = await dragging.drag(tab, target(shot, "listitem", "Apples"),
                              target(shot, "listitem", "Cherries"))
    assert await text_of(tab, "#fruit-out") == "dropped Apples: Bananas, Cherries, Apples, Dates"
    assert " below " in out.did
    assert "the list now reads: Bananas | Cherries | Apples | Dates" in out.text()
    assert out.data["order"] == ["Bananas", "Cherries", "Apples", "Dates"]


async def test_an_html5_drag_up_the_list_drops_above_the_target(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("sortable.html"))
    shot = await tab.snapshot()
    out = await dragging.drag(tab, target(shot, "listitem", "Dates"),
                              target(shot, "listitem", "Bananas"))
    assert await text_of(tab, "#fruit-out") == "dropped Dates: Apples, Dates, Bananas, Cherries"
    assert " above " in out.did
    assert "Apples | Dates | Bananas | Cherries (it moved from 4 to 2 of 4)" in out.text()


async def test_a_pointer_event_sortable_list_is_reordered_through_its_items_handle(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("sortable.html"))
    shot = await tab.snapshot()
    out = await dragging.drag(tab, target(shot, "listitem", "Celebrate"),
                              target(shot, "listitem", "Review code"))
    assert await text_of(tab, "#tasks-out") == ("sorted: Write report, Celebrate, Review code, "
                                                "Deploy")
    assert "above" in out.did
    assert "Write report | Celebrate | Review code | Deploy" in out.text()
    shot = await tab.snapshot()
    out = await dragging.drag(tab, target(shot, "listitem", "Write report"),
                              target(shot, "listitem", "Review code"))
    assert await text_of(tab, "#tasks-out") == ("sorted: Celebrate, Review code, Write report, "
                                                "Deploy")
    assert "below" in out.did


async def test_an_item_is_dragged_by_its_unnamed_handle_s_own_ref(
        tab: Tab, site: Site) -> None:
    # what an agent takes hold of when the item's row offers only a grip icon
    await goto(tab, site.url("sortable.html"))
    shot = await tab.snapshot()
    handles = [r for r, i in shot.refs.items() if i.get("hint") == "drag handle"]
    out = await dragging.drag(tab, parse(handles[3]), parse(handles[1]))
    assert await text_of(tab, "#tasks-out") == ("sorted: Write report, Celebrate, Review code, "
                                                "Deploy")
    assert "Write report | Celebrate | Review code | Deploy" in out.text()


async def test_a_list_whose_script_alone_listens_for_presses_and_drops_is_sortable(
        tab: Tab, site: Site) -> None:
    await watch_listeners(tab)
    await goto(tab, site.url("sortable.html"))
    shot = await tab.snapshot()
    out = await dragging.drag(tab, target(shot, "listitem", "Preheat"),
                              target(shot, "listitem", "Bake"))
    assert await text_of(tab, "#steps-out") == "steps: Mix, Bake, Preheat, Serve"
    assert "the list now reads: Mix | Bake | Preheat | Serve" in out.text()


async def test_items_a_list_shows_a_move_cursor_over_get_refs_that_say_so(
        tab: Tab, site: Site) -> None:
    # SortableJS in its fallback mode marks nothing: the cursor is what tells a person
    await goto(tab, site.url("liftsort.html"))
    shot = await tab.snapshot()
    for name in ("North", "East", "South", "West"):
        assert "draggable" in line_of(shot, ref(shot, "listitem", name)).split("[")[-1], name
    assert not [r for r, i in shot.refs.items() if i["role"] == "heading"], shot.text


async def test_a_list_that_lifts_the_item_drops_it_where_its_placeholder_stands(
        tab: Tab, site: Site) -> None:
    # jQuery UI's way: the item follows the pointer out of the list's flow, over the items
    # it passes, and a placeholder shows where it will land; the list's items do not move
    # under the pointer to follow it
    await goto(tab, site.url("liftsort.html"))
    shot = await tab.snapshot()
    out = await dragging.drag(tab, target(shot, "listitem", "Apples"),
                              target(shot, "listitem", "Cherries"))
    assert await text_of(tab, "#lifted-out") == "lifted: Bananas, Cherries, Apples, Dates"
    assert " below " in out.did, out.did
    assert "Bananas | Cherries | Apples | Dates (it moved from 1 to 3 of 4)" in out.text()
    shot = await tab.snapshot()
    out = await dragging.drag(tab, target(shot, "listitem", "Dates"),
                              target(shot, "listitem", "Bananas"))
    assert await text_of(tab, "#lifted-out") == "lifted: Dates, Bananas, Cherries, Apples"
    assert " above " in out.did, out.did


async def test_a_drag_right_after_another_waits_for_the_list_to_stop_sliding(
        tab: Tab, site: Site) -> None:
    # the items slide to their places for 300 ms after a drop, and the list ignores a press
    # on one still sliding, as SortableJS does
    await goto(tab, site.url("liftsort.html"))
    shot = await tab.snapshot()
    await dragging.drag(tab, target(shot, "listitem", "North"),
                        target(shot, "listitem", "South"))
    assert await text_of(tab, "#slid-out") == "slid: East, South, North, West"
    shot = await tab.snapshot()
    out = await dragging.drag(tab, target(shot, "listitem", "East"),
                              target(shot, "listitem", "North"))
    assert await text_of(tab, "#slid-out") == "slid: South, North, East, West"
    assert "South | North | East | West (it moved from 1 to 3 of 4)" in out.text()


async def test_a_drag_that_changes_nothing_says_the_order_did_not_change(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("sortable.html"))
    shot = await tab.snapshot()
    # dropped onto itself: the list stays as it was, and the report says so
    out = await dragging.drag(tab, target(shot, "listitem", "Apples"),
                              target(shot, "listitem", "Apples"))
    assert "the list's order did not change" in out.text()
    assert await text_of(tab, "#fruit-out") == "dropped Apples: Apples, Bananas, Cherries, Dates"


async def test_a_drag_whose_target_must_be_scrolled_into_view_moves_the_asked_for_item(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("draglists.html"))
    shot = await tab.snapshot()
    out = await dragging.drag(tab, target(shot, "listitem", "Task 2"),
                              target(shot, "listitem", "Task 11"))
    order = ",".join(f"Task {i}" for i in (1, *range(3, 12), 2, 12))
    assert await text_of(tab, "#out") == f"tasks: {order}"
    assert out.did.endswith('below @' + shot.text.split('"Task 11" @')[1].split()[0] +
                            ' (listitem "Task 11")'), out.did
    assert "(it moved from 2 to 11 of 12)" in out.text()


@pytest.mark.parametrize(("board", "item", "onto", "page", "said", "lists"), [
    # pointer events, the card moving as the pointer moves: onto a card higher up
    ("pointer", "Add mode", "Refactor", "todo: Fix bug,Bump deps | doing: Add mode,Refactor",
     "above", ["Add mode | Refactor (it is 1 of 2)", "Fix bug | Bump deps"]),
    # HTML5 drag and drop, placed on drop: onto a card lower down
    ("html5", "Card A", "Card E", "todo: Card B | doing: Card D,Card E,Card A",
     "below", ["Card D | Card E | Card A (it is 3 of 3)", "Card B"]),
])
async def test_a_drag_to_another_list_reports_the_side_it_landed_on_and_both_lists(
        tab: Tab, site: Site, board: str, item: str, onto: str, page: str, said: str,
        lists: list[str]) -> None:
    await goto(tab, site.url("draglists.html"))
    shot = await tab.snapshot()
    out = await dragging.drag(tab, target(shot, "listitem", item),
                              target(shot, "listitem", onto))
    assert await text_of(tab, "#out") == page
    assert f" {said} " in out.did, out.did
    # (and the page's line of both lists' orders, rewritten: what the page now shows)
    assert out.changes == [f"it moved to another list, which now reads: {lists[0]}",
                           f"the list it left now reads: {lists[1]}",
                           f'the page now shows "{page}"'], out.text()
    assert out.data["order"] == lists[0].split(" (")[0].split(" | ")


async def test_a_long_self_scrolling_list_is_reported_cut_with_a_mark_and_its_true_count(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("draglists.html"))
    shot = await tab.snapshot()
    out = await dragging.drag(tab, target(shot, "listitem", "Track 01"),
                              target(shot, "listitem", "Track 35"))
    tracks = [f"Track {i:02}" for i in (*range(2, 36), 1, *range(36, 41))]
    assert await text_of(tab, "#out") == "long: " + ",".join(tracks)
    assert ' below ' in out.did, out.did
    assert out.changes == ["the list now reads: [+10 before] | " + " | ".join(tracks[10:]) +
                           " (it moved from 1 to 35 of 40)"]
    assert out.data["order"] == tracks
    assert out.data["order_count"] == 40


@pytest.mark.parametrize(("item", "onto", "page", "said", "order"), [
    # down its own list: the cards it passes slide up into its place as it goes
    ("Write spec", "Review parser", "todo: Fix login bug, Review parser, Write spec, Plan sprint",
     "below",
     "Fix login bug | Review parser | Write spec | Plan sprint (it moved from 1 to 3 of 4)"),
    # up its own list
    ("Plan sprint", "Fix login bug", "todo: Write spec, Plan sprint, Fix login bug, Review parser",
     "above",
     "Write spec | Plan sprint | Fix login bug | Review parser (it moved from 4 to 2 of 4)"),
])
async def test_a_list_that_slides_its_cards_aside_and_lets_the_pointer_through_takes_the_drop(
        tab: Tab, site: Site, item: str, onto: str, page: str, said: str, order: str) -> None:
    # (react-beautiful-dnd, dnd-kit: the target slides away from a pointer that follows it,
    # and every card takes pointer-events none while one is held; the heading of the
    # column is no card)
    await goto(tab, site.url("makeroom.html"))
    shot = await tab.snapshot()
    out = await dragging.drag(tab, target(shot, "button", item), target(shot, "button", onto))
    assert await text_of(tab, "#out") == page
    assert f" {said} " in out.did, out.did
    assert out.changes == [f"the list now reads: {order}", f'the page now shows "{page}"'], \
        out.text()


async def test_a_card_dropped_on_another_column_lands_where_the_column_made_room(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("makeroom.html"))
    shot = await tab.snapshot()
    out = await dragging.drag(tab, target(shot, "button", "Fix login bug"),
                              target(shot, "button", "Ship v1"))
    # the column's order changes only once the card slid into its place: it is waited for
    assert await text_of(tab, "#out") == ("done: Fix login bug, Ship v1, Update docs | "
                                          "todo: Write spec, Review parser, Plan sprint")
    assert out.changes == [
        "it moved to another list, which now reads: Fix login bug | Ship v1 | Update docs "
        "(it is 1 of 3)", "the list it left now reads: Write spec | Review parser | Plan sprint",
        'the page now shows "done: Fix login bug, Ship v1, Update docs | todo: Write spec, '
        'Review parser, Plan sprint"'], out.text()


async def test_a_drag_near_the_windows_edge_is_made_from_its_middle(
        tab: Tab, site: Site) -> None:
    # the list stands at the bottom of the window, where the page scrolls by itself while a
    # card is held (measured on dnd-kit: the drop then lands an item too far): the window
    # is scrolled to show both ends in its middle first, and never scrolls by itself
    await goto(tab, site.url("makeroom.html"))
    await tab.evaluate(tab.frames[tab.target_id], (
        "(() => { const r = [...document.querySelectorAll('[data-card]')].find((c) => "
        "c.textContent === 'Retro').getBoundingClientRect(); "
        "scrollBy(0, r.bottom - innerHeight + 4); })()"))
    shot = await tab.snapshot()
    out = await dragging.drag(tab, target(shot, "button", "Tidy up"),
                              target(shot, "button", "Archive logs"))
    assert await text_of(tab, "#out") == "later: Write blog post, Archive logs, Tidy up, Retro"
    assert " below " in out.did, out.did
    assert await tab.evaluate(tab.frames[tab.target_id],
                              "document.body.dataset.autoScrolled || 'no'") == "no"


async def test_items_held_by_a_handle_named_for_them_are_read_by_their_own_words(
        tab: Tab, site: Site) -> None:
    # dnd-kit's way: each item's handle is a button labelled "Drag <item>" showing a grip;
    # the item is named and reported by its words, not the handle's name before them
    await goto(tab, site.url("sortable.html"))
    for interactive in (False, True):
        shot = await tab.snapshot(interactive=interactive)
        for name in ("Alpha", "Delta"):
            assert f'- listitem "{name}"\n' in shot.text, shot.text
            assert under(shot, f'- listitem "{name}"')[0].startswith(f'- button "Drag {name}" @')
    out = await dragging.drag(tab, parse(ref(shot, "button", "Drag Delta")),
                              parse(ref(shot, "button", "Drag Bravo")))
    assert await text_of(tab, "#crew-out") == "crew: Alpha, Delta, Bravo, Charlie"
    assert "the list now reads: Alpha | Delta | Bravo | Charlie" in out.text(), out.text()


async def test_a_kits_sortable_list_whose_classes_carry_its_prefix_is_dragged_by_its_handles(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("kitsortable.html"))
    shot = await tab.snapshot()
    for name in ("Speed", "Support"):
        assert "draggable" in line_of(shot, ref(shot, "listitem", name)).split("[")[-1], name
    out = await dragging.drag(tab, target(shot, "listitem", "Support"),
                              target(shot, "listitem", "Speed"))
    assert await text_of(tab, "#order") == "Order: Support, Speed, Price, Quality"
    assert "the list now reads: Support | Speed | Price | Quality" in out.text()


async def test_a_tree_drawn_anew_by_the_drop_reports_its_rows_new_order(
        tab: Tab, site: Site) -> None:
    # (the title is dragged, its row is the item: the row's words, not the title's box)
    await watch_listeners(tab)
    await goto(tab, site.url("treedrag.html"))
    shot = await tab.snapshot()
    out = await dragging.drag(tab, target(shot, "clickable", "components"),
                              target(shot, "clickable", "Modal.tsx"))
    assert await text_of(tab, "#log") == "Button.tsx,Modal.tsx,components,utils,index.ts"
    assert "the list's order did not change" not in out.text(), out.text()
    assert "now reads: Button.tsx | Modal.tsx | components | utils | index.ts" in out.text(), \
        out.text()


async def test_a_boards_empty_column_takes_a_card_and_its_columns_are_the_lists_said(
        tab: Tab, site: Site) -> None:
    await watch_listeners(tab)
    await goto(tab, site.url("boardcols.html"))
    shot = await tab.snapshot(interactive=True)
    done = next(r for r, i in shot.refs.items() if i.get("hint") == "list")
    out = await dragging.drag(tab, target(shot, "clickable", "Refactor"), parse(done))
    assert await js(tab, "document.getElementById('done').textContent.trim()") == "Refactor"
    said = out.text()
    assert "it moved to another list, which now reads: Refactor (it is 1 of 1)" in said, said
    assert "the list it left is now empty" in said, said
    shot = await tab.snapshot(interactive=True)
    out = await dragging.drag(tab, target(shot, "clickable", "Write docs"),
                              target(shot, "clickable", "Refactor"))
    said = out.text()
    assert "which now reads: Write docs | Refactor (it is 1 of 2)" in said, said
    assert "the list it left now reads: Fix bug" in said, said


async def test_a_dialog_one_drags_about_keeps_its_words_and_a_card_is_named_by_its_own(
        tab: Tab, site: Site) -> None:
    # (jQuery UI marks the whole box it moves ui-draggable: the dialog keeps its title as
    # its name and its question as a line, as a dialog that does not move does)
    await goto(tab, site.url("dragboxes.html"))
    shot = await tab.snapshot()
    box = ref(shot, "dialog", "Empty the recycle bin?")
    assert "[draggable]" in line_of(shot, box)
    assert "> These items will be deleted for good. Are you sure?" in shot.text, shot.text
    card = ref(shot, "clickable", "Note card Call Bob at five.")
    assert "[draggable]" in line_of(shot, card)
    await actions.click(tab, target(shot, "button", "Delete all items"))
    assert await text_of(tab, "#out") == "emptied"
