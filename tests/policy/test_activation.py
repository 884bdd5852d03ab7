"""Names that hide the risk, and clicks made inside other actions: the classifier reads the
text an element shows, the form around it, and judges a synthetic click as the click it is."""

from __future__ import annotations

import pytest
from tabsteward.bridge.policy.categories import Category, Rule
from tabsteward.bridge.policy.classify import classify, decide
from tabsteward.bridge.policy.intent import MAX_NEAR, MAX_TEXT, Element, Form, Intent
from tabsteward.bridge.policy.profiles import BUILTIN

C = Category
DEFAULT = BUILTIN["default"]
SHOP = "https://shop.example/checkout"


class NoGrants:
    def allows(self, profile: str, site: str, category: Category) -> bool:
        return False


def checkout_form(*, submits: bool = True, method: str = "post", has_payment: bool = False,
                  submit_name: str = "", submit_text: str = "") -> Form:
    return Form(action="https://shop.example/orders", method=method, submits=submits,
                has_payment=has_payment, submit_name=submit_name, submit_text=submit_text)


def categories(intent: Intent) -> set[Category]:
    return {f.category for f in classify(intent, DEFAULT.sites)}


def rule(intent: Intent) -> Rule:
    return decide(intent, DEFAULT, NoGrants()).rule


# -- names that hide the risk --

def test_a_label_for_that_renames_buy_now_to_finish_is_still_a_purchase() -> None:
    renamed = Element(role="button", name="Finish", text="Buy now $9.99", tag="button",
                      form=checkout_form())
    intent = Intent("click", SHOP, renamed)
    assert C.PURCHASE in categories(intent)
    assert rule(intent) is Rule.ASK
    reasons = " ".join(f.reason for f in classify(intent, DEFAULT.sites))
    assert 'the text "Buy now $9.99" on button "Finish"' in reasons


def test_aria_label_continue_on_a_place_order_button_is_a_purchase() -> None:
    hidden = Element(role="button", name="Continue", text="Place order - pay $49.99",
                     tag="button")
    assert C.PURCHASE in categories(Intent("click", SHOP, hidden))
    assert rule(Intent("click", SHOP, hidden)) is Rule.ASK


def test_a_div_button_named_next_that_reads_buy_now_is_a_purchase() -> None:
    div = Element(role="button", name="Next", text="Buy now for $9.99", tag="div")
    assert rule(Intent("click", "https://shop.example/p/1", div)) is Rule.ASK
    assert C.PURCHASE in categories(Intent("click", "https://shop.example/p/1", div))


def test_an_image_only_submit_in_a_form_showing_a_price_is_a_purchase() -> None:
    image = Element(role="button", name="", text="", tag="button", form=checkout_form(),
                    near="Shipping to Ada Lovelace. Total: $49.99")
    assert C.PURCHASE in categories(Intent("click", SHOP, image))
    assert rule(Intent("click", SHOP, image)) is Rule.ASK


def test_an_image_only_submit_in_a_form_with_card_fields_is_a_purchase() -> None:
    image = Element(role="button", tag="button", form=checkout_form(has_payment=True))
    assert rule(Intent("click", SHOP, image)) is Rule.ASK


def test_a_continue_submit_of_a_form_showing_the_total_is_a_purchase() -> None:
    vague = Element(role="button", name="Continue", text="Continue", tag="button",
                    form=checkout_form(), near="Order total 129,00 € Continue")
    assert C.PURCHASE in categories(Intent("click", SHOP, vague))


def test_enter_in_a_field_of_a_form_whose_renamed_button_reads_pay_is_a_purchase() -> None:
    field = Element(role="textbox", name="Coupon", tag="input", type="text",
                    form=checkout_form(submits=False, submit_name="Finish",
                                       submit_text="Pay $20.00"))
    assert C.PURCHASE in categories(Intent("press", SHOP, field, keys="Enter"))


def test_a_renamed_button_whose_text_says_delete_is_deleting() -> None:
    renamed = Element(role="button", name="OK", text="Delete all my photos", tag="button")
    assert C.DELETE in categories(Intent("click", "https://photos.example/", renamed))


