"""`loc=text "WORDS"` (and `text=WORDS`): a line with no ref, hovered or clicked by the words
it shows; several refused unless nth or a card's words pick one; on both transports."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto, js, ref, text_of
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse
from tabsteward.bridge.errors import RefNotFound

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


async def test_hovering_a_rows_words_shows_the_actions_it_hides_until_hovered(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("hoverrows.html"))
    shot = await tab.snapshot(interactive=True)
    # the rows that show it only under the pointer say so; one shows it see-through
    assert shot.text.count('button "Archive"') == 3
    assert shot.text.count("[hover-only]") == 2
    out = await actions.hover(tab, parse('loc=text "Alice"'))
    assert out.did.endswith('(b "Alice")')
    shot = await tab.snapshot(interactive=True)
    archive = ref(shot, "button", "Archive")
    await actions.click(tab, parse(archive))
    assert await text_of(tab, "#out") == "archived Alice"
    await actions.hover(tab, parse("text=bob"))  # case and spacing aside
    await actions.click(tab, parse('loc=text "Archive" in "Bob"'))
    assert await text_of(tab, "#out") == "archived Bob"


async def test_several_elements_with_the_words_are_refused_unless_nth_picks_one(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("hoverrows.html"))
    await actions.hover(tab, parse("text=Carol"))
    await actions.hover(tab, parse("text=Alice"))  # two rows show their Archive now
    with pytest.raises(RefNotFound, match=r'2 elements show text "Archive" \(button "Archive", '
                       r'button "Archive"\); nothing was done'):
        await actions.click(tab, parse("text=Archive"))
    assert await text_of(tab, "#out") == "nothing yet"
    with pytest.raises(RefNotFound, match=r'no text "Archive" nth=5: 2 shown on the page'):
        await actions.click(tab, parse('loc=text "Archive" nth=5'))
    await actions.click(tab, parse('loc=text "Archive" nth=1'))
    assert await text_of(tab, "#out") == "archived Carol"


async def test_words_inside_a_longer_text_and_in_a_frame_are_found_and_hidden_ones_are_not(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("hoverrows.html"))
    await actions.click(tab, parse("text=Scully"))  # part of the words an element shows
    assert await text_of(tab, "#out") == "opened the sender"
    await js(tab, "document.getElementById('out').textContent = 'again', true")
    await actions.click(tab, parse("text=Dana Scully"))
    assert await text_of(tab, "#out") == "opened the sender"
    await actions.click(tab, parse('loc=text "Framed words"'))
    assert await text_of(tab, "#out") == "framed"
    # the hidden paragraph saying "Alice" is not a second match of the row's name
    out = await actions.hover(tab, parse("text=Alice"))
    assert "Alice" in out.did
    with pytest.raises(RefNotFound, match='no shown element has the text "Nobody here"'):
        await actions.click(tab, parse("text=Nobody here"))
    assert await js(tab, "document.getElementById('out').textContent") == "framed"


async def test_words_kept_for_screen_readers_are_clicked_where_a_person_sees_them(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("srdays.html"))
    # the date is in a box of one pixel, under the day's number: the day's box is clicked
    out = await actions.click(tab, parse("text=February 18, 2027"))
    assert "February 18, 2027" in out.did, out.did
    assert await text_of(tab, "#out") == "day 18"
