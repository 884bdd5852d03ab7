"""Snapshots of real pages: refs, locators, states, options, new marks, secrets."""

from __future__ import annotations

import json
import re

import pytest
from fixture_server import Site
from pagetools import goto, js, line_of, loc_on_line, ref, target, text_of, watch_listeners
from tabsteward.bridge.engine import actions, navigation
from tabsteward.bridge.engine.snapshot import UNTRUSTED
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse
from tabsteward.bridge.errors import RefNotFound

pytestmark = pytest.mark.browser

REF_WORD = re.compile(r"^@\d+$")


def ref_words(text: str) -> list[str]:
    return [w for w in text.split() if REF_WORD.match(w)]


async def test_snapshot_names_the_page_and_labels_its_content_untrusted(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("form.html"))
    shot = await tab.snapshot()
    head = shot.text.splitlines()[:3]
    assert head[0] == UNTRUSTED  # the page's title and address are its words: below it
    assert head[1] == "page: Sign up"
    assert head[2] == f"url: {site.url('form.html')}"
    assert shot.title == "Sign up"
    assert shot.url == site.url("form.html")


async def test_snapshot_shows_roles_names_headings_landmarks_and_text(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("form.html"))
    text = (await tab.snapshot()).text
    assert '- navigation "Main"' in text
    assert "- main" in text
    assert '- heading "Create an account" [level=1]' in text
    assert "> Fill in the form below. All fields are needed." in text
    assert re.search(r'- textbox "Email" @\d+ \[required\]', text)
    assert re.search(r'- link "Other page" @\d+', text)


async def test_ref_keeps_its_number_across_snapshots(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("mutate.html"))
    first = await tab.snapshot()
    item = ref(first, "button", "Item 1")
    add = ref(first, "button", "Add item")
    await actions.click(tab, parse(add))  # inserts a new element after Item 1
    await actions.click(tab, parse(add))
    second = await tab.snapshot()
    third = await tab.snapshot(interactive=True)
    assert ref(second, "button", "Item 1") == item
    assert ref(third, "button", "Item 1") == item
    assert ref(second, "button", "Add item") == add
    # new elements get new numbers, never a reused one
    assert ref(second, "button", "Item 2") not in first.refs
    assert ref(second, "button", "Item 2") != ref(second, "button", "Item 3")


async def test_interactive_snapshot_lists_only_refs_and_the_items_that_hold_them(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("form.html"))
    full = await tab.snapshot()
    inter = await tab.snapshot(interactive=True)
    body = inter.text.split(UNTRUSTED, 1)[1].strip().splitlines()[2:]  # after page:, url:
    assert body, inter.text
    for i, line in enumerate(body):
        assert line.lstrip().startswith("- "), line  # no text lines
        if not ref_words(line):  # a list item's line, its link indented under it
            assert line == '- listitem "Two"', line
            assert body[i + 1].startswith("  - link \"link\" @"), body
        else:
            assert len(ref_words(line)) == 1, line
            assert line.startswith("- ") or body[i - 1] == '- listitem "Two"', line
    assert set(inter.refs) == set(full.refs)
    assert "heading" not in inter.text
    assert "Fill in the form below" not in inter.text


@pytest.mark.parametrize("page", ["form.html", "icons.html", "feed.html"])
async def test_every_ref_has_a_locator_read_off_its_line_that_finds_the_same_element(
        tab: Tab, site: Site, page: str) -> None:
    await goto(tab, site.url(page))
    for interactive in (False, True):
        shot = await tab.snapshot(interactive=interactive)
        assert len(shot.refs) >= 10
        for r, info in shot.refs.items():
            line = line_of(shot, r)
            # printed, or the line's own role and name with its nth= (bridge/SKILL.md)
            assert loc_on_line(line) == info["loc"], line
            if interactive:
                continue  # the same element, found once is enough
            handle = await tab.resolve(parse("loc=" + info["loc"]))
            assert f"@{handle.ref}" == r, f"loc={info['loc']} found @{handle.ref}, not {r}"


