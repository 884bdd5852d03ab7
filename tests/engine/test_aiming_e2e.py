"""What a click really activates is what policy is asked about, before any input: a span
inside a buy button, its label, a check, download, upload or drag made on it. The gate here
is the real classifier under the default profile; each attack must be stopped (the gate
refuses it) and the fixture server must receive no POST."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Iterator
from pathlib import Path

import pytest
from fixture_server import Site
from pagetools import goto, js, text_of
from tabsteward.bridge.engine import actions, dragging, files, outputs
from tabsteward.bridge.engine.session import Browser
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse
from tabsteward.bridge.errors import PolicyError, TargetNotInteractable
from tabsteward.bridge.policy.categories import Category, Rule
from tabsteward.bridge.policy.classify import decide
from tabsteward.bridge.policy.intent import Intent
from tabsteward.bridge.policy.profiles import BUILTIN

pytestmark = pytest.mark.browser


class NoGrants:
    def allows(self, profile: str, site: str, category: Category) -> bool:
        return False


class Gate:
    """The hub's question, answered as the default profile would with nobody to ask: what
    it would ask about is refused. Every intent it saw is kept."""

    def __init__(self) -> None:
        self.intents: list[Intent] = []
        self.meanwhile: str = ""  # script run in the page while "the person" thinks

    async def __call__(self, tab: Tab, intent: Intent) -> None:
        self.intents.append(intent)
        verdict = decide(intent, BUILTIN["default"], NoGrants())
        if verdict.rule is not Rule.ALLOW:
            raise PolicyError(f"asked about: {verdict.summary}")
        if self.meanwhile and intent.action == "click":
            await js(tab, self.meanwhile)
            await asyncio.sleep(0.7)


@pytest.fixture
def gate(browser: Browser) -> Iterator[Gate]:
    browser.gate = Gate()
    yield browser.gate
    browser.gate = None


async def checkout(tab: Tab, site: Site) -> int:
    await goto(tab, site.url("basket.html"))
    return len(site.posts("/order"))


async def asked(tab: Tab, site: Site, gate: Gate, before: int,
                action: Awaitable[object]) -> Intent:
    """Run an attack: it must be refused by the gate, and nothing may reach the server."""
    with pytest.raises(PolicyError, match="asked about"):
        await action
    await asyncio.sleep(0.3)  # a form sent anyway would have arrived by now
    assert len(site.posts("/order")) == before, site.posts("/order")
    assert tab.state.url.endswith("basket.html")
    return gate.intents[-1]


def risks(intent: Intent) -> set[Category]:
    return {f.category for f in decide(intent, BUILTIN["default"], NoGrants()).findings}


async def test_a_click_on_a_span_inside_a_buy_button_is_asked_about_as_the_button(
        tab: Tab, site: Site, gate: Gate) -> None:
    before = await checkout(tab, site)
    intent = await asked(tab, site, gate, before, actions.click(tab, parse("#buy-span")))
    assert intent.element is not None
    assert (intent.element.tag, intent.element.name) == ("button", "Place order $49.99")
    assert Category.PURCHASE in risks(intent)


async def test_a_click_at_a_point_of_a_box_is_asked_about_as_the_buy_button_there(
        tab: Tab, site: Site, gate: Gate) -> None:
    # (`--at`: the box named is harmless, the button under the point is not)
    before = await checkout(tab, site)
    box = "document.querySelector('#buy').parentElement"
    x, y = await js(tab, f"(() => {{ const b = {box}.getBoundingClientRect(), "
                         "r = document.querySelector('#buy').getBoundingClientRect(); "
                         "return [r.left - b.left + 4, r.top - b.top + 4]; })()")
    await js(tab, f"{box}.id = 'buy-box'")
    intent = await asked(tab, site, gate, before,
                         actions.click(tab, parse("#buy-box"), at=(x, y)))
    assert intent.element is not None
    assert intent.element.name == "Place order $49.99"
    assert Category.PURCHASE in risks(intent)


async def test_a_click_on_a_b_inside_a_buy_button_is_asked_about(
        tab: Tab, site: Site, gate: Gate) -> None:
    before = await checkout(tab, site)
    intent = await asked(tab, site, gate, before, actions.click(tab, parse("#buy-b")))
    assert intent.element is not None
    assert intent.element.name == "Place order $49.99"


async def test_a_double_click_on_the_span_is_asked_about(
        tab: Tab, site: Site, gate: Gate) -> None:
    before = await checkout(tab, site)
    await asked(tab, site, gate, before, actions.click(tab, parse("#buy-span"), count=2))


async def test_a_click_on_a_label_for_the_buy_button_is_asked_about_as_the_button(
        tab: Tab, site: Site, gate: Gate) -> None:
    before = await checkout(tab, site)
    intent = await asked(tab, site, gate, before, actions.click(tab, parse("#rename-label")))
    assert intent.element is not None
    assert (intent.element.name, intent.element.text) == ("Finish", "Buy now $9.99")


async def test_a_check_on_the_buy_button_is_refused_before_any_input_or_question(
        tab: Tab, site: Site, gate: Gate) -> None:
    before = await checkout(tab, site)
    asked_before = len(gate.intents)
    with pytest.raises(TargetNotInteractable, match="is not a checkbox, radio button or "
                                                    "switch, so it cannot be checked"):
        await actions.check(tab, parse("#buy"), True)
    await asyncio.sleep(0.3)  # a form sent anyway would have arrived by now
    assert len(site.posts("/order")) == before
    assert len(gate.intents) == asked_before  # nothing to ask about: nothing was done


async def test_a_download_on_the_buy_button_is_asked_about(
        tab: Tab, site: Site, gate: Gate, tmp_path: Path) -> None:
    before = await checkout(tab, site)
    intent = await asked(tab, site, gate, before,
                         files.download(tab, parse("#buy-span"),
                                        outputs.at(str(tmp_path), str(tmp_path))))
    assert intent.action == "download"
    assert Category.PURCHASE in risks(intent)


async def test_an_upload_onto_the_buy_button_is_asked_about_as_its_click(
        tab: Tab, site: Site, gate: Gate, tmp_path: Path) -> None:
    cv = tmp_path / "cv.pdf"
    cv.write_bytes(b"%PDF-1.4\n")
    before = await checkout(tab, site)
    intent = await asked(tab, site, gate, before, files.upload(tab, parse("#buy"), [str(cv)]))
    assert intent.action == "upload"
    assert {Category.UPLOAD, Category.PURCHASE} <= risks(intent)


async def test_a_drag_from_the_buy_button_onto_itself_is_asked_about(
        tab: Tab, site: Site, gate: Gate) -> None:
    before = await checkout(tab, site)
    intent = await asked(tab, site, gate, before,
                         dragging.drag(tab, parse("#buy-span"), parse("#buy-b")))
    assert intent.action == "drag"
    assert Category.PURCHASE in risks(intent)


async def test_a_click_on_a_button_inside_a_pay_link_is_asked_about_as_the_link(
        tab: Tab, site: Site, gate: Gate) -> None:
    # Chromium follows a link around a button that was clicked
    before = await checkout(tab, site)
    intent = await asked(tab, site, gate, before, actions.click(tab, parse("#tip-left")))
    assert intent.element is not None
    assert intent.element.name == "Pay a $5 tip"


async def test_a_drag_between_two_buttons_inside_a_pay_link_is_asked_about_as_the_link(
        tab: Tab, site: Site, gate: Gate) -> None:
    # a press on one and a release on the other clicks their common ancestor, the link
    before = await checkout(tab, site)
    intent = await asked(tab, site, gate, before,
                         dragging.drag(tab, parse("#tip-left"), parse("#tip-right")))
    assert intent.element is not None
    assert intent.element.name == "Pay a $5 tip"


async def test_a_click_on_a_button_inside_a_pay_button_is_asked_about_as_both(
        tab: Tab, site: Site, gate: Gate) -> None:
    before = await checkout(tab, site)
    intent = await asked(tab, site, gate, before, actions.click(tab, parse("#pad-left")))
    assert intent.element is not None
    assert intent.element.name == "Pay $19.99"
    assert gate.intents[-2].element is not None
    assert gate.intents[-2].element.name == "Left"


@pytest.mark.parametrize("selector", ["#rename-btn", "#aria-btn", "#image-btn", "#div-btn",
                                      "#outside-btn"])
async def test_a_button_whose_name_hides_a_purchase_is_asked_about(
        tab: Tab, site: Site, gate: Gate, selector: str) -> None:
    before = await checkout(tab, site)
    intent = await asked(tab, site, gate, before, actions.click(tab, parse(selector)))
    assert Category.PURCHASE in risks(intent)


async def test_a_harmless_click_on_a_span_goes_through_and_says_what_it_activated(
        tab: Tab, site: Site, gate: Gate) -> None:
    await checkout(tab, site)
    out = await actions.click(tab, parse("#details-span"))
    assert await text_of(tab, "#out") == "details shown"
    assert 'which activates button "Show details"' in out.did


async def test_a_product_link_beside_its_price_is_no_purchase(
        tab: Tab, site: Site, gate: Gate) -> None:
    await checkout(tab, site)
    await actions.click(tab, parse("#gyokuro-name"))
    assert gate.intents[-1].element is not None
    assert risks(gate.intents[-1]) == set()


async def test_a_click_that_would_land_in_a_frame_is_refused(
        tab: Tab, site: Site, gate: Gate) -> None:
    await checkout(tab, site)
    with pytest.raises(TargetNotInteractable, match="inside the frame"):
        await actions.click(tab, parse("#frame"))
    assert await text_of(tab, "#out") == "nothing yet"


async def test_a_page_that_swaps_the_button_while_the_person_decides_gets_no_click(
        tab: Tab, site: Site, gate: Gate) -> None:
    await checkout(tab, site)
    gate.meanwhile = ("document.getElementById('details').style.display = 'none';"
                      "document.getElementById('decoy').style.display = 'inline-block';")
    with pytest.raises(TargetNotInteractable, match="page changed while the person was asked"):
        await actions.click(tab, parse("#spot"))
    assert await text_of(tab, "#out") == "nothing yet"


@pytest.mark.parametrize("selector", ["#news", "#fancy"], ids=["native", "aria"])
async def test_a_check_on_a_checkbox_is_still_put_to_policy_as_a_check(
        tab: Tab, site: Site, gate: Gate, selector: str) -> None:
    await goto(tab, site.url("controls.html"))
    out = await actions.check(tab, parse(selector), True)
    assert out.did.startswith("checked")
    assert gate.intents[-1].action == "check"


async def test_a_drag_between_harmless_elements_runs_under_the_default_profile(
        tab: Tab, site: Site, gate: Gate) -> None:
    await goto(tab, site.url("drag.html"))
    await dragging.drag(tab, parse("#card"), parse("#done"))
    assert await text_of(tab, "#out") == "dropped Card A on done"
    assert [i.action for i in gate.intents][-2:] == ["drag", "drag"]


async def test_a_drag_reordering_to_dos_is_not_asked_about_as_their_delete_buttons(
        tab: Tab, site: Site, gate: Gate) -> None:
    # the pointer rests on the first to-do, which shows its delete button; the list's
    # handlers get the click a press on one item and a release on another make
    await goto(tab, site.url("todos.html"))
    first, last = parse("#todos li:nth-child(1)"), parse("#todos li:nth-child(3)")
    await actions.hover(tab, first)
    await dragging.drag(tab, first, last)
    assert await text_of(tab, "#out") == "moved: Write report, Water plants, Walk the dog"
    dragged = [i for i in gate.intents if i.action == "drag"]
    assert len(dragged) >= 2
    assert all(risks(i) == set() for i in dragged)


async def test_a_drag_from_a_to_do_s_delete_button_is_asked_about(
        tab: Tab, site: Site, gate: Gate) -> None:
    await goto(tab, site.url("todos.html"))
    await actions.hover(tab, parse("#todos li:nth-child(1)"))
    with pytest.raises(PolicyError, match="asked about"):
        await dragging.drag(tab, parse("#todos li:nth-child(1) .destroy"),
                            parse("#todos li:nth-child(3)"))
    assert Category.DELETE in risks(gate.intents[-1])
    assert await text_of(tab, "#out") == "untouched"
    assert await js(tab, "document.querySelectorAll('#todos li').length") == 3


async def test_hovering_over_the_buy_button_is_no_click(
        tab: Tab, site: Site, gate: Gate) -> None:
    await checkout(tab, site)
    await actions.hover(tab, parse("#buy-span"))
    assert gate.intents[-1].action == "hover"


async def test_a_card_with_no_words_but_its_link_s_is_judged_by_that_link_s_words(
        tab: Tab, site: Site, gate: Gate) -> None:
    await goto(tab, site.url("todos.html"))
    with pytest.raises(PolicyError, match="asked about"):
        await actions.click(tab, parse("#card"))  # its middle, below the link
    assert Category.DELETE in risks(gate.intents[-1])
    assert await text_of(tab, "#out") == "untouched"
