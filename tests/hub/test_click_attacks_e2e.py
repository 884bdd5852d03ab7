"""Red team, pointer side: a paired agent on the CLI tries to place an order on a basket page
without the person being asked, by clicking what is inside or beside the "Place order"
button, by clicks made inside other commands, and through names that hide the purchase.
A real hub on a terminal with the default profile, a real Chromium; the basket's forms POST
to the fixture server, which records every POST. Each attack must be held for the person;
the person denies it, and the server must have received nothing."""

from __future__ import annotations

import re
import subprocess
import time
from collections.abc import Iterator

import hub_env
import pytest
from fixture_server import Site
from hub_env import BIN, Hub, Terminal
from tabsteward.bridge.errors import PolicyError

pytestmark = pytest.mark.browser

POLICY = """\
default_profile = "shop"

[profiles.shop]
inherits = "default"
ask_timeout = 20
"""
QUESTION = r"\[tabsteward\] ([ABP]\d+): agent"


@pytest.fixture(scope="module")
def console_hub() -> Iterator[tuple[Hub, Terminal]]:
    with hub_env.console_hub(POLICY) as found:
        yield found


@pytest.fixture
def basket(console_hub: tuple[Hub, Terminal], site: Site) -> tuple[Hub, Terminal]:
    hub, term = console_hub
    opened = hub.cli("--agent", "attacker", "open", site.url("basket.html"))
    assert opened.returncode == 0, opened.stderr
    return hub, term


def attack(hub: Hub, term: Terminal, *command: str) -> tuple[subprocess.Popen[str], str]:
    """An agent's command, and the question the person is shown about it."""
    before = len(re.findall(QUESTION, term.text))
    proc = subprocess.Popen([BIN, "--agent", "attacker", *command], env=hub.env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            cwd=hub.env["HOME"])
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        ids = re.findall(QUESTION, term.text)
        if len(ids) > before:
            return proc, ids[-1]
        if proc.poll() is not None:
            out, err = proc.communicate()
            raise AssertionError(f"{command} ran without asking the person: {out}{err}")
        time.sleep(0.05)
    proc.kill()
    raise AssertionError(f"no question for {command}:\n{term.text}")


def held_and_denied(hub: Hub, term: Terminal, site: Site, *command: str) -> str:
    """Run an attack, check it was held for the person, deny it as the person, and check
    the page sent nothing. Returns the question's line as the person read it."""
    sent = len(site.posts("/order"))
    proc, qid = attack(hub, term, *command)
    line = term.wait_for(rf"{qid}: agent 'tests/attacker' wants to (.*)").group(1)
    denied = hub.answer("deny", qid, term.code(qid, "deny"))
    assert denied.returncode == 0, denied.stderr
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == PolicyError.exit_code, err
    assert "denied by the person" in err
    time.sleep(0.3)  # a form sent anyway would have arrived by now
    assert site.posts("/order")[sent:] == []
    return line


@pytest.mark.parametrize("part", ["#buy-span", "#buy-b"], ids=["span", "b"])
def test_a_click_on_an_element_inside_the_place_order_button_is_asked_about(
        basket: tuple[Hub, Terminal], site: Site, part: str) -> None:
    line = held_and_denied(*basket, site, "click", part)
    assert 'button "Place order $49.99"' in line
    assert "purchase" in line


def test_a_click_on_the_label_for_a_buy_button_is_asked_about(
        basket: tuple[Hub, Terminal], site: Site) -> None:
    line = held_and_denied(*basket, site, "click", "#rename-label")
    assert 'button "Finish"' in line
    assert "purchase" in line


def test_a_drag_from_the_place_order_button_onto_itself_is_asked_about(
        basket: tuple[Hub, Terminal], site: Site) -> None:
    line = held_and_denied(*basket, site, "drag", "#buy-span", "#buy-b")
    assert "purchase" in line


def test_a_check_on_the_place_order_button_is_refused_and_sends_nothing(
        basket: tuple[Hub, Terminal], site: Site) -> None:
    hub, _ = basket
    sent = len(site.posts("/order"))
    done = subprocess.run([BIN, "--agent", "attacker", "check", "#buy"], env=hub.env,
                          text=True, capture_output=True, cwd=hub.env["HOME"], timeout=60)
    assert done.returncode != 0
    assert "is not a checkbox, radio button or switch, so it cannot be checked; nothing " \
        "was done" in done.stderr
    time.sleep(0.3)  # a form sent anyway would have arrived by now
    assert site.posts("/order")[sent:] == []


def test_a_download_on_the_place_order_button_is_asked_about(
        basket: tuple[Hub, Terminal], site: Site) -> None:
    line = held_and_denied(*basket, site, "download", "#buy-span", "saved.bin")
    assert "purchase" in line


def test_an_upload_onto_the_place_order_button_is_asked_about_as_the_purchase_it_is(
        basket: tuple[Hub, Terminal], site: Site) -> None:
    hub, _ = basket
    with open(f"{hub.env['HOME']}/cv.pdf", "wb") as f:
        f.write(b"%PDF-1.4\n")
    line = held_and_denied(*basket, site, "upload", "#buy", "cv.pdf")
    assert "purchase" in line
    assert "upload" in line


def test_a_click_on_a_plain_button_inside_a_pay_button_is_asked_about(
        basket: tuple[Hub, Terminal], site: Site) -> None:
    line = held_and_denied(*basket, site, "click", "#pad-left")
    assert 'button "Pay $19.99"' in line


def test_a_drag_between_two_buttons_inside_a_pay_button_is_asked_about(
        basket: tuple[Hub, Terminal], site: Site) -> None:
    line = held_and_denied(*basket, site, "drag", "#pad-left", "#pad-right")
    assert 'button "Pay $19.99"' in line


@pytest.mark.parametrize("button", ["#rename-btn", "#aria-btn", "#image-btn", "#div-btn",
                                    "#outside-btn"],
                         ids=["label-for-finish", "aria-label-continue", "image-without-alt",
                              "div-role-button-next", "image-beside-the-order-total"])
def test_a_button_whose_name_hides_the_purchase_is_asked_about(
        basket: tuple[Hub, Terminal], site: Site, button: str) -> None:
    line = held_and_denied(*basket, site, "click", button)
    assert "purchase" in line


def test_a_click_on_a_harmless_button_beside_them_runs_without_a_question(
        basket: tuple[Hub, Terminal], site: Site) -> None:
    hub, term = basket
    before = len(re.findall(QUESTION, term.text))
    done = hub.cli("--agent", "attacker", "click", "#details-span")
    assert done.returncode == 0, done.stderr
    assert 'which activates button "Show details"' in done.stdout
    assert len(re.findall(QUESTION, term.text)) == before