async def test_password_value_never_appears_in_snapshot(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("controls.html"))
    secret = "hunter2-Brand-New"
    shot = await tab.snapshot()
    pw = ref(shot, "textbox", "Password")
    out = await actions.enter_text(tab, parse(pw), secret, "fill")
    assert await js(tab, "document.getElementById('pw').value") == secret  # it did go in
    outputs = [out.text(), json.dumps(out.data)]
    for interactive in (False, True):
        after = await tab.snapshot(interactive=interactive)
        outputs += [after.text, json.dumps(after.refs)]
    scoped = await tab.snapshot(scope=parse(pw))
    outputs += [scoped.text, json.dumps(scoped.refs)]
    outputs.append(await actions.read(tab, "text"))
    outputs.append(await actions.read(tab, "markdown"))
    for text in outputs:
        assert secret not in text
        assert "s3cret-Initial" not in text
    assert "value=" in line_of(after, pw)  # it says there is a value, without showing it


async def test_textarea_is_told_apart_from_a_one_line_input(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("controls.html"))
    shot = await tab.snapshot()
    one = line_of(shot, ref(shot, "textbox", "One line"))
    many = line_of(shot, ref(shot, "textbox", "Many lines"))
    editor = line_of(shot, ref(shot, "textbox", "Editor"))
    assert "multiline" not in one
    assert "[multiline]" in many
    assert "[multiline]" in editor
    assert 'value="single"' in one
    assert 'value="first\\nsecond"' in many  # a value's line break keeps one element a line


async def test_expanded_tree_item_is_told_apart_from_a_collapsed_one(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("controls.html"))
    shot = await tab.snapshot()
    docs = ref(shot, "treeitem", "docs")
    src = [r for r, i in shot.refs.items() if i["role"] == "treeitem" and
           i["name"].startswith("src")]
    assert len(src) == 1, shot.text
    assert "[expanded]" in line_of(shot, src[0])
    assert "[collapsed]" in line_of(shot, docs)
    out = await actions.click(tab, parse(docs))
    assert "now expanded" in out.text()
    after = await tab.snapshot()
    assert "[expanded]" in line_of(after, docs)


async def test_states_checked_disabled_required_and_focused_are_shown(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("controls.html"))
    shot = await tab.snapshot()
    assert "checked" not in line_of(shot, ref(shot, "checkbox", "Newsletter"))
    assert "[checked]" in line_of(shot, ref(shot, "checkbox", "Terms accepted"))
    assert "[checked]" in line_of(shot, ref(shot, "radio", "Standard"))
    assert "[disabled]" in line_of(shot, ref(shot, "button", "Disabled action"))
    assert "[required]" in line_of(shot, ref(shot, "textbox", "Required"))
    assert "checked" not in line_of(shot, ref(shot, "checkbox", "Dark mode"))
    await actions.focus(tab, parse("#oneline"))
    after = await tab.snapshot()
    assert "focused" in line_of(after, ref(after, "textbox", "One line"))


async def test_select_shows_its_value_and_options(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("controls.html"))
    shot = await tab.snapshot()
    line = line_of(shot, ref(shot, "combobox", "Size"))
    assert 'value="Small"' in line
    assert 'options="Small|Medium|Large|Extra large" disabled="Extra large"' in line
    assert ref(shot, "listbox", "Toppings")


async def test_a_selects_ref_in_json_lists_its_options_with_values_and_states(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("controls.html"))
    await js(tab, "document.getElementById('toppings').options[2].selected = true")
    shot = await tab.snapshot()
    assert shot.refs[ref(shot, "combobox", "Size")]["options"] == [
        {"text": "Small", "value": "s", "selected": True}, {"text": "Medium", "value": "m"},
        {"text": "Large", "value": "l"}, {"text": "Extra large", "value": "xl", "disabled": True}]
    toppings = shot.refs[ref(shot, "listbox", "Toppings")]
    assert [o["text"] for o in toppings["options"] if o.get("selected")] == ["Sweet corn"]
    assert "options_left" not in toppings
    await goto(tab, site.url("countries.html"))  # 40 options: the first 25, and the count
    shot = await tab.snapshot()
    country = shot.refs[ref(shot, "combobox", "Country")]
    assert (len(country["options"]), country["options_left"]) == (25, 15)


async def test_a_password_inside_another_element_is_no_part_of_its_name(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("password-in-name.html"))
    shot = await tab.snapshot()
    assert ref(shot, "button", "Reveal")
    assert ref(shot, "button", "Code")
    for secret in ("saved-by-browser", "73915"):
        assert secret not in shot.text
        assert secret not in json.dumps(shot.refs)


