"""Icons with no accessible name: a hint from their markup, apart from names, and a locator
built on the same evidence that finds them again after their list changed."""

from __future__ import annotations

import re

import pytest
from fixture_server import Site
from pagetools import goto, js, line_of, loc_on_line, ref, text_of, watch_listeners
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.model import Snapshot
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse

pytestmark = pytest.mark.browser

# the bar of every post in icons.html, in order: what each icon is made of, and its hint
BAR = [("reply", "svg <use href=#icon-reply>", "reply"),
       ("thumb", "icon font ligature", "thumb up"),
       ("share", "image title", "Share"),
       ("like", "class token", "like"),
       ("delete", "data-testid", "delete post"),
       ("pin", "aria-description", "Pin to top"),
       ("flag", "background image file", "flag"),
       ("hashed", "hashed classes only", None),
       ("bookmark", "title: a name", None)]
HASHED = ("_a1b2c3", "sc-AxjAm", "kPzGcx", "css-1x2y3z", "_q9w8e7", "jsx-123", "sc-bdVaJa")


def bar_of(shot: Snapshot, post: str) -> list[str]:
    """The refs of a post's icons: those after its text line (or its item's line, named by
    that text), in order."""
    lines = shot.text.splitlines()
    start = next(i for i, ln in enumerate(lines)
                 if ln.strip() == f"> {post}" or ln.endswith(f' "{post}"'))
    refs = [w for ln in lines[start + 1:start + 1 + len(BAR)] for w in ln.split()
            if w.startswith("@")]
    assert len(refs) == len(BAR), shot.text
    return refs


async def test_icons_without_a_name_get_a_hint_from_their_markup_on_the_line_and_in_json(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("icons.html"))
    shot = await tab.snapshot()
    for ref_, (_, made_of, hint) in zip(bar_of(shot, "Grace wrote a note."), BAR, strict=True):
        info = shot.refs[ref_]
        if hint is None:
            assert "hint" not in info, made_of
            assert "hint=" not in line_of(shot, ref_), made_of
            continue
        assert info["hint"] == hint, (made_of, line_of(shot, ref_))
        assert info["name"] == "", made_of  # a hint is no accessible name
        # on its line once: as the hint, or as words of the locator the line prints
        line = line_of(shot, ref_)
        in_loc = all(re.search(rf"(?<![a-z]){re.escape(w)}(?![a-z])", loc_on_line(line).lower())
                     for w in hint.lower().split())
        assert (f'hint="{hint}"' in line) != in_loc, (made_of, line)
    bookmark = shot.refs[bar_of(shot, "Grace wrote a note.")[-1]]
    assert bookmark["name"] == "Bookmark"


async def test_an_icon_picked_by_its_hint_is_clicked_through_its_locator(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("icons.html"))
    shot = await tab.snapshot()
    like = next(shot.refs[r] for r in bar_of(shot, "Linus shipped a kernel.")
                if shot.refs[r].get("hint") == "like")
    assert "nth=" not in like["loc"], like
    assert "span.like" in like["loc"], like
    out = await actions.click(tab, parse("loc=" + like["loc"]))
    assert await text_of(tab, "#out") == "like Linus shipped a kernel."
    assert out.did.endswith('hint="like")')  # the report says which icon it was


async def test_icon_locators_find_the_same_icons_after_the_list_changed(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("icons.html"))
    shot = await tab.snapshot()
    locs = {kind: shot.refs[r]["loc"] for r, (kind, _, _) in
            zip(bar_of(shot, "Grace wrote a note."), BAR, strict=True)}
    ada = {kind: shot.refs[r]["loc"] for r, (kind, _, _) in
           zip(bar_of(shot, "Ada wrote about engines."), BAR, strict=True)}
    for kind in ("reply", "share", "like", "delete", "pin"):
        assert "nth=" not in locs[kind], (kind, locs)
        assert "nth=" not in ada[kind], (kind, ada)
    # a new post on top, and the last one moved before Grace's
    await js(tab, """(() => {
        add("Hedy wrote first.", true);
        const feed = document.getElementById("feed");
        const posts = feed.querySelectorAll(".post");
        feed.insertBefore(posts[posts.length - 1], posts[2]);
    })()""")
    order = await js(tab, "Array.from(document.querySelectorAll('.post .text'))"
                          ".map(t => t.textContent)")
    assert order == ["Hedy wrote first.", "Ada wrote about engines.",
                     "Linus shipped a kernel.", "Grace wrote a note."]
    for kind in ("reply", "share", "like", "delete", "pin"):
        await actions.click(tab, parse("loc=" + locs[kind]))
        assert await text_of(tab, "#out") == f"{kind} Grace wrote a note.", locs[kind]
        await actions.click(tab, parse("loc=" + ada[kind]))
        assert await text_of(tab, "#out") == f"{kind} Ada wrote about engines.", ada[kind]


