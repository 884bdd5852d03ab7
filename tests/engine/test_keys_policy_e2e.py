"""Keys are judged against the element focused when they land, in whichever frame holds
focus: a gate that refuses what the default profile would ask about, on both transports, and
a fixture server that records every POST."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fixture_server import Site
from pagetools import goto, js, target
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse
from tabsteward.bridge.errors import PolicyError
from tabsteward.bridge.policy.categories import Category, Rule
from tabsteward.bridge.policy.classify import decide
from tabsteward.bridge.policy.intent import Intent
from tabsteward.bridge.policy.profiles import BUILTIN

pytestmark = pytest.mark.browser


class NoGrants:
    def allows(self, profile: str, site: str, category: Category) -> bool:
        return False


class DefaultPolicy:
    """The default profile with a person who denies every question."""

    def __init__(self) -> None:
        self.seen: list[Intent] = []
        self.refused: list[Intent] = []

    async def __call__(self, tab: Tab, intent: Intent) -> None:
        self.seen.append(intent)
        verdict = decide(intent, BUILTIN["default"], NoGrants())
        if verdict.rule is not Rule.ALLOW:
            self.refused.append(intent)
            raise PolicyError(f"denied by the test's person: {verdict.summary}. Nothing was "
                              "done", categories=[f.category.value for f in verdict.findings])

    def presses(self) -> list[tuple[str, str]]:
        """(keys, name of the element they were judged on) of every press asked about."""
        return [(i.keys, i.element.name if i.element else "") for i in self.seen
                if i.action == "press"]


@pytest.fixture
def policy(tab: Tab) -> Iterator[DefaultPolicy]:
    gate = DefaultPolicy()
    tab.browser.gate = gate
    yield gate
    tab.browser.gate = None


async def test_tab_tab_tab_enter_is_judged_on_the_place_order_button_it_lands_on(
        tab: Tab, site: Site, policy: DefaultPolicy) -> None:
    await goto(tab, site.url("checkout.html"))
    before = len(site.posts())
    with pytest.raises(PolicyError) as refused:
        await actions.press(tab, "Tab Tab Tab Enter")
    assert refused.value.message.startswith("pressed Tab, Tab, Tab; the rest was not")
    assert "purchase" in refused.value.details["categories"]
    assert policy.presses() == [("Tab Tab Tab", ""), ("Enter", "Place order $49.99")]
    assert site.posts()[before:] == []
    assert await js(tab, "location.pathname") == "/checkout.html"


async def test_tab_tab_tab_space_on_the_place_order_button_is_refused(
        tab: Tab, site: Site, policy: DefaultPolicy) -> None:
    await goto(tab, site.url("checkout.html"))
    before = len(site.posts())
    with pytest.raises(PolicyError):
        await actions.press(tab, "Tab Tab Tab Space")
    assert policy.presses()[-1] == ("Space", "Place order $49.99")
    assert site.posts()[before:] == []


async def test_shift_tab_then_tab_enter_in_a_chat_is_judged_on_the_message_box(
        tab: Tab, site: Site, policy: DefaultPolicy) -> None:
    await goto(tab, site.url("chat.html"))
    shot = await tab.snapshot()
    await actions.enter_text(tab, target(shot, "textbox", "Message #general"), "hi", "type")
    await actions.press(tab, "Shift+Tab")  # onto "Attach file": harmless by itself
    before = len(site.posts())
    with pytest.raises(PolicyError) as refused:
        await actions.press(tab, "Tab Enter")
    assert "send" in refused.value.details["categories"]
    assert policy.presses()[-2:] == [("Tab", "Attach file"), ("Enter", "Message #general")]
    assert site.posts()[before:] == []


async def test_enter_with_no_target_in_a_cross_origin_frame_is_judged_on_its_field(
        tab: Tab, site: Site, policy: DefaultPolicy) -> None:
    await goto(tab, site.url("paypage.html"))
    shot = await tab.snapshot()
    await actions.click(tab, target(shot, "textbox", "Coupon"))
    before = len(site.posts())
    with pytest.raises(PolicyError) as refused:
        await actions.press(tab, "Enter")
    assert "purchase" in refused.value.details["categories"]
    judged = policy.refused[-1].element
    assert judged is not None
    assert (judged.name, judged.frame_url) == ("Coupon", site.other("payframe.html"))
    assert site.posts()[before:] == []


async def test_a_line_break_in_typed_text_is_an_enter_judged_like_one(
        tab: Tab, site: Site, policy: DefaultPolicy) -> None:
    await goto(tab, site.url("checkout.html"))
    shot = await tab.snapshot()
    before = len(site.posts())
    with pytest.raises(PolicyError) as refused:
        await actions.enter_text(tab, target(shot, "textbox", "Coupon"), "x\n", "type")
    assert refused.value.message.startswith("typed 1 character; the rest was not")
    assert [i.action for i in policy.seen if i.action != "navigate"] == ["type", "press"]
    assert policy.presses() == [("Enter", "Coupon")]
    assert await js(tab, "document.querySelector('[name=coupon]').value") == "x"
    assert site.posts()[before:] == []


async def test_keys_that_activate_nothing_risky_go_through_judged_once_per_step(
        tab: Tab, site: Site, policy: DefaultPolicy) -> None:
    await goto(tab, site.url("checkout.html"))
    out = await actions.press(tab, "Tab a d a Tab Tab Tab Enter")
    assert out.did == "pressed Tab, 3 characters, Tab, Tab, Tab, Enter"
    # typing right after a Tab is judged on the field it lands in, the Enter on the summary
    assert policy.presses() == [("Tab", ""), ("a d a Tab Tab Tab", "Name"),
                                ("Enter", "Shipping details")]
    assert await js(tab, "document.querySelector('details').open") is True
    assert await js(tab, "document.querySelector('[name=name]').value") == "ada"


async def test_plain_typing_asks_policy_once(
        tab: Tab, site: Site, policy: DefaultPolicy) -> None:
    await goto(tab, site.url("checkout.html"))
    await actions.press(tab, "h e l l o", parse("[name=name]"))
    assert policy.presses() == [("h e l l o", "Name")]
    assert await js(tab, "document.querySelector('[name=name]').value") == "hello"


async def test_enter_on_a_field_that_hands_focus_to_place_order_is_judged_on_the_button(
        tab: Tab, site: Site, policy: DefaultPolicy) -> None:
    await goto(tab, site.url("checkout.html"))
    before = len(site.posts())
    with pytest.raises(PolicyError) as refused:
        await actions.press(tab, "Enter", parse("#note"))
    assert "purchase" in refused.value.details["categories"]
    assert policy.presses() == [("Enter", "Gift note"), ("Enter", "Place order $49.99")]
    assert site.posts()[before:] == []


async def test_tabbing_into_a_cross_origin_frame_then_enter_is_judged_on_its_pay_button(
        tab: Tab, site: Site, policy: DefaultPolicy) -> None:
    await goto(tab, site.url("paypage.html"))
    before = len(site.posts())
    with pytest.raises(PolicyError) as refused:
        await actions.press(tab, "Tab Tab Enter")
    assert "purchase" in refused.value.details["categories"]
    judged = policy.refused[-1].element
    assert judged is not None
    assert (judged.name, judged.frame_url) == ("Pay $49.99", site.other("payframe.html"))
    assert site.posts()[before:] == []


async def test_tab_tab_into_a_busy_cross_origin_frame_lands_on_its_second_control(
        tab: Tab, site: Site, policy: DefaultPolicy) -> None:
    # The parent hands focus to a frame of another process a moment after Tab is answered;
    # the second Tab must wait for it, or it lands in the parent and is lost.
    await goto(tab, site.url("busypaypage.html"))
    before = len(site.posts())
    with pytest.raises(PolicyError):
        await actions.press(tab, "Tab Tab Enter")
    judged = policy.refused[-1].element
    assert judged is not None
    assert (judged.name, judged.frame_url) == ("Pay $49.99", site.other("busypayframe.html"))
    assert site.posts()[before:] == []