async def test_a_long_select_says_how_many_options_are_left_out_and_text_reads_them_all(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("countries.html"))
    shot = await tab.snapshot()
    country = ref(shot, "combobox", "Country")
    assert '|Country 25" [+15 options]' in line_of(shot, country)
    kind, text = await actions.read_element(tab, parse(country))
    assert kind == "options"
    assert text.splitlines()[0] == "Country 01 [selected]"
    assert text.splitlines()[-1] == "Country 40"


async def test_max_chars_cuts_with_a_note(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("long.html"))
    full = await tab.snapshot()
    cut = await tab.snapshot(max_chars=600)
    assert len(cut.text) <= 600 + 200  # the note itself may pass the limit
    note = cut.text.splitlines()[-1]
    assert note.startswith("[cut: ")
    assert "over --max-chars 600;" in note
    assert len(cut.text) < len(full.text)
    # the refs listed are exactly those still in the text
    assert set(cut.refs) == set(ref_words(cut.text))
    assert set(cut.refs) < set(full.refs)


async def test_viewport_snapshot_leaves_out_what_is_below_the_fold(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("long.html"))
    view = await tab.snapshot(viewport=True)
    assert "Top button" in view.text
    assert "Paragraph 1:" in view.text
    assert "Bottom button" not in view.text
    assert "Paragraph 80" not in view.text
    full = await tab.snapshot()
    assert "Bottom button" in full.text


async def test_scoped_snapshot_shows_only_the_subtree(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("form.html"))
    shot = await tab.snapshot()
    nav = await tab.snapshot(scope=parse("nav"))
    assert "Other page" in nav.text
    assert "Create account" not in nav.text
    assert ref(nav, "link", "Other page") == ref(shot, "link", "Other page")


async def test_new_elements_are_marked_new(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("mutate.html"))
    await actions.wait(tab, text="Late button")
    first = await tab.snapshot()
    assert "[new]" not in first.text  # the first snapshot of a page marks nothing
    await actions.click(tab, target(first, "button", "Add item"))
    second = await tab.snapshot()
    assert line_of(second, ref(second, "button", "Item 2")).endswith("[new]")
    assert "[new]" not in line_of(second, ref(second, "button", "Item 1"))
    third = await tab.snapshot()
    assert "[new]" not in third.text  # new once, then known


async def test_click_handler_icons_get_refs(tab: Tab, site: Site) -> None:
    await watch_listeners(tab)
    await goto(tab, site.url("social.html"))
    shot = await tab.snapshot()
    icons = await js(tab, "document.querySelectorAll('.controls span').length")
    clickables = [r for r, i in shot.refs.items() if i["role"] == "clickable"]
    assert len(clickables) == icons, shot.text
    # the third icon of the second tweet is its like button
    lines = shot.text.splitlines()
    start = next(i for i, ln in enumerate(lines) if "Tweet two text" in ln)
    second = [w for ln in lines[start:] for w in ref_words(ln)]
    out = await actions.click(tab, parse(second[2]))
    assert out.did.startswith(f"clicked {second[2]}")
    assert await text_of(tab, "#out") == "like tweet 2"


async def test_nested_clickables_each_get_a_ref(tab: Tab, site: Site) -> None:
    await watch_listeners(tab)
    await goto(tab, site.url("social.html"))
    await js(tab, """(() => {
        const card = document.querySelector('.media');
        card.style.cursor = 'pointer';
        card.addEventListener('click', () => {});
        const link = document.createElement('a');
        link.href = '#profile'; link.textContent = 'Profile';
        card.querySelector('.details').appendChild(link);
    })()""")
    shot = await tab.snapshot()
    assert ref(shot, "link", "Profile")
    assert len([i for i in shot.refs.values() if i["role"] == "clickable"]) >= 10


async def test_using_a_ref_before_any_snapshot_takes_one(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("form.html"))
    handle = await tab.resolve(parse("@1"))
    info = await tab.info(handle)
    assert info["role"]
    assert info["name"]
    shot = await tab.snapshot()
    assert info["name"] in line_of(shot, "@1")


async def test_unknown_ref_is_refused_saying_what_to_do(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("form.html"))
    await tab.snapshot()
    with pytest.raises(RefNotFound, match=r"nothing was done.*snapshot"):
        await actions.click(tab, parse("@999"))


async def test_stale_ref_falls_back_to_role_and_name(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("rerender.html"))
    shot = await tab.snapshot()
    save = ref(shot, "button", "Save")
    await actions.click(tab, target(shot, "button", "Redraw"))  # every button in #box is new
    out = await actions.click(tab, parse(save))
    assert await text_of(tab, "#out") == "save clicked"
    assert "Save" in out.did