def test_a_renamed_button_whose_text_names_a_security_setting_is_one() -> None:
    renamed = Element(role="button", name="Save", text="Turn off two-factor authentication",
                      tag="button")
    assert C.ACCOUNT_SETTINGS in categories(Intent("click", "https://app.example/", renamed))


# -- what must not become a purchase --

def test_a_product_link_next_to_its_price_is_no_purchase() -> None:
    link = Element(role="link", name="Gyokuro", text="Gyokuro", tag="a",
                   href="https://shop.example/#Gyokuro", near="Gyokuro from 31 CHF")
    assert categories(Intent("click", "https://shop.example/search", link)) == set()


def test_a_clickable_product_card_showing_its_price_is_no_purchase() -> None:
    card = Element(role="", name="", text="Gyokuro 31 CHF per 100 g", tag="div")
    assert categories(Intent("click", "https://shop.example/search", card)) == set()


def test_add_to_cart_in_a_form_showing_the_price_only_submits() -> None:
    add = Element(role="button", name="Add to cart", text="Add to cart", tag="button",
                  form=checkout_form(), near="Blue teapot $39.00 Quantity 1 Add to cart")
    intent = Intent("click", "https://shop.example/p/teapot", add)
    assert categories(intent) == {C.SUBMIT}
    assert rule(intent) is Rule.ALLOW


def test_a_next_button_of_a_search_form_among_prices_is_no_purchase() -> None:
    pager = Element(role="button", name="Next", text="Next", tag="button",
                    form=checkout_form(method="get"), near="Teapots from $9.99 Next")
    assert C.PURCHASE not in categories(Intent("click", "https://shop.example/s", pager))


def test_an_icon_button_without_a_form_beside_a_price_is_no_purchase() -> None:
    heart = Element(role="button", name="", text="", tag="button", near="Teapot $39.00")
    assert categories(Intent("click", "https://shop.example/s", heart)) == set()


def test_text_that_repeats_the_name_gives_no_second_reason() -> None:
    buy = Element(role="button", name="Buy now", text="Buy now", tag="button")
    reasons = [f.reason for f in classify(Intent("click", SHOP, buy), DEFAULT.sites)]
    assert reasons == ['button "Buy now" suggests a purchase or payment ("Buy")']


def test_a_field_shows_no_text_that_counts() -> None:
    field = Element(role="textbox", name="Notes", text="Buy now", tag="input", type="text")
    assert categories(Intent("click", SHOP, field)) == set()


# -- clicks made inside other actions --

BUY = Element(role="button", name="Place order $49.99", tag="button",
              form=checkout_form(submit_name="Place order $49.99"))


@pytest.mark.parametrize("action", ["download", "drag", "upload"])
def test_a_click_made_inside_another_action_is_judged_as_that_click(action: str) -> None:
    intent = Intent(action, SHOP, BUY, files=("cv.pdf",) if action == "upload" else ())
    found = categories(intent)
    assert {C.SUBMIT, C.PURCHASE} <= found
    assert rule(intent) is Rule.ASK


def test_an_upload_into_a_file_input_clicks_nothing() -> None:
    file_input = Element(role="button", name="Buy now", tag="input", type="file")
    assert categories(Intent("upload", SHOP, file_input, files=("cv.pdf",))) == {C.UPLOAD}


def test_the_download_summary_names_the_file_once() -> None:
    link = Element(role="link", name="Report", tag="a", href="https://a.example/r.csv")
    verdict = decide(Intent("download", "https://a.example/", link,
                            url="https://a.example/r.csv"), DEFAULT, NoGrants())
    assert verdict.summary.count("r.csv") == 1


def test_page_facts_are_cut_as_they_arrive() -> None:
    el = Element.from_page({"role": "button", "text": "x" * 5000, "near": "y" * 5000,
                            "form": {"submitText": "z" * 5000}})
    assert len(el.text) == MAX_TEXT
    assert len(el.near) == MAX_NEAR
    assert el.form is not None
    assert len(el.form.submit_text) == MAX_TEXT