async def test_hashed_and_layout_class_names_are_neither_hints_nor_locators(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("icons.html"))
    shot = await tab.snapshot()
    for token in (*HASHED, "mt-2", "col-4", "icon", "material-icons"):
        for info in shot.refs.values():
            assert f".{token}" not in info["loc"], (token, info)
            assert token not in (info.get("hint") or ""), (token, info)


async def test_a_text_scoped_locator_that_matches_nothing_says_nothing_was_done(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("icons.html"))
    with pytest.raises(Exception, match="nothing was done"):
        await actions.click(tab, parse('loc=span.like in "Nobody wrote this."'))
    assert await text_of(tab, "#out") == "no action"


async def test_a_forms_wordless_submit_button_is_hinted_as_one_and_a_badge_says_nothing(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("searchbar.html"))
    shot = await tab.snapshot(interactive=True)
    lines = [ln.strip() for ln in shot.text.splitlines() if "@" in ln]
    assert lines[1].startswith("- button @"), shot.text
    assert lines[1].endswith('hint="submit"'), shot.text
    assert "hint=" not in lines[2], shot.text  # the cart's count is drawn as a badge
    assert "hint=" not in lines[3], shot.text  # a button of no form submits nothing


async def test_a_tooltip_librarys_words_hint_an_icon_button(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("searchbar.html"))
    shot = await tab.snapshot(interactive=True)
    hints = [info.get("hint") for info in shot.refs.values()][-3:]
    assert hints == ["Edit profile", "Copy link", "Print"], shot.text


async def test_a_box_that_takes_its_childrens_clicks_gets_no_ref_of_its_own(
        tab: Tab, site: Site) -> None:
    await watch_listeners(tab)
    await goto(tab, site.url("daybox.html"))
    shot = await tab.snapshot(interactive=True)
    lines = [ln.strip() for ln in shot.text.splitlines() if "@" in ln]
    # the days, and the card a listener alone makes clickable; not the days' box, named
    # by all their words
    assert [ln.split(" @")[0] for ln in lines] == [
        *(f'- clickable "December {d}"' for d in range(1, 8)),
        '- clickable "Quarterly report Open to read"'], shot.text
    await actions.click(tab, parse(ref(shot, "clickable", "December 3")))
    assert await text_of(tab, "#out") == "day 3"
    await actions.click(tab, parse(ref(shot, "clickable", "Quarterly report Open to read")))
    assert await text_of(tab, "#out") == "card"


async def test_classes_a_framework_names_a_look_by_give_no_hint_but_its_icon_names_do(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("look_classes.html"))
    shot = await tab.snapshot(interactive=True)
    for role, name in (("link", "4"), ("link", "5"), ("button", "2"), ("button", "3")):
        assert "hint=" not in line_of(shot, ref(shot, role, name)), shot.text
    assert shot.refs[ref(shot, "button", "")].get("hint") == "trash", shot.text
    # Mantine's focus ring class says nothing; its parts and PrimeReact's named by what they
    # do, or their data-direction, do
    assert "hint=" not in line_of(shot, ref(shot, "button", "7")), shot.text
    hints = [info.get("hint") for info in shot.refs.values()][-8:-3]
    assert hints == ["visibility toggle", "up", "next", "increment", None], shot.text


async def test_a_button_named_otherwise_says_the_words_it_shows_when_its_name_lacks_them(
        tab: Tab, site: Site) -> None:
    # (a date picker's month and year, as its value, in -i too, where a text line under it
    # was left out; a page button's number is in its name already)
    await goto(tab, site.url("look_classes.html"))
    for shot in (await tab.snapshot(), await tab.snapshot(interactive=True)):
        lines = shot.text.splitlines()
        month = line_of(shot, ref(shot, "button", "Choose Month"))
        assert 'value="December"' in month, shot.text
        assert 'value="2026"' in line_of(shot, ref(shot, "button", "Choose Year")), shot.text
        assert "> December" not in shot.text, shot.text
        page = line_of(shot, ref(shot, "button", "Page 2"))
        assert "value=" not in page, shot.text
        at = lines.index(page)
        assert at == len(lines) - 1 or not lines[at + 1].strip().startswith(">"), shot.text


async def test_an_icon_hidden_from_screen_readers_that_a_person_clicks_gets_a_ref_and_its_kind(
        tab: Tab, site: Site) -> None:
    # MUI's chip: its delete icon is aria-hidden, with a pointer cursor of its own, and its
    # framework's class names its kind; a hidden slide's link and star stay hidden
    await goto(tab, site.url("kitparts.html"))
    shot = await tab.snapshot()
    for chip in ("Urgent", "Later"):
        icon = shot.text.split(f'- button "{chip}"', 1)[1].splitlines()[1].strip()
        assert re.match(r'- clickable @\d+ hint="delete" ', icon), shot.text
    assert "cloned" not in shot.text, shot.text
    assert "\u2605" not in shot.text, shot.text
    await actions.click(tab, parse(icon.split()[2]))
    assert await text_of(tab, "#out") == "deleted Later"


