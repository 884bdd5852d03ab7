"""What a person cannot reach gets no ref: an `inert` subtree, and, while a modal dialog is
open, the page behind it (the browser makes it inert); their words are still shown, and the
snapshot says a modal dialog is open."""

from __future__ import annotations

import re

import pytest
from fixture_server import Site
from pagetools import goto, ref, target, text_of, watch_listeners
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse
from tabsteward.bridge.errors import TargetCovered, TargetError

pytestmark = pytest.mark.browser


async def test_an_inert_subtree_shows_its_words_but_gives_no_ref(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("inert.html"))
    shot = await tab.snapshot()
    assert "> Recommended for you" in shot.text
    assert "Add the socks" in shot.text
    assert not [r for r, i in shot.refs.items() if i["name"] == "Add the socks"]
    assert ref(shot, "button", "Remove item")
    assert "modal dialog" not in shot.text


async def test_an_open_modal_dialog_leaves_only_its_own_controls_with_refs(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("inert.html"))
    shot = await tab.snapshot(interactive=True)
    behind = ref(shot, "button", "Remove item")
    await actions.click(tab, target(shot, "button", "Sign in"))
    shot = await tab.snapshot(interactive=True)
    assert "note: a modal dialog is open; the page behind it takes no input" in shot.text
    names = sorted(i["name"] for i in shot.refs.values())
    assert names == ["Close", "Email"], shot.text
    # -i says what the dialog asks, over its controls (a <dialog> named by its heading)
    lines = [ln for ln in shot.text.splitlines() if ln.startswith(("-", " "))]
    assert lines[0] == '- dialog "Sign in to continue"', shot.text
    assert all(ln.startswith("  - ") for ln in lines[1:]), shot.text
    # an older ref to what is behind it is still refused, and nothing happens
    with pytest.raises(TargetError, match="nothing was done"):
        await actions.click(tab, parse(behind))
    assert await text_of(tab, "#out") == ""
    await actions.click(tab, target(shot, "button", "Close"))
    shot = await tab.snapshot(interactive=True)
    assert "modal dialog" not in shot.text
    assert ref(shot, "button", "Remove item") == behind


async def test_what_a_closed_modal_shows_again_is_not_marked_new(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("inert.html"))
    shot = await tab.snapshot(interactive=True)
    await actions.click(tab, target(shot, "button", "Sign in"))
    shot = await tab.snapshot(interactive=True)
    assert '"Close" @' in shot.text
    await tab.evaluate(tab.frames[tab.target_id], "document.body.append(Object.assign("
                       "document.createElement('button'), {textContent: 'Added meanwhile'}))")
    closed = await actions.click(tab, target(shot, "button", "Close"))
    assert closed.changes[-1] == 'closed the dialog "Sign in to continue"', closed.text()
    shot = await tab.snapshot(interactive=True)
    marked = sorted(re.sub(r' @\d+.*', "", ln).strip() for ln in shot.text.splitlines()
                    if ln.endswith("[new]"))
    assert marked == ['- button "Added meanwhile"'], shot.text


async def test_a_scoped_snapshot_inside_the_open_dialog_keeps_its_refs(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("inert.html"))
    shot = await tab.snapshot(interactive=True)
    await actions.click(tab, target(shot, "button", "Sign in"))
    await tab.snapshot()
    scoped = await tab.snapshot(scope=parse("#signin"))
    assert sorted(i["name"] for i in scoped.refs.values()) == ["Close", "Email"], scoped.text


async def test_a_pages_own_modal_with_a_veil_leaves_only_its_controls_with_refs(
        tab: Tab, site: Site) -> None:
    await watch_listeners(tab)  # (the veil and the dialog listen for clicks to close)
    await goto(tab, site.url("veilmodal.html"))
    shot = await tab.snapshot(interactive=True)
    behind = ref(shot, "button", "Delete profile")
    await actions.click(tab, target(shot, "button", "Edit profile"))
    shot = await tab.snapshot(interactive=True)
    assert "note: a modal dialog is open; the page behind it takes no input" in shot.text
    lines = [re.sub(r" @\d+| \[new\]", "", ln) for ln in shot.text.splitlines()
             if ln.startswith(("-", " "))]
    # no ref for the veil nor for the dialog's own box, though both listen for clicks
    assert lines == ['- dialog "Edit your profile"', '  - textbox "Name"',
                     '  - button "Save"'], shot.text
    with pytest.raises(TargetError, match="nothing was done"):
        await actions.click(tab, parse(behind))
    assert await text_of(tab, "#out") == "nothing yet"
    await actions.enter_text(tab, target(shot, "textbox", "Name"), "Ada", "fill")
    await actions.click(tab, target(shot, "button", "Save"))
    assert await text_of(tab, "#out") == "saved Ada"
    shot = await tab.snapshot(interactive=True)
    assert "modal dialog" not in shot.text
    assert ref(shot, "button", "Delete profile") == behind


