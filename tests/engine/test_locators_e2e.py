"""Locators on pages as sites build them: every printed one names its one element on the
whole page (shadow roots and frames too), a CSS target matching several is refused, a role
and name reaches lines with no ref, and a card is named by its stable words."""

from __future__ import annotations

import re

import pytest
from fixture_server import Site
from pagetools import goto, js, line_of, loc_on_line, ref, run_tool, text_of
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.model import Snapshot
from tabsteward.bridge.engine.reading import read_element
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse
from tabsteward.bridge.errors import RefNotFound

pytestmark = pytest.mark.browser


def printed_locs(shot: Snapshot) -> dict[str, str]:
    """Each ref's locator as an agent reads it off its line."""
    return {r: loc_on_line(line_of(shot, r)) for r in shot.refs}


async def test_every_locator_printed_for_repeated_shadow_cards_and_frames_finds_its_own_element(
        tab: Tab, site: Site) -> None:
    for page in ("shadowcards.html", "twoframes.html"):
        await goto(tab, site.url(page))
        shot = await tab.snapshot(interactive=True)
        locs = printed_locs(shot)
        assert len(set(locs.values())) == len(locs), shot.text
        for r, loc in locs.items():
            handle = await tab.resolve(parse("loc=" + loc))
            assert f"@{handle.ref}" == r, (page, loc, shot.text)


async def test_the_star_of_each_shadow_card_is_clicked_through_its_printed_locator(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("shadowcards.html"))
    shot = await tab.snapshot(interactive=True)
    stars = [loc for loc in printed_locs(shot).values() if "icon-star" in loc]
    assert [s.rsplit(" in ", 1)[1] for s in stars] == [
        '"Blue kettle"', '"Red toaster"', '"Green mug"'], shot.text
    await actions.click(tab, parse("loc=" + stars[2]))
    assert await text_of(tab, "#out") == "fav C3"


async def test_a_css_target_that_matches_several_elements_is_refused_and_nothing_is_done(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("shadowcards.html"))
    with pytest.raises(RefNotFound, match=r"^3 elements match 'button\.fav' on the page .*"
                                          r"nothing was done"):
        await actions.click(tab, parse("button.fav"))
    assert await text_of(tab, "#out") == "no action"
    await goto(tab, site.url("twoframes.html"))
    with pytest.raises(RefNotFound, match=r"^2 elements match '#like-btn'.*nothing was done"):
        await actions.click(tab, parse("loc=#like-btn"))
    assert await text_of(tab, "#out") == "no action"
    await goto(tab, site.url("tables.html"))
    with pytest.raises(RefNotFound, match=r"^\d+ elements match 'table tr'.*nothing was done"):
        await actions.click(tab, parse("table tr"))


async def test_a_role_and_name_reaches_a_heading_and_a_row_that_have_no_ref(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("lines.html"))
    shot = await tab.snapshot()
    assert '- heading "Attachments" [level=1]' in shot.text
    assert await read_element(tab, parse('loc=heading "Attachments"')) == ("text",
                                                                           "Attachments")
    _, row = await read_element(tab, parse('loc=row "row2"'))  # by its first cell
    assert "second details" in row
    _, row = await read_element(tab, parse('loc=row "row1 first details"'))
    assert "first details" in row
    with pytest.raises(RefNotFound, match=r'no heading "Nope" .*nothing was done'):
        await read_element(tab, parse('loc=heading "Nope"'))


async def test_a_comments_buttons_are_located_by_its_author_not_by_its_vote_count(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("comments.html"))
    shot = await tab.snapshot(interactive=True)
    ups = [loc for loc in printed_locs(shot).values() if loc.startswith("button.upvote")]
    assert ups == ['button.upvote in "alice"', 'button.upvote in "bob"',
                   'button.upvote in "dave"'], shot.text
    await js(tab, "document.querySelectorAll('.count').forEach((c, i) => "
                  "c.textContent = String(100 + i))")
    for loc, author in zip(ups, ("alice", "bob", "dave"), strict=True):
        await actions.click(tab, parse("loc=" + loc))
        assert await text_of(tab, "#out") == f"upvote {author}"


# iconhints.html: each element's id and the hint its markup gives (None: none; h19, a
# listbox, none from its options' classes)
HINTS = [("h1", "trash can"), ("h2", "share"), ("h3", "chevron down"),
         ("h4", "kebab horizontal"), ("h5", "cart"), ("h6", "trash"), ("h7", "trash"),
         ("h8", "trash"), ("h9", "Settings"), ("h10", "upvote"), ("h11", "Archive"),
         ("h12", "pin"), ("h13", "share"), ("h14", "like"), ("h15", None), ("h16", "delete"),
         ("h17", "edit pencil"), ("h18", None), ("h19", None), ("h20", "align center"),
         ("h21", "arrow left"), ("h22", "toast dismiss"), ("h23", "bold"), ("h24", None)]


