"""How a click made inside another action is put to policy (pure; no browser)."""

from __future__ import annotations

from tabsteward.bridge.engine.aiming import Ask, intent_of, says_more


def test_a_check_on_what_is_no_toggle_is_gated_as_a_click() -> None:
    submit = {"role": "button", "name": "Place order", "tag": "button", "type": "submit"}
    assert intent_of(Ask("check"), submit) == ("click", {})
    assert intent_of(Ask("uncheck"), submit) == ("click", {})
    box = {"role": "checkbox", "name": "Gift wrap", "tag": "input", "type": "checkbox"}
    assert intent_of(Ask("check"), box) == ("check", {})


def test_a_download_is_gated_with_the_address_of_what_it_really_clicks() -> None:
    link = {"role": "link", "name": "Report", "tag": "a", "href": "https://a.example/r.csv"}
    assert intent_of(Ask("download"), link) == ("download", {"url": "https://a.example/r.csv"})
    assert intent_of(Ask("download"), {"role": "button", "tag": "button"}) == (
        "download", {"url": ""})


def test_an_element_around_the_target_is_asked_about_only_when_it_says_more() -> None:
    link = {"role": "link", "name": "Delete", "text": "Delete"}
    assert not says_more({"role": "menuitem", "name": "Delete", "text": "Delete"}, link)
    left = {"role": "button", "name": "Left", "text": "Left"}
    assert says_more({"role": "button", "name": "Pay $19.99", "text": "Left Right"}, left)
    assert says_more({"role": "button", "name": "", "text": "Buy now"}, {"name": "OK"})
    around = {"role": "link", "name": "Details", "text": "Details", "href": "https://x.example/"}
    assert says_more(around, {"role": "button", "name": "Details", "text": "Details"})
