"""How widget kits draw states and words their own way, read as a person reads them: a
"select all" box a click takes from mixed to clear, a day chosen by its box or cell, status
lines that grow or carry no role, a modal an Escape fades out or focus stays outside of, a
question a tooltip asks, a form that checks itself, fields parked under a grid or scaled
away, disabled links, separators, drawers and closed dialogs no one sees; on both
transports."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import goto, js, line_of, ref, text_of, watch_listeners
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse
from tabsteward.bridge.errors import TargetNotInteractable

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


async def test_a_select_all_box_a_click_clears_from_mixed_is_reported_as_it_went(
        tab: Tab, site: Site) -> None:
    # (Tabulator's header box: it said "still unchecked; the page did not take the change"
    # while the click had cleared every row)
    await goto(tab, site.url("kitstates.html"))
    shot = await tab.snapshot(interactive=True)
    box = ref(shot, "checkbox", "Select all")
    assert "[mixed]" in line_of(shot, box), shot.text
    with pytest.raises(TargetNotInteractable,
                       match=r"which was mixed: the page made it unchecked(; [^.]*)?\. To have it "
                             r"checked, check it again"):
        await actions.check(tab, parse(box), True)
    await actions.check(tab, parse(box), True)
    assert await text_of(tab, "#out") == "selected 2"


async def test_a_mixed_box_is_never_already_unchecked(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("kitstates.html"))
    box = ref(await tab.snapshot(interactive=True), "checkbox", "Select all")
    out = await actions.check(tab, parse(box), False)
    assert "already" not in out.text(), out.text()
    assert await text_of(tab, "#out") == "selected 0"


async def test_a_box_its_markup_alone_marks_mixed_says_so(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("kitstates.html"))
    shot = await tab.snapshot(interactive=True)
    assert "[mixed]" in line_of(shot, ref(shot, "checkbox", "Select all plans")), shot.text


async def test_a_day_is_chosen_as_the_box_or_the_cell_holding_its_button_says(
        tab: Tab, site: Site) -> None:
    await watch_listeners(tab)
    await goto(tab, site.url("kitstates.html"))
    shot = await tab.snapshot(interactive=True)
    assert "[selected]" in line_of(shot, ref(shot, "button", "4")), shot.text
    assert "selected" not in line_of(shot, ref(shot, "button", "3")), shot.text
    # (hinted by what its classes say, not by the kit's namespace they share: "pika")
    assert 'hint="day"' in line_of(shot, ref(shot, "button", "4")), shot.text
    out = await actions.click(tab, parse(ref(shot, "button", "December 5")))
    assert "now selected" in out.text(), out.text()
    shot = await tab.snapshot(interactive=True)
    assert "selected" in line_of(shot, ref(shot, "button", "December 5")), shot.text
    assert "selected" not in line_of(shot, ref(shot, "button", "December 4")), shot.text


async def test_a_status_line_that_grows_its_own_words_is_said_whole(
        tab: Tab, site: Site) -> None:
    # (it said "age asc" of "sorted: age asc")
    await goto(tab, site.url("kitsaid.html"))
    out = await actions.click(tab, parse("#sort"))
    assert 'the page said "sorted: age asc"' in out.text(), out.text()


async def test_a_line_a_page_marks_a_status_by_its_class_alone_is_said(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("kitsaid.html"))
    out = await actions.click(tab, parse("#edit"))
    assert 'the page said "Last action: edit Bob Jones"' in out.text(), out.text()


async def test_a_field_box_marked_by_how_its_check_went_says_nothing(
        tab: Tab, site: Site) -> None:
    # (antd's form item takes "has-success" once its slider moved: it said "Volume")
    await goto(tab, site.url("kitsaid.html"))
    out = await actions.press(tab, "ArrowRight", parse("#knob"))
    assert "said" not in out.text(), out.text()
    out = await actions.press(tab, "ArrowRight", parse("#knob"))
    assert "said" not in out.text(), out.text()


async def test_a_control_named_by_its_style_sheets_words_is_reported_by_them(
        tab: Tab, site: Site) -> None:
    await watch_listeners(tab)
    await goto(tab, site.url("kitsaid.html"))
    shot = await tab.snapshot(interactive=True)
    out = await actions.click(tab, parse(ref(shot, "clickable", "Save")))
    assert '"Save"' in out.did, out.did


async def test_a_toast_that_listens_only_for_a_swipe_is_no_control(
        tab: Tab, site: Site) -> None:
    await watch_listeners(tab)
    await goto(tab, site.url("kitsaid.html"))
    shot = await tab.snapshot()
    assert "> Booking confirmed" in shot.text, shot.text
    assert not [r for r, i in shot.refs.items() if i["name"] == "Booking confirmed"]


async def test_a_modal_an_escape_fades_out_is_said_closed_and_named_by_its_first_words(
        tab: Tab, site: Site) -> None:
    # (Vuetify's dialog: no name but its first words, focus left on the opener; an Escape
    # fades it out, then hides it)
    await goto(tab, site.url("kitsaid.html"))
    out = await actions.click(tab, parse("#review"))
    assert 'opened the dialog "Confirm booking"' in out.text(), out.text()
    scoped = await tab.snapshot(scope=parse('loc=dialog "Confirm booking"'))
    assert "Cancel" in scoped.text, scoped.text
    out = await actions.press(tab, "Escape")
    assert 'closed the dialog "Confirm booking"' in out.text(), out.text()
    assert "Cancel" not in (await tab.snapshot()).text


async def test_a_field_box_whose_words_are_its_fields_value_is_no_group(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("kitfilters.html"))
    shot = await tab.snapshot()
    assert 'group "Asia/Tokyo"' not in shot.text, shot.text


async def test_a_speaking_title_in_the_interactive_snapshot_leaves_out_its_selects_options(
        tab: Tab, site: Site) -> None:
    # (Pikaday's: the status line read "July June July 2025")
    await goto(tab, site.url("kitfilters.html"))
    shot = await tab.snapshot(interactive=True)
    assert '- status "July 2025"' in shot.text, shot.text


async def test_a_question_a_tooltip_asks_with_its_buttons_is_said_opened_and_closed(
        tab: Tab, site: Site) -> None:
    # (antd's Popconfirm: a click showed Cancel and OK and said nothing of the question)
    await goto(tab, site.url("kitsaid.html"))
    out = await actions.click(tab, parse("#leave"))
    assert 'opened the dialog "Leave project?"' in out.text(), out.text()
    out = await actions.click(tab, parse("#go"))
    assert 'closed the dialog "Leave project?"' in out.text(), out.text()


async def test_what_a_page_shows_under_a_desktop_pointer_only_is_reached_by_hovering(
        tab: Tab, site: Site) -> None:
    # (a headless browser read `(pointer: none)`: MUI's clear button never showed)
    await goto(tab, site.url("kitsaid.html"))
    shot = await tab.snapshot(interactive=True)
    assert "[hover-only]" in line_of(shot, ref(shot, "button", "Clear")), shot.text
    out = await actions.click(tab, parse(ref(shot, "button", "Clear")))
    assert 'the page said "Last action: cleared"' in out.text(), out.text()


async def test_an_opened_answer_stays_in_its_region_and_names_no_group(
        tab: Tab, site: Site) -> None:
    # (MUI's Accordion: the answer named a group, and its region showed empty)
    await watch_listeners(tab)
    await goto(tab, site.url("kitsaid.html"))
    shot = await tab.snapshot(interactive=True)
    await actions.click(tab, parse(ref(shot, "button", "Can I export data?")))
    text = (await tab.snapshot()).text
    assert "group" not in text, text
    region = text.split("- region", 1)[1].splitlines()
    assert region[1].strip() == "> Yes, as CSV from the Reports page.", text


async def test_a_fields_help_beneath_it_names_no_group(tab: Tab, site: Site) -> None:
    # (MUI's TextField: `group "Email We never share it"`)
    await goto(tab, site.url("kitsaid.html"))
    text = (await tab.snapshot()).text
    assert "group" not in text, text
    assert "> We never share it" in text, text


async def test_keys_typed_into_a_frame_whose_body_is_the_field_go_in(
        tab: Tab, site: Site) -> None:
    # (TinyMCE: "no field had focus any more", since the focused body read as nobody's)
    await goto(tab, site.url("frameeditor.html"))
    shot = await tab.snapshot(interactive=True)
    out = await actions.enter_text(tab, parse(ref(shot, "textbox", "Rich Text Area")),
                                   " world", "type")
    assert "did not go in" not in out.text(), out.text()
    assert await text_of(tab, "#said") == "body: Hello world"


async def test_a_link_a_kit_disables_by_a_class_taking_no_pointer_is_disabled(
        tab: Tab, site: Site) -> None:
    # (Bootstrap's pager: its Previous read as a link like any, and a click "clicked" it)
    await goto(tab, site.url("kitbits.html"))
    shot = await tab.snapshot(interactive=True)
    assert "[disabled]" in line_of(shot, ref(shot, "link", "Previous")), shot.text
    assert "disabled" not in line_of(shot, ref(shot, "link", "Next")), shot.text


async def test_a_menus_separator_drawn_as_an_item_is_no_control(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("kitbits.html"))
    shot = await tab.snapshot(interactive=True)
    assert "---" not in shot.text, shot.text
    assert ref(shot, "menuitem", "Read only")


async def test_a_button_of_digits_is_not_hinted_by_a_class_that_says_how_text_selects(
        tab: Tab, site: Site) -> None:
    # (Quasar: `button "2025" hint="non selectable"`, as if it could not be chosen)
    await goto(tab, site.url("kitbits.html"))
    shot = await tab.snapshot(interactive=True)
    assert "hint=" not in line_of(shot, ref(shot, "button", "2025")), shot.text


async def test_a_row_that_acts_is_located_by_its_first_cells(tab: Tab, site: Site) -> None:
    await watch_listeners(tab)
    await goto(tab, site.url("kitbits.html"))
    await tab.snapshot(interactive=True)
    out = await actions.click(tab, parse('loc=row "#1002 Cleo"'))
    assert 'the page said "order 1002"' in out.text(), out.text()


async def test_a_dialog_beginning_with_an_icons_glyph_is_named_by_its_words(
        tab: Tab, site: Site) -> None:
    # (Quasar's: `opened the dialog "warning"`)
    await goto(tab, site.url("kitbits.html"))
    out = await actions.click(tab, parse("#ask"))
    assert 'opened the dialog "Delete project Apollo?"' in out.text(), out.text()


async def test_an_escape_that_fades_out_a_modal_focus_stays_outside_of_says_it_closed(
        tab: Tab, site: Site) -> None:
    # (MUI's: focus on the box that holds the dialog, no aria-modal: "pressed Escape")
    await goto(tab, site.url("kitbits.html"))
    out = await actions.click(tab, parse("#wipe"))
    assert 'opened the dialog "Delete all projects?"' in out.text(), out.text()
    out = await actions.press(tab, "Escape")
    assert 'closed the dialog "Delete all projects?"' in out.text(), out.text()


async def test_a_popover_a_click_opens_is_said(tab: Tab, site: Site) -> None:
    # (Bootstrap's: the click said nothing of it)
    await goto(tab, site.url("kitbits.html"))
    out = await actions.click(tab, parse("#shipping"))
    assert 'shows the tooltip "Shipping Free over $50"' in out.text(), out.text()


async def test_the_track_a_slider_is_drawn_on_is_no_control_of_its_own(
        tab: Tab, site: Site) -> None:
    # (MUI's: `clickable "70"` around the slider, named by its hidden value label)
    await watch_listeners(tab)
    await goto(tab, site.url("kitstates.html"))
    shot = await tab.snapshot(interactive=True)
    assert 'clickable "70"' not in shot.text, shot.text
    assert 'value="70"' in line_of(shot, ref(shot, "slider", "Volume")), shot.text


async def test_a_form_that_checks_itself_is_said_wrong_in_its_own_words(
        tab: Tab, site: Site) -> None:
    # (Bootstrap's: the browser's message, which a person never sees there, was reported)
    await goto(tab, site.url("kitsaid.html"))
    out = await actions.click(tab, parse("#place"))
    assert '"Please enter a valid email."' in out.text(), out.text()
    assert "include an" not in out.text(), out.text()


async def test_a_cell_editor_parked_under_its_grid_is_no_field(tab: Tab, site: Site) -> None:
    # (Handsontable's: `textbox hint="Widget 12 Gadget 5" value="Widget"`, covered)
    await goto(tab, site.url("kitstates.html"))
    shot = await tab.snapshot(interactive=True)
    assert "cell-editor" not in shot.text, shot.text
    assert 'value="Widget"' not in shot.text, shot.text


async def test_a_click_a_page_stops_in_a_fields_label_is_not_said_to_reach_the_field(
        tab: Tab, site: Site) -> None:
    # (Quasar's calendar icon: "which activates textbox", though the field took no focus)
    await goto(tab, site.url("kitsaid.html"))
    out = await actions.click(tab, parse("#pick-date"))
    assert "activates" not in out.did, out.did
    assert await js(tab, "document.activeElement.id") != "checkin"
    out = await actions.click(tab, parse("#note-date"))
    assert 'which activates textbox "Check-out"' in out.did, out.did


async def test_a_closed_dialog_a_style_sheet_only_makes_see_through_is_not_shown(
        tab: Tab, site: Site) -> None:
    # (DaisyUI's: listed as an open dialog, its field "covered" when filled)
    await goto(tab, site.url("kitbits.html"))
    shot = await tab.snapshot(interactive=True)
    assert "Invitee email" not in shot.text, shot.text
    out = await actions.click(tab, parse("#invite"))
    assert 'opened the dialog "Invite a member"' in out.text(), out.text()
    shot = await tab.snapshot(interactive=True)
    assert ref(shot, "textbox", "Invitee email")


async def test_a_drawer_slid_out_of_a_frame_that_takes_no_pointer_is_not_shown(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("kitbits.html"))
    shot = await tab.snapshot(interactive=True)
    assert "Reports" not in shot.text, shot.text
    await actions.click(tab, parse(ref(shot, "checkbox", "Menu")))
    assert ref(await tab.snapshot(interactive=True), "link", "Reports")


async def test_a_radio_button_that_says_it_is_a_tab_is_selected_as_checked(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("kitbits.html"))
    shot = await tab.snapshot(interactive=True)
    assert "[selected]" in line_of(shot, ref(shot, "tab", "Overview")), shot.text
    out = await actions.click(tab, parse(ref(shot, "tab", "Billing")))
    assert "now selected" in out.text(), out.text()


async def test_each_label_of_a_check_box_it_stands_in_for_is_named_by_its_own_words(
        tab: Tab, site: Site) -> None:
    # (DaisyUI's modal-toggle: every label read "Edit profile Save Close")
    await goto(tab, site.url("kitbits.html"))
    shot = await tab.snapshot(interactive=True)
    out = await actions.click(tab, parse(ref(shot, "checkbox", "Edit profile")))
    assert out.did == 'clicked ' + ref(shot, "checkbox", "Edit profile") + \
        ' (checkbox "Edit profile")', out.did
    shot = await tab.snapshot(interactive=True)
    assert ref(shot, "checkbox", "Save"), shot.text
    assert ref(shot, "checkbox", "Close"), shot.text


async def test_a_chips_remove_icon_whose_glyph_shows_the_pointer_has_a_ref(
        tab: Tab, site: Site) -> None:
    # (Syncfusion's: hidden from screen readers, its pointer only on its ::before)
    await watch_listeners(tab)
    await goto(tab, site.url("kitbits.html"))
    shot = await tab.snapshot(interactive=True)
    icons = [r for r, info in shot.refs.items() if "chip-close" in str(info.get("loc"))]
    assert len(icons) == 2, shot.text
    out = await actions.click(tab, parse(icons[1]))
    assert 'the page said "removed French"' in out.text(), out.text()


async def test_a_cell_that_draws_a_check_box_by_a_class_says_whether_it_is_ticked(
        tab: Tab, site: Site) -> None:
    # (Syncfusion's displayAsCheckBox: every row read `| 10248 |  |`)
    await goto(tab, site.url("kitbits.html"))
    text = (await tab.snapshot()).text
    assert "| 10248 | ✓ |" in text, text
    assert "| 10249 | ✗ |" in text, text


async def test_a_part_a_kit_marks_its_root_is_not_hinted_so(tab: Tab, site: Site) -> None:
    # (PrimeVue's data-pc-section="root": `button hint="root"`)
    await goto(tab, site.url("narration.html"))
    assert "root" not in (await tab.snapshot(interactive=True)).text
