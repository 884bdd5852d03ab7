"""What an action changed, as React apps draw it: a toast stacked as an item of a live
list is said; words a page rewrites in place are said as what the page now shows (not a
clock's tick); an alert said before and hidden from assistive technology while a menu was
open is not said again as it shows; a field a kit hides for its form's sake is no news;
an icon whose item the page reuses for another entry says so; a toast fading out says
so; a screen reader's announcement kept in a pixel is no text of the snapshot; cards a
Load more adds to a grid of boxes are items added; an editor a button changed is said
changed; an item its menu hides as it is chosen says so, and an empty list of no size is no
control; on both transports."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto, ref, watch_listeners
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


async def opened(tab: Tab, site: Site) -> None:
    await watch_listeners(tab)
    await goto(tab, site.url("saidmore.html"))


async def test_a_toast_stacked_as_an_item_of_a_live_list_is_said(tab: Tab, site: Site) -> None:
    # (sonner: `<section aria-live>` holding an `ol`, each toast an `li`: said nothing)
    await opened(tab, site)
    out = await actions.click(tab, parse("#del-invoice"))
    assert 'the page said "Invoice #1002 deleted"' in out.changes, out.text()


async def test_words_rewritten_in_place_are_what_the_page_now_shows(
        tab: Tab, site: Site) -> None:
    # (a cart's count in its link, a stepper's step: -i leaves text out, and the click said
    # nothing)
    await opened(tab, site)
    out = await actions.click(tab, parse("#add"))
    assert 'the page now shows "Cart (1)"' in out.changes, out.text()
    out = await actions.click(tab, parse("#next"))
    assert 'the page now shows "Step 2 of 3"' in out.changes, out.text()
    assert not any("10:41" in c for c in out.changes), out.text()
    out = await actions.click(tab, parse("#olive"))  # (a price: a sum, no letter)
    assert 'the page now shows "$129.00"' in out.changes, out.text()
    # (a password's strength in the box that holds the field: read as the field's own box)
    out = await actions.enter_text(tab, parse("#pw"), "abcdefgh1234", "fill")
    assert 'the page now shows "Strength: Strong"' in out.changes, out.text()


async def test_words_a_menu_leaves_seen_behind_it_are_said(tab: Tab, site: Site) -> None:
    # (Headless UI's menu makes the rest of the page aria-hidden and inert; an item that
    # leaves it open changed a line the person sees, and the click said nothing)
    await opened(tab, site)
    await actions.click(tab, parse("#actions"))
    out = await actions.click(tab, parse("#dup"))
    assert 'the page now shows "Last action: Duplicate"' in out.changes, out.text()


async def test_an_alert_said_before_is_not_said_again_as_a_menu_closing_shows_it(
        tab: Tab, site: Site) -> None:
    # (MUI: a menu's popup hides the app behind it with aria-hidden; its alert came back
    # as news once the menu closed)
    await opened(tab, site)
    await actions.enter_text(tab, parse("#nm"), "Ada", "fill")
    out = await actions.click(tab, parse('loc=button "Save"'))
    assert 'the page said "Saved Ada"' in out.changes, out.text()
    await actions.click(tab, parse("#menu"))
    out = await actions.click(tab, parse("#rename"))
    assert not any("Saved Ada" in c for c in out.changes), out.text()


async def test_a_field_a_kit_hides_for_its_forms_sake_is_no_news(tab: Tab, site: Site) -> None:
    # (MUI's select: `"textbox" now '20'` from its see-through aria-hidden input)
    await opened(tab, site)
    out = await actions.select(tab, parse("#age"), ["Twenty"])
    assert out.changes[-1] == "value now 'Twenty'", out.text()
    assert not any("now '20'" in c for c in out.changes), out.text()


async def test_an_icon_whose_item_the_page_reuses_for_another_entry_says_so(
        tab: Tab, site: Site) -> None:
    # (a chip list keyed by place: "Alien" deleted, its delete icon now Vertigo's, and
    # the click said nothing: its retry deletes Vertigo)
    await opened(tab, site)
    shot = await tab.snapshot(interactive=True)
    line = next(ln for ln in shot.text.splitlines() if 'in "Alien"' in ln)
    out = await actions.click(tab, parse(line.split()[2]))
    assert 'it now stands in "Vertigo"' in out.changes, out.text()
    assert 'the page now shows "Favorites: Pulp Fiction, Vertigo"' in out.changes, out.text()


async def test_a_toast_its_close_fades_out_says_so(tab: Tab, site: Site) -> None:
    await opened(tab, site)
    await actions.click(tab, parse("#save-settings"))
    out = await actions.click(tab, parse('loc=button "Close"'))
    assert "it is fading out of the page" in out.changes, out.text()


async def test_an_announcement_kept_in_a_pixel_is_said_but_no_text_of_the_snapshot(
        tab: Tab, site: Site) -> None:
    # (@hello-pangea/dnd's announcer: "> You have dropped the item" under the page's lines)
    await opened(tab, site)
    out = await actions.click(tab, parse("#move"))
    assert 'the page said "You have dropped the item"' in out.changes, out.text()
    shot = await tab.snapshot(interactive=False)
    assert "You have dropped" not in shot.text, shot.text
    assert ref(shot, "button", "Move card")


async def test_cards_a_load_more_adds_to_a_grid_of_boxes_are_items_added(
        tab: Tab, site: Site) -> None:
    # (a grid of divs of one class: "Ridge Jacket 4", "Ridge Jacket 5", ... said one by one
    # as what the page shows, where a list's items are counted)
    await opened(tab, site)
    out = await actions.click(tab, parse("#more"))
    assert out.changes == ["3 items added to a list"], out.text()


async def test_an_editor_a_button_changed_is_said_changed(tab: Tab, site: Site) -> None:
    # (Lexical's Clear and Undo: a textarea's change was said, an editor's not)
    await opened(tab, site)
    out = await actions.click(tab, parse("#clear-story"))
    assert "\"Story\" now ''" in out.changes, out.text()


async def test_an_item_its_menu_hides_as_it_is_chosen_says_so_and_an_empty_list_is_none(
        tab: Tab, site: Site) -> None:
    # (a block editor's "/" menu hidden by a class: the click said nothing; Lexical's empty
    # typeahead list of no size listed on every page of the editor, refused as hidden)
    await opened(tab, site)
    shot = await tab.snapshot(interactive=True)
    assert "Typeahead menu" not in shot.text, shot.text
    out = await actions.click(tab, parse("#h1"))
    assert out.changes == ["it is no longer shown"], out.text()