async def test_a_dialog_marked_modal_with_no_veil_leaves_the_page_reachable(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("veilmodal.html"))
    shot = await tab.snapshot(interactive=True)
    await actions.click(tab, target(shot, "button", "What is this?"))
    shot = await tab.snapshot(interactive=True)
    assert "modal dialog" not in shot.text
    await actions.click(tab, target(shot, "button", "Delete profile"))
    assert await text_of(tab, "#out") == "deleted"


async def test_a_dialog_over_a_veil_is_modal_though_it_does_not_say_so(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("veilmodal.html"))
    shot = await tab.snapshot(interactive=True)
    behind = ref(shot, "button", "Delete profile")
    await actions.click(tab, target(shot, "button", "About us"))
    shot = await tab.snapshot(interactive=True)
    assert "note: a modal dialog is open; the page behind it takes no input" in shot.text
    assert "Delete profile" not in shot.text, shot.text
    with pytest.raises(TargetError, match="nothing was done"):
        await actions.click(tab, parse(behind))
    assert await text_of(tab, "#out") == "nothing yet"


@pytest.mark.parametrize("query", ["", "?role=1"], ids=["plain-divs", "dialog-role"])
async def test_a_click_a_cookie_walls_veil_stops_names_the_wall_the_agent_must_answer(
        tab: Tab, site: Site, query: str) -> None:
    await goto(tab, site.url(f"cookiewall.html{query}"))
    shot = await tab.snapshot(interactive=True)
    # (a wall that says it is a dialog is a modal one: the page behind is not listed)
    assert ("modal dialog is open" in shot.text) == bool(query), shot.text
    with pytest.raises(TargetCovered) as stopped:
        await actions.click(tab, parse("#more"))
    message = stopped.value.message
    named = '"Cookie consent"' if query else '"We value your privacy'
    assert re.search(rf'is covered by div#consent.*{named}.* \(over div#veil\); nothing was done',
                     message), message
    assert await text_of(tab, "#out") == "nothing yet"
    await actions.click(tab, target(shot, "button", "Accept all"))
    await actions.click(tab, target(await tab.snapshot(interactive=True), "button", "Read more"))
    assert await text_of(tab, "#out") == "more"


async def test_a_modal_on_a_page_with_a_scroll_bar_is_modal_and_its_header_named_by_its_title(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("dragdialog.html"))
    shot = await tab.snapshot(interactive=True)
    await actions.click(tab, target(shot, "button", "Delete note"))
    shot = await tab.snapshot(interactive=True)
    # the veil reaches the viewport's right edge at the scroll bar, which no point hits
    assert "note: a modal dialog is open" in shot.text
    assert sorted(i["name"] for i in shot.refs.values()) == [
        "Close", "Delete", "Delete this note"], shot.text
    header = next(i for i in shot.refs.values() if "draggable" in i.get("states", []))
    assert header["name"] == "Delete this note"
    # a dialog in a live region is a dialog, not a message
    assert '- dialog "Delete this note"' in shot.text, shot.text


async def test_a_list_a_modals_field_draws_outside_it_over_the_veil_is_chosen_from(
        tab: Tab, site: Site) -> None:
    # (Ant Design, MUI: the select's list is drawn at the end of the page, above the veil;
    # a toast shown before lies over a corner of the viewport, and the modal is one still)
    await goto(tab, site.url("modalportal.html"))
    shot = await tab.snapshot(interactive=True)
    assert "note: a modal dialog is open" in shot.text, shot.text
    assert not [i for i in shot.refs.values() if i["name"] == "Export"], shot.text
    role = parse(ref(shot, "combobox", "Role"))
    await actions.click(tab, role)
    shot = await tab.snapshot(interactive=True)
    assert ref(shot, "clickable", "Editor"), shot.text  # the list over the veil is reached
    await actions.click(tab, role)  # shut again
    await actions.select(tab, role, ["Viewer"])
    shot = await tab.snapshot(interactive=True)
    await actions.click(tab, parse(ref(shot, "button", "Create")))
    assert await text_of(tab, "#out") == "created Viewer"