async def test_icon_hints_come_from_the_evidence_sites_give_in_its_order(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("iconhints.html"))
    shot = await tab.snapshot(interactive=True)
    by_loc = {info["loc"]: info for info in shot.refs.values()}
    got = [(i, by_loc[f"#{i}"].get("hint")) for i, _ in HINTS]
    assert got == HINTS, shot.text


async def test_editors_a_page_names_only_by_their_placeholder_show_it_and_are_filled_by_ref(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("editors.html"))
    shot = await tab.snapshot(interactive=True)
    by_loc = {info["loc"]: info for info in shot.refs.values()}
    # ARIA's placeholder names a text box of ARIA's, as Chrome names it; a title too
    named = {i["name"]: i["role"] for i in shot.refs.values() if i["name"]}
    assert named == {"Message #general": "textbox", "Private note": "textbox"}, shot.text
    # a placeholder drawn from markup is a hint, apart from names (it goes once the editor
    # holds words)
    assert {loc: by_loc[loc].get("hint") for loc in ("#prose", "#quill", "#draft",
                                                      "#comment")} == {
        "#prose": "Ask anything", "#quill": "Compose an epic...",
        "#draft": "What is happening?!", "#comment": "Write a comment",
    }, shot.text
    assert 'hint="Ask anything"' in shot.text
    prose = next(r for r, i in shot.refs.items() if i["loc"] == "#prose")
    await actions.enter_text(tab, parse(prose), "Plan the trip", "fill")
    assert await js(tab, "document.getElementById('prose').innerText.trim()") == "Plan the trip"


async def test_a_field_no_markup_labels_is_hinted_by_the_words_written_before_it(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("unlabelled.html"))
    shot = await tab.snapshot(interactive=True)
    by_loc = {info["loc"]: info for info in shot.refs.values()}
    assert {loc: by_loc[loc].get("hint") for loc in (
        "#email", "#pw", "#first", "#city", "#country", "#role", "#essay", "#lone")} == {
        "#email": "Email address", "#pw": "Password", "#first": "First name",
        "#city": "City", "#country": "Country",
        "#role": "Role",  # its column's header, not the row's data in the cell before it
        "#essay": None,  # more words than a label's
        "#lone": None,  # what stands before it is another field's
    }, shot.text
    assert all(not by_loc[loc]["name"] for loc in ("#email", "#first", "#city")), shot.text
    assert 'hint="First name"' in shot.text


async def test_sprite_icons_drawn_by_xlink_href_are_located_by_their_symbol_and_clicked(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("iconhints.html"))
    shot = await tab.snapshot(interactive=True)
    locs = [loc for loc in printed_locs(shot).values() if "icon-" in loc]
    assert locs[-2:] == ['button:has(> * > use[*|href="#icon-moon"])',
                         'button:has(> * > use[*|href="#icon-sun"])'], shot.text
    await actions.click(tab, parse("loc=" + locs[-1]))
    assert await text_of(tab, "#out") == "sun"


async def test_a_button_named_only_by_its_count_gets_a_hint_and_a_locator_in_its_card(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("feedcounts.html"))
    shot = await tab.snapshot(interactive=True)
    likes = {r: info for r, info in shot.refs.items() if info["name"] in ("300", "3")}
    assert [i["hint"] for i in likes.values()] == ["like", "like"], shot.text
    grace = next(r for r, i in likes.items() if i["name"] == "300")
    loc = loc_on_line(line_of(shot, grace))
    assert loc == 'button[data-testid="like"] in "Grace Hopper"', shot.text
    await js(tab, "document.querySelector('.post button span').textContent = '301'")
    await actions.click(tab, parse("loc=" + loc))
    assert await text_of(tab, "#out") == "like Grace Hopper"


async def test_icon_font_glyph_buttons_are_located_by_name_in_their_card_not_by_nth(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("feedcounts.html"))
    shot = await tab.snapshot(interactive=True)
    more = [loc_on_line(ln) for ln in shot.text.splitlines() if '"more_vert" @' in ln]
    assert more == ['button "more_vert" in "Grace Hopper"',
                    'button "more_vert" in "Ada Lovelace"'], shot.text
    await js(tab, "add('Hedy Lamarr', 5, true)")  # a new post on top: nth= would shift
    await actions.click(tab, parse("loc=" + more[1]))
    assert await text_of(tab, "#out") == "more_vert Ada Lovelace"
    with pytest.raises(RefNotFound, match=re.escape('no button "more_vert" in "Nobody"')):
        await actions.click(tab, parse('loc=button "more_vert" in "Nobody"'))