async def test_stale_ref_to_the_second_of_two_same_named_buttons_clicks_the_second(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("rerender.html"))
    shot = await tab.snapshot()
    second_edit = ref(shot, "button", "Edit", nth=1)
    assert line_of(shot, second_edit).endswith('in "Second row"')
    await actions.click(tab, target(shot, "button", "Redraw"))
    await actions.click(tab, parse(second_edit))
    assert await text_of(tab, "#out") == "edit 2 clicked"


async def test_stale_ref_in_a_list_drawn_anew_acts_on_its_own_item_not_the_one_now_there(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("rerender.html"))
    shot = await tab.snapshot(interactive=True)
    deletes = [r for r, i in shot.refs.items() if i["name"] == "Delete"]
    assert len(deletes) == 4
    assert line_of(shot, deletes[2]).endswith('in "Bread"'), shot.text
    # a link named by words keeps its nth=: where it goes tells it, not the item it sits in
    recipes = [r for r, i in shot.refs.items() if i["name"] == "Recipes"]
    assert line_of(shot, recipes[2]).endswith("nth=2"), shot.text
    await actions.click(tab, parse(deletes[0]))  # Milk goes; the list is drawn anew
    assert await text_of(tab, "#out") == "deleted Milk"
    # the third button is Cheese's now: the old ref still means Bread's
    out = await actions.click(tab, parse(deletes[2]))
    assert await text_of(tab, "#out") == "deleted Bread"
    # (found again by its card, Bread's, where a like button came in its place: the ref is
    # that one now, as a row drawn anew as it was keeps its refs)
    assert out.did.startswith(f'clicked {deletes[2]} (button "Delete"'), out.did


async def test_a_ref_of_the_page_before_a_navigation_is_refused_not_sent_to_its_namesake(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("drafts.html"))
    shot = await tab.snapshot(interactive=True)
    draft_delete = ref(shot, "button", "Delete")
    out = await actions.click(tab, target(shot, "link", "Account settings"))
    assert "navigated to" in out.text(), out.text()
    # the account page has its own "Delete", alike in role, name and place
    with pytest.raises(RefNotFound, match="was on an earlier page: the tab has loaded another"):
        await actions.click(tab, parse(draft_delete))
    assert await text_of(tab, "#st") == ""
    await tab.snapshot(interactive=True)  # read the new page first: still refused
    with pytest.raises(RefNotFound, match="earlier page"):
        await actions.click(tab, parse(draft_delete))
    assert await text_of(tab, "#st") == ""


async def test_a_ref_taken_before_a_reload_is_refused(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("drafts.html"))
    delete = ref(await tab.snapshot(interactive=True), "button", "Delete")
    await navigation.reload(tab)
    with pytest.raises(RefNotFound, match="earlier page"):
        await actions.click(tab, parse(delete))
    assert await text_of(tab, "#st") == ""


async def test_stale_ref_in_a_changed_list_of_rows_with_no_words_is_refused(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("rerender.html"))
    shot = await tab.snapshot(interactive=True)
    frees = [r for r, i in shot.refs.items() if i["name"] == "Free"]
    assert len(frees) == 3, shot.text
    assert "nth=2" in line_of(shot, frees[2]), shot.text
    await actions.click(tab, parse(frees[0]))
    assert await text_of(tab, "#out") == "freed slot 1"
    # two are left: which of them took the third's place cannot be told
    with pytest.raises(RefNotFound, match=r'(?s)gone.*the 3rd of 3.*2 are there now.*nothing '
                                          r'was done.*snapshot'):
        await actions.click(tab, parse(frees[2]))
    assert await text_of(tab, "#out") == "freed slot 1"
    assert "slot 3" in await js(tab, "JSON.stringify(slots)")


async def test_stale_ref_with_nothing_matching_fails_saying_what_to_do(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("rerender.html"))
    shot = await tab.snapshot()
    save = ref(shot, "button", "Save")
    await actions.click(tab, target(shot, "button", "Remove all"))
    with pytest.raises(RefNotFound, match=r'(?s)gone.*button "Save".*nothing was done.*snapshot'):
        await actions.click(tab, parse(save))
    assert await text_of(tab, "#out") == "nothing"


