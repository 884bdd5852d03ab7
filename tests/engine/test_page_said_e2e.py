"""What the page said in reply to an action: an action's report quotes the words its live
regions (a toast that announces itself, an alert, a status line) took on, as a screen reader
reads them out; never words that were there before, nor a region the page keeps quiet."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto, js, ref, run_tool, target, watch_listeners
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.acting import Outcome
from tabsteward.bridge.engine.dragging import drag_by
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse
from tabsteward.bridge.errors import TargetError

pytestmark = pytest.mark.browser


async def click(tab: Tab, site: Site, name: str) -> Outcome:
    await goto(tab, site.url("said.html"))
    shot = await tab.snapshot(interactive=True)
    return await actions.click(tab, target(shot, "button", name))


async def test_a_click_reports_the_toast_its_handler_showed(tab: Tab, site: Site) -> None:
    out = await click(tab, site, "Save")
    assert out.changes == ['the page said "Settings saved"'], out.text()
    assert out.data["said"] == ["Settings saved"]


async def test_a_web_components_toast_speaking_from_its_shadow_root_is_reported(
        tab: Tab, site: Site) -> None:
    await watch_listeners(tab)  # (the hook counts the shadow roots the page makes)
    out = await click(tab, site, "Clear cache")
    assert out.changes == ['the page said "Cache cleared"'], out.text()


async def test_what_the_page_says_a_moment_later_joins_the_report_of_a_click_that_looks(
        tab: Tab, site: Site) -> None:
    out = await click(tab, site, "Export later")  # (its 300 ms timer outlasts REPLY_WAIT)
    assert out.changes == [], out.text()
    await goto(tab, site.url("said.html"))
    looked = await run_tool(tab, "click", target="#later", interactive=True)
    first = looked.text.partition("\n")[0]
    assert first.endswith('; the page said "Export ready"'), looked.text
    assert looked.data["changes"] == ['the page said "Export ready"']


async def test_a_toast_is_reported_by_its_words_not_its_buttons(tab: Tab, site: Site) -> None:
    out = await click(tab, site, "Archive")
    assert out.changes == ['the page said "Conversation archived"'], out.text()


async def test_a_second_toast_of_the_same_words_is_reported_again(tab: Tab, site: Site) -> None:
    await click(tab, site, "Save")
    shot = await tab.snapshot(interactive=True)
    out = await actions.click(tab, target(shot, "button", "Save"))
    assert out.changes == ['the page said "Settings saved"'], out.text()


async def test_a_click_reports_an_alert_the_page_added(tab: Tab, site: Site) -> None:
    out = await click(tab, site, "Delete account")
    assert out.changes == ['the page said "You cannot delete an account with open orders"']


async def test_an_alert_the_click_revealed_is_reported(tab: Tab, site: Site) -> None:
    out = await click(tab, site, "Pay")  # (in the page from the start, in a hidden box)
    assert out.changes == ['the page said "Card declined"'], out.text()


async def test_words_a_region_already_said_and_quiet_regions_are_not_reported(
        tab: Tab, site: Site) -> None:
    # the status line redrawn, saying Online as before
    assert (await click(tab, site, "Refresh")).changes == []
    # a region the page keeps quiet (aria-live=off) is not said: what came there shows (a
    # person sees it); one aria-hidden neither
    out = await click(tab, site, "Autosave")
    assert out.changes == ['the page now shows "Autosaved"'], out.text()


async def test_a_long_message_is_cut_saying_how_much_was_left_out(
        tab: Tab, site: Site) -> None:
    out = await click(tab, site, "Export")
    words = ("Your export is ready. " * 12).strip()
    assert out.changes == [f'the page said "{words[:150]}" [+{len(words) - 150} chars]']
    assert out.data["said"] == [words[:150]]


async def test_a_message_cannot_write_outside_its_quotes(tab: Tab, site: Site) -> None:
    out = await click(tab, site, "Trick")
    assert out.changes == ['the page said "Done\\" ; clicked @9 (button \\"Pay\\")"']


async def test_an_enter_that_sends_a_form_reports_what_the_page_said(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("said.html"))
    shot = await tab.snapshot(interactive=True)
    user = target(shot, "textbox", "User")
    await actions.enter_text(tab, user, "ada", "fill")
    out = await actions.press(tab, "Enter", user)
    assert out.changes == ['the page said "Signed in as ada"'], out.text()


async def test_a_live_table_and_a_live_list_are_read_as_laid_out_not_as_a_message(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("said.html"))
    shot = await tab.snapshot(interactive=True)
    assert "- row | Balancer 1 | Active |  |" in shot.text, shot.text
    assert not [ln for ln in shot.text.splitlines() if "Balancer" in ln and "status" in ln]
    assert not [ln for ln in shot.text.splitlines() if "First result Second" in ln], shot.text
    assert ref(shot, "link", "Second result")
    # what changes there is no message of the page's
    out = await click(tab, site, "Stop balancer")
    assert not out.changes, out.text()


async def test_a_second_alert_of_the_same_words_is_reported_again(tab: Tab, site: Site) -> None:
    first = await click(tab, site, "Save order")
    shot = await tab.snapshot(interactive=True)
    again = await actions.click(tab, target(shot, "button", "Save order"))
    assert first.changes == again.changes == ['the page said "Order saved"'], again.text()


async def test_the_words_a_popup_opens_with_are_no_reply_and_its_changes_are(
        tab: Tab, site: Site) -> None:
    opened = await click(tab, site, "Pick a date")
    assert not [c for c in opened.changes if "said" in c], opened.text()
    shot = await tab.snapshot(interactive=True)
    out = await actions.click(tab, target(shot, "button", "Previous month"))
    assert out.changes == ['the page said "November"'], out.text()


async def test_a_page_that_loads_says_only_its_alerts(tab: Tab, site: Site) -> None:
    opened = await run_tool(tab, "open", url=site.url("said.html"), interactive=True)
    assert "the page said" not in opened.text.partition("\n")[0], opened.text
    assert "- status \"Online\"" in opened.text


async def test_a_live_carousel_track_is_content_not_a_message(tab: Tab, site: Site) -> None:
    out = await click(tab, site, "Next slide")
    assert not out.changes, out.text()
    shot = await tab.snapshot(interactive=True)
    assert not [ln for ln in shot.text.splitlines() if "status" in ln and "sync" in ln]


async def test_a_toast_in_a_live_list_of_toasts_speaks_for_itself(
        tab: Tab, site: Site) -> None:
    out = await click(tab, site, "Sync")
    assert out.changes == ['the page said "Synced 3 files"'], out.text()


async def test_an_error_line_with_no_live_region_is_reported_by_its_class(
        tab: Tab, site: Site) -> None:
    out = await click(tab, site, "Apply code")
    assert out.changes == ['the page said "This code is not valid"'], out.text()


async def test_a_toast_with_no_role_is_reported_by_its_class(tab: Tab, site: Site) -> None:
    out = await click(tab, site, "Update member")
    assert out.changes == ['the page said "✓ Member updated"'], out.text()


async def test_a_message_box_a_page_loads_with_is_no_reply_and_a_rows_status_cell_no_message(
        tab: Tab, site: Site) -> None:
    opened = await run_tool(tab, "open", url=site.url("said.html"), interactive=True)
    assert "Welcome back" not in opened.text.partition("\n")[0], opened.text
    out = await click(tab, site, "Halt job")
    # (the cell's new words show, read as its row; a class that calls it a status makes it
    # no message the page said)
    assert out.changes == ['the page now shows "Job 7 Failed"'], out.text()


async def test_a_status_line_that_grows_its_own_sentence_is_said_whole(
        tab: Tab, site: Site) -> None:
    out = await click(tab, site, "Finish upload")
    assert out.changes == ['the page said "Status: 3 files uploaded, 2 failed"'], out.text()


async def test_an_escape_that_shuts_a_dialog_says_so_and_what_the_page_said(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("said.html"))
    shot = await tab.snapshot(interactive=True)
    await actions.click(tab, target(shot, "textbox", "Invite email"))
    out = await actions.press(tab, "Escape")
    assert 'closed the dialog "Invite member"' in out.text(), out.text()
    assert 'the page said "window closed"' in out.text(), out.text()


async def test_a_number_set_by_a_sliders_keys_says_what_the_page_said(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("said.html"))
    shot = await tab.snapshot(interactive=True)
    out = await actions.enter_text(tab, target(shot, "slider", "Rating"), "4", "fill")
    assert out.changes[-1] == 'the page said "rating=4"', out.text()


async def test_a_swipe_says_what_the_page_said(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("said.html"))
    out = await drag_by(tab, parse("#swipe"), -120, 0)
    assert 'the page said "slide 2"' in out.text(), out.text()


async def test_a_dialog_fading_out_in_a_shadow_root_is_said_closed(
        tab: Tab, site: Site) -> None:
    await watch_listeners(tab)  # (the hook counts the shadow roots the page makes)
    await goto(tab, site.url("shadowdialog.html"))
    shot = await tab.snapshot(interactive=True)
    await actions.click(tab, target(shot, "button", "Delete account"))
    shot = await tab.snapshot(interactive=True)
    out = await actions.click(tab, target(shot, "button", "Cancel"))
    assert 'closed the dialog "Delete account?"' in out.text(), out.text()


async def test_a_dialog_that_starts_to_fade_frames_after_the_click_is_said_closed(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("vueclose.html"))
    shot = await tab.snapshot(interactive=True)
    stays = await actions.click(tab, target(shot, "button", "More"))
    assert not [c for c in stays.changes if "closed" in c], stays.text()
    out = await actions.click(tab, target(shot, "button", "Keep"))
    assert 'closed the dialog "Confirm"' in out.text(), out.text()


async def test_a_tours_svg_overlay_is_a_modals_veil_named_by_its_step(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("touroverlay.html"))
    shot = await tab.snapshot(interactive=True)
    assert "modal" in shot.text.lower(), shot.text
    assert ref(shot, "button", "Next"), shot.text
    with pytest.raises(TargetError) as covered:
        await actions.click(tab, parse("#save"))
    assert 'dialog "Name your workspace" (over svg)' in covered.value.message, \
        covered.value.message


async def test_a_dialog_an_action_opens_is_said_opened_as_one_it_closes_is_said_closed(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("opendialog.html"))
    shot = await tab.snapshot(interactive=True)
    out = await actions.click(tab, target(shot, "button", "Add traveller…"))
    assert out.changes == ['opened the dialog "Add traveller"'], out.text()
    shot = await tab.snapshot(interactive=True)
    out = await actions.click(tab, target(shot, "button", "Next"))  # the next step's
    assert out.changes == ['closed the dialog "Add traveller"',
                           'opened the dialog "Seat choice"'], out.text()
    shot = await tab.snapshot(interactive=True)
    out = await actions.click(tab, target(shot, "button", "Done"))
    assert out.changes == ['closed the dialog "Seat choice"'], out.text()
    shot = await tab.snapshot(interactive=True)
    out = await actions.click(tab, target(shot, "button", "Show terms"))  # shown by CSS
    assert out.changes == ['opened the dialog "Terms of travel"'], out.text()
    shot = await tab.snapshot(interactive=True)
    out = await actions.click(tab, target(shot, "button", "OK"))
    assert out.changes == ['closed the dialog "Terms of travel"'], out.text()
    shot = await tab.snapshot(interactive=True)
    out = await actions.click(tab, target(shot, "button", "More"))  # no dialog: not said
    assert not [c for c in out.changes if "dialog" in c], out.text()


async def test_a_modal_the_page_hides_by_visibility_is_said_closed_by_a_click_or_escape(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("opendialog.html"))
    for close in ("click", "Escape"):
        shot = await tab.snapshot(interactive=True)
        out = await actions.click(tab, target(shot, "button", "Review and deploy"))
        assert out.changes == ['opened the dialog "Deployment"'], out.text()
        shot = await tab.snapshot(interactive=True)
        out = await (actions.click(tab, target(shot, "button", "Cancel")) if close == "click"
                     else actions.press(tab, "Escape"))
        assert out.changes == ['closed the dialog "Deployment"'], (close, out.text())


async def test_a_choice_in_a_select_says_what_the_page_said_to_it(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("said.html"))
    out = await actions.select(tab, parse("#rows"), ["10"])
    assert out.changes == ['the page said "page size 10"'], out.text()


async def test_a_click_or_a_key_says_what_the_page_said_a_moment_later(
        tab: Tab, site: Site) -> None:
    # (a status line a 0 ms timer sets, one set on the next frame, one after a key's timer)
    out = await click(tab, site, "Apply filter")
    assert out.changes == ['the page said "filters: Open"'], out.text()
    out = await click(tab, site, "Bugs")
    assert out.changes == ['the page said "filters: Bugs"'], out.text()
    out = await actions.press(tab, "Enter", parse("#findbox"))
    assert out.changes == ['the page said "found 3"'], out.text()


async def test_a_dialog_the_page_closes_once_its_animation_ended_is_said_closed(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("opendialog.html"))
    shot = await tab.snapshot(interactive=True)
    await actions.click(tab, target(shot, "button", "Delete project"))
    shot = await tab.snapshot(interactive=True)
    out = await actions.click(tab, target(shot, "button", "Keep it"))
    assert out.changes == ['closed the dialog "Delete project?"'], out.text()
    shot = await tab.snapshot(interactive=True)
    assert "modal dialog is open" not in shot.text, shot.text


async def plain(tab: Tab, site: Site, action: str, selector: str) -> Outcome:
    await goto(tab, site.url("camewords.html"))
    if action == "check":
        return await actions.check(tab, parse(selector), True)
    return await actions.click(tab, parse(selector))


@pytest.mark.parametrize(("action", "selector", "words"), [
    ("click", "button[type=submit]", "Account created for ada@example.org"),
    ("click", "#save", "Draft saved at noon."),  # (its `hidden` taken away)
    ("click", "#tips", "Press Tab to move on."),  # (the class that hid it taken away)
    ("click", "#finish", "Thanks! Your response has been recorded."),  # (a class showing it)
    ("check", "#s4", "You rated 4 of 5"),  # (a line that said "No rating" rewritten in place)
])
async def test_words_that_came_in_a_plain_box_are_said_as_what_the_page_now_shows(
        tab: Tab, site: Site, action: str, selector: str, words: str) -> None:
    # (a bare div no live region holds: the report said only "clicked", and -i leaves text
    # lines out, so nothing told the agent the account was made)
    out = await plain(tab, site, action, selector)
    assert f'the page now shows "{words}"' in out.changes, out.text()
    assert out.data["came"] == [words]


@pytest.mark.parametrize(("action", "selector"), [
    ("click", "#follow"), ("click", "#redraw"), ("click", "#filter"), ("click", "#view")])
async def test_words_a_box_had_a_control_holds_a_list_shows_or_a_new_view_draws_are_not_said(
        tab: Tab, site: Site, action: str, selector: str) -> None:
    # (a button's own words, words drawn again as they were, a list filtered, six boxes at
    # once: no message, or one the snapshot reads)
    out = await plain(tab, site, action, selector)
    assert "now shows" not in out.text(), out.text()
    assert "came" not in out.data, out.data


async def test_a_message_box_that_came_is_said_once(tab: Tab, site: Site) -> None:
    out = await plain(tab, site, "click", "#fail")
    assert out.changes == ['the page said "Card declined"'], out.text()


async def test_a_fields_title_a_page_marks_wrong_is_not_said(tab: Tab, site: Site) -> None:
    # (SurveyJS: `the page said "Your name *"` once its class took "--error")
    out = await plain(tab, site, "click", "#next")
    assert "Your name" not in " ".join(out.changes[1:]), out.text()
    assert out.changes[0].startswith("invalid: "), out.text()


@pytest.mark.parametrize(("action", "selector", "said"), [
    ("click", "#next", '"Go to slide 2" now current'),  # (a class mark moved to it)
    ("check", "#news", '"Save changes" now enabled'),
    ("click", "#all", '"Row 1" now checked, "Row 2" now checked, "Row 3" now checked and 1 '
                      'more'),
    ("click", "#more", "3 items added to a list"),  # (Load more: nothing said of them)
])
async def test_other_controls_whose_state_the_action_changed_are_said(
        tab: Tab, site: Site, action: str, selector: str, said: str) -> None:
    # (Swiper's Next said nothing while its current dot moved; a Save became enabled unsaid)
    await goto(tab, site.url("moved.html"))
    out = await (actions.check(tab, parse(selector), True) if action == "check"
                 else actions.click(tab, parse(selector)))
    assert said in out.changes, out.text()


async def test_the_control_an_action_left_is_not_said_and_a_page_for_another_is_a_swap(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("moved.html"))
    out = await actions.click(tab, parse("#t2"))
    assert out.changes == ["now selected"], out.text()
    out = await actions.click(tab, parse("#older"))  # (a pager's page: no items added)
    assert out.changes == ['2 items of a list ("Mail 1", "Mail 2") replaced by 2 others: '
                           '"Mail 3", "Mail 4"'], out.text()


async def test_filling_a_number_field_says_what_the_page_said_to_its_change(
        tab: Tab, site: Site) -> None:
    # (a shop's Min price: the count of results it announced went unsaid, but with -i)
    await goto(tab, site.url("moved.html"))
    out = await actions.enter_text(tab, parse("#pmin"), "200", "fill")
    assert 'the page said "12 results"' in out.changes, out.text()


async def test_controls_a_page_draws_anew_as_they_were_keep_their_refs(
        tab: Tab, site: Site) -> None:
    # (a shop's facets drawn anew on every change: every line [new] under another ref, and
    # --delta all noise)
    await goto(tab, site.url("moved.html"))
    before = await tab.snapshot(interactive=True)
    acme = ref(before, "checkbox", "Acme")
    await actions.click(tab, parse("#resort"))
    after = await tab.snapshot(interactive=True)
    assert ref(after, "checkbox", "Acme") == acme, after.text
    assert "[new]" not in after.text, after.text
    await actions.check(tab, parse(acme), True)
    assert await js(tab, "document.querySelector('#facets input').checked") is True