async def test_an_unlabelled_checkbox_or_radio_is_hinted_by_the_words_after_it(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("toggletext.html"))
    shot = await tab.snapshot(interactive=True)
    hints = {info.get("loc"): info.get("hint") for info in shot.refs.values()
             if info["role"] in ("checkbox", "radio")}
    assert hints["#tos"] == "I agree to the terms", shot.text  # a link's words too
    assert hints['input[name="plan"][value="basic"]'] == "Basic", shot.text  # to the next
    assert hints['input[name="plan"][value="pro"]'] == "Pro", shot.text
    assert hints["#long"] is None, shot.text  # more than a label's words
    assert hints["#bare"] is None, shot.text
    assert hints["#remember"] == "Remember me", shot.text
    assert 'hint="Remember me" loc=#remember' in shot.text, shot.text  # on its line
    await actions.check(tab, parse("#tos"), True)
    assert await js(tab, "document.getElementById('tos').checked") is True


async def test_ids_a_script_made_for_this_load_are_never_a_locator_and_a_persons_are(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("madeids.html"))
    shot = await tab.snapshot(interactive=True)
    locs = [loc_on_line(line_of(shot, r)) for r in shot.refs]  # the buttons, in order
    made = await js(tab, "MADE.flat()")
    assert not [loc for loc in locs if any(m in loc for m in made)], shot.text
    assert locs[-2:] == ["#save-draft", "#step2a"], shot.text
    # the page makes new ids, as its next load would: each printed locator still finds
    # its own button
    await js(tab, "again(1)")
    said = []
    for loc in locs:
        await actions.click(tab, parse("loc=" + loc))
        said.append(await text_of(tab, "#out"))
    assert said == ["like", "share", "pin", "trash", "save", "step"], locs


async def test_a_pagers_wordless_steps_are_hinted_by_their_place_beside_its_page_numbers(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("pagers.html"))
    shot = await tab.snapshot(interactive=True)
    by_loc = {info["loc"]: info.get("hint") for info in shot.refs.values()}
    assert {i: by_loc[f"#{i}"] for i in ("prev", "next", "first", "back", "on", "last")} == {
        "prev": "previous page", "next": "next page", "first": "first page",
        "back": "previous page", "on": "next page", "last": "last page"}, shot.text
    # numbers that do not rise are no pager; nor is an icon between two numbers
    assert [by_loc[f"#{i}"] for i in ("q1", "q2", "q3")] == [None, None, None], shot.text
    ref_ = next(r for r, i in shot.refs.items() if i["loc"] == "#next")
    assert 'hint="next page"' in line_of(shot, ref_)
    await actions.click(tab, parse(ref_))
    assert await text_of(tab, "#out") == "page 2"


async def test_the_first_card_under_a_pages_heading_is_located_by_its_own_words(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("cardtitles.html"))
    shot = await tab.snapshot(interactive=True)
    locs = sorted(i["loc"] for i in shot.refs.values() if i["name"] == "Restart")
    assert locs == ['button "Restart" in "Server A"', 'button "Restart" in "Server B"'], shot.text
    await actions.click(tab, parse("loc=" + locs[0]))
    assert await text_of(tab, "#out") == "restart A"


async def test_a_clickable_is_named_by_the_words_it_shows_not_its_icons_or_wordless_handle(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("cardtitles.html"))
    shot = await tab.snapshot(interactive=True)
    clickables = [i["name"] for i in shot.refs.values() if i["role"] == "clickable"]
    # (a caret with nothing but its SVG's title is named by it)
    assert clickables == ["Documents", "Expand group", 'Music "live"', "Alpha"], shot.text
    assert ref(shot, "button", "Drag")
    await actions.click(tab, parse(ref(shot, "clickable", "Documents")))
    assert await text_of(tab, "#out") == "open Documents"
    # what a click on its words activates is said by its words too, quoted as the page's
    out = await actions.click(tab, parse("text=Music"))
    assert out.did.endswith('which activates div "Music \\"live\\""'), out.did


async def test_text_written_in_pieces_is_found_by_its_words_whole(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("cardtitles.html"))
    await actions.click(tab, parse("text=Show logs"))
    assert await text_of(tab, "#out") == "logs shown"
    await actions.click(tab, parse('loc=text "add to cart"'))
    assert await text_of(tab, "#out") == "added"


@pytest.mark.parametrize("locator", ['loc=button "Save"', "#later", "text=Later"])
async def test_a_locator_finds_what_the_page_draws_a_moment_after_it_loaded(
        tab: Tab, site: Site, locator: str) -> None:
    await run_tool(tab, "open", url=site.url("latecontrols.html"))
    await actions.click(tab, parse(locator))
    assert await text_of(tab, "#s") in ("saved", "later")