async def test_ref_of_a_previous_page_is_not_used_on_the_next(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("nav1.html"))
    shot = await tab.snapshot()
    link = ref(shot, "link", "Go to the second page")
    await goto(tab, site.url("nav2.html"))
    with pytest.raises(RefNotFound):
        await actions.click(tab, parse(link))
    assert (await tab.snapshot()).title == "Second page"


async def test_locator_in_a_scrolled_viewport_snapshot_names_the_element_it_is_printed_on(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("long.html"))
    await js(tab, """(() => {
        for (const where of ['afterbegin', 'beforeend']) {
            document.body.insertAdjacentHTML(where, '<button type="button">Same</button>');
        }
    })()""")
    await actions.scroll(tab, None, 0, 100000)  # the first "Same" is now above the fold
    view = await tab.snapshot(viewport=True)
    [same] = [r for r, i in view.refs.items() if i["name"] == "Same"]
    handle = await tab.resolve(parse("loc=" + view.refs[same]["loc"]))
    assert f"@{handle.ref}" == same, view.text


async def test_locator_in_a_scoped_snapshot_names_the_element_it_is_printed_on(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("rerender.html"))
    scoped = await tab.snapshot(scope=parse(".row:nth-child(3)"))
    edit = ref(scoped, "button", "Edit")
    handle = await tab.resolve(parse("loc=" + scoped.refs[edit]["loc"]))
    assert f"@{handle.ref}" == edit, scoped.text


async def test_a_fieldset_is_a_named_group_and_its_legend_is_not_repeated(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("controls.html"))
    shot = await tab.snapshot()
    assert '- group "Shipping"' in shot.text
    assert "> Shipping" not in shot.text


async def test_a_state_a_page_says_only_by_a_class_among_its_peers_is_shown(
        tab: Tab, site: Site) -> None:
    # (Fomantic's open tab `active`, Bootstrap's pager's `aria-current` on the list item,
    # Tabulator's selected rows)
    await goto(tab, site.url("classstates.html"))
    shot = await tab.snapshot(interactive=True)
    assert "[current]" in line_of(shot, ref(shot, "clickable", "Billing")), shot.text
    assert "current" not in line_of(shot, ref(shot, "clickable", "General")), shot.text
    assert "[current]" in line_of(shot, ref(shot, "link", "2")), shot.text
    assert "current" not in line_of(shot, ref(shot, "link", "3")), shot.text
    assert "[selected]" in next(ln for ln in shot.text.splitlines() if "Bob" in ln), shot.text
    assert "selected" not in next(ln for ln in shot.text.splitlines() if "Alice" in ln)
    # lit stars of a rating, an accordion's open title and panel: none is the current one
    for ln in shot.text.splitlines():
        if 'hint="star"' in ln or '"Shipping"' in ln:
            assert "current" not in ln, shot.text
    # a class all its peers have is a look; a pressed toggle says so, and only that
    for name in ("Cut", "Copy"):
        assert "current" not in line_of(shot, ref(shot, "button", name)), shot.text
    assert line_of(shot, ref(shot, "button", "Bold")).endswith("[pressed]"), shot.text
    # the page moves the class: the next snapshot says it
    await actions.click(tab, parse(ref(shot, "clickable", "Security")))
    shot = await tab.snapshot(interactive=True)
    assert "[current]" in line_of(shot, ref(shot, "clickable", "Security")), shot.text
    assert "current" not in line_of(shot, ref(shot, "clickable", "Billing")), shot.text


async def test_a_box_listening_for_its_parts_that_show_a_pointer_leaves_them_the_clicks(
        tab: Tab, site: Site) -> None:
    # (Fomantic's accordion: its root listens for its titles' clicks; an open panel's words
    # are lines of their own, not the root's name)
    await goto(tab, site.url("accordionroot.html"))
    shot = await tab.snapshot()
    assert [i["name"] for i in shot.refs.values() if i["role"] == "clickable"] == [
        "What is a dog?", "What kinds are there?", "Weekly report Opened 3 times"], shot.text
    await actions.click(tab, parse(ref(shot, "clickable", "What is a dog?")))
    shot = await tab.snapshot()
    assert "> A dog is a loyal animal, a welcome guest in many households." in shot.text, \
        shot.text
    await actions.click(tab, parse(ref(shot, "clickable", "Weekly report Opened 3 times")))
    assert await text_of(tab, "#out") == "card"