async def test_a_box_around_labelled_radios_is_no_control_of_its_own(
        tab: Tab, site: Site) -> None:
    # MUI's rating: its box shows a pointer over its stars; their words are their labels'
    await goto(tab, site.url("kitparts.html"))
    shot = await tab.snapshot()
    assert 'clickable "1 Star' not in shot.text, shot.text
    assert ref(shot, "radio", "1 Star")
    await actions.click(tab, parse(ref(shot, "radio", "2 Stars")))
    assert await js(tab, "document.getElementById('s2').checked") is True


async def test_the_icon_of_a_close_button_and_the_box_around_the_tags_get_no_ref(
        tab: Tab, site: Site) -> None:
    # Element Plus's select of many: its tags' close buttons have refs, their icons (which
    # show a pointer the button does not) none; the box around them opens through its field
    await watch_listeners(tab)
    await goto(tab, site.url("kitparts.html"))
    shot = await tab.snapshot(interactive=True)
    colours = shot.text.split('- combobox "Colours"')[0].split('button "Later"')[1]
    assert re.findall(r"^- (\w+)", colours, re.M) == ["clickable", "button", "button"], \
        shot.text  # (the second chip's delete icon, then the tags' close buttons)
    await actions.click(tab, parse(ref(shot, "button", "Close this tag")))
    assert await text_of(tab, "#out") == "closed red"


async def test_an_item_titled_with_the_words_it_shows_says_them_once(
        tab: Tab, site: Site) -> None:
    # Ant Design's pager: an item titled "2" holding "2" is one line, no "> 2" under it
    await watch_listeners(tab)
    await goto(tab, site.url("kitparts.html"))
    shot = await tab.snapshot()
    lines = [ln.strip() for ln in shot.text.splitlines()]
    at = next(i for i, ln in enumerate(lines) if ln.startswith('- listitem "2" @'))
    assert lines[at + 1:at + 2] != ["> 2"], shot.text
    assert "> 1" not in lines, shot.text
    await actions.click(tab, parse(lines[at].split()[3]))
    assert await text_of(tab, "#out") == "page 2"


async def test_an_icon_set_s_class_names_its_icon_by_all_its_words_less_its_style(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("iconsets.html"))
    shot = await tab.snapshot(interactive=True)
    # (`link`, `image`, `info` and `bold` say nothing as a page's own classes; as an icon's
    # name they say what it is; `fa-solid`, `fa-2x`, `ph-bold` and `-fill` only draw it)
    assert [info.get("hint") for info in shot.refs.values()] == [
        "bold", "italic", "link", "image", "circle info", "trash", "bookmark", "heart",
        "external link", "format bold", "trash", "edit", "share", "star", None], shot.text


async def test_an_icon_labelled_by_its_file_name_beside_words_is_no_part_of_their_name(
        tab: Tab, site: Site) -> None:
    # (Ant Design: `<span role="img" aria-label="right">` before "Danger zone", after an
    # option's words, a column header's sort carets)
    await goto(tab, site.url("iconlabels.html"))
    shot = await tab.snapshot()
    assert 'button "Danger zone"' in shot.text, shot.text
    assert "header | Age | Name |" in shot.text, shot.text
    assert "caret" not in shot.text, shot.text
    assert "right" not in shot.text, shot.text
    # an icon alone still names its control
    await actions.click(tab, parse(ref(shot, "button", "delete")))
    assert await text_of(tab, "#out") == "deleted"
    out = await actions.select(tab, parse(ref(shot, "combobox", "Region")), ["Jiangsu"])
    assert await text_of(tab, "#out") == "region Jiangsu", out.text()


async def test_an_icon_components_name_hints_the_button_that_draws_it(
        tab: Tab, site: Site) -> None:
    # (Shoelace's `<sl-icon-button name="trash">`: its button draws `<sl-icon name=...>`)
    await goto(tab, site.url("besidelabels.html"))
    shot = await tab.snapshot(interactive=True)
    trash = next(r for r, i in shot.refs.items() if i.get("hint") == "trash")
    await actions.click(tab, parse(trash))
    assert await text_of(tab, "#out") == "trashed"


async def test_radios_whose_labels_show_only_a_star_are_told_apart_by_title_or_value(
        tab: Tab, site: Site) -> None:
    # (a pure-CSS star rating: five lines of radio "★", the rating chosen by order alone)
    await goto(tab, site.url("camewords.html"))
    shot = await tab.snapshot(interactive=True)
    assert 'hint="2"' in line_of(shot, ref(shot, "radio", "★")), shot.text
    four = [ln for ln in shot.text.splitlines() if 'hint="4 stars"' in ln]
    assert len(four) == 1, shot.text
    assert "#s4" in four[0], shot.text
