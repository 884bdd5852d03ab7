"""fill where the page hears a field's keys (keyfields.html): a short text goes in a key at a
time, as a person types it, so a page that reads the field on keyup (flatpickr's year box,
a jQuery search, a form listening for its fields) or takes each key itself (a currency
field formatting its price) hears it; where the page undid the text put in at once (its
keys heard by React's root, no listener of the field's), the keys go in one at a time
after; a field no key listener hears takes the text at once, no key pressed. A press says
how the element that had focus changed, as a click does. Both transports."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto, js, text_of, watch_listeners
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse

pytestmark = pytest.mark.browser


async def test_a_field_read_on_keyup_hears_a_fill(tab: Tab, site: Site) -> None:
    await watch_listeners(tab)
    await goto(tab, site.url("keyfields.html"))
    said = (await actions.enter_text(tab, parse("#city"), "Paris", "fill")).text()
    assert await text_of(tab, "#query") == "Paris"
    assert "value now 'Paris'" in said, said
    await actions.enter_text(tab, parse("#tag"), "red", "fill")  # (its form listens)
    assert await text_of(tab, "#tag-out") == "red"


async def test_a_number_read_on_keyup_hears_a_fill(tab: Tab, site: Site) -> None:
    await watch_listeners(tab)
    await goto(tab, site.url("keyfields.html"))
    said = (await actions.enter_text(tab, parse("#year"), "2027", "fill")).text()
    assert await text_of(tab, "#shown") == "2027"
    assert "Calendar shows 2027" in said, said


async def test_a_field_that_takes_its_keys_itself_is_filled_by_keys(
        tab: Tab, site: Site) -> None:
    await watch_listeners(tab)
    await goto(tab, site.url("keyfields.html"))
    said = (await actions.enter_text(tab, parse("#price"), "2499.99", "fill")).text()
    assert await text_of(tab, "#price-out") == "price=2499.99"
    assert "value now '$2,499.99'" in said, said


async def test_text_the_page_undid_goes_in_again_by_keys(tab: Tab, site: Site) -> None:
    await watch_listeners(tab)
    await goto(tab, site.url("keyfields.html"))
    said = (await actions.enter_text(tab, parse("#total"), "12.5", "fill")).text()
    assert await text_of(tab, "#total-out") == "total=12.5"
    assert "value now '$12.50'" in said, said
    assert "put its value back" not in said, said


async def test_a_field_no_key_listener_hears_takes_the_text_at_once(
        tab: Tab, site: Site) -> None:
    await watch_listeners(tab)
    await goto(tab, site.url("keyfields.html"))
    await actions.enter_text(tab, parse("#plain"), "hello", "fill")
    assert await text_of(tab, "#keys") == "keys:"  # (the document heard no key)


async def test_a_press_says_how_the_focused_element_changed(tab: Tab, site: Site) -> None:
    await watch_listeners(tab)
    await goto(tab, site.url("keyfields.html"))
    await actions.focus(tab, parse("#docs"))
    said = (await actions.press(tab, "ArrowRight")).text()
    assert await js(tab, "document.getElementById('docs').ariaExpanded") == "true"
    assert "now expanded" in said, said
    await actions.focus(tab, parse("#price"))
    await actions.press(tab, "Control+a")
    said = (await actions.press(tab, "4 2")).text()
    assert "value now '$42.00'" in said, said
