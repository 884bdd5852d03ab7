"""How a click made inside another action is put to policy (pure; no browser)."""

from __future__ import annotations

from tabsteward.bridge.engine.aiming import Ask, intent_of


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
