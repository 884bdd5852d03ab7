"""The snapshot's structure on pages built as real sites build them: hidden text, cards that
begin with a control, unlabeled checkboxes, grid cells, inline badges, long lists."""

from __future__ import annotations

import re

import pytest
from fixture_server import Site
from pagetools import goto, js, line_of, loc_on_line, ref, refs_in, target, under
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse
from tabsteward.bridge.errors import TargetNotInteractable

pytestmark = pytest.mark.browser


async def test_text_inside_visibility_hidden_is_left_out_unless_a_child_shows_itself(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("structure.html"))
    for interactive in (False, True):
        text = (await tab.snapshot(interactive=interactive)).text
        for hidden in ("Hidden tooltip", "Hidden link", "Hidden button", "Hidden item", "Inner"):
            assert hidden not in text, text
    text = (await tab.snapshot()).text
    assert "> Visible paragraph" in text
    assert "> Shown inside hidden" in text  # visibility: visible under a hidden parent


async def test_a_card_that_begins_with_a_link_or_checkbox_is_a_line_named_by_its_words(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("structure.html"))
    for interactive in (False, True):
        shot = await tab.snapshot(interactive=interactive)
        grace = under(shot, '- listitem "Grace wrote a note."')
        assert [ln.split(" @")[0] for ln in grace] == ['- link "Grace"', '- button "Reply"']
        dog = under(shot, '- listitem "Walk the dog"')
        assert [ln.split(" @")[0] for ln in dog] == ["- checkbox"], shot.text
        # a card named by a heading that holds its link keeps its line in -i too
        kindle = under(shot, '- group "Kindle Paperwhite"')
        assert [ln.split(" @")[0] for ln in kindle if ln.startswith("- ")] == [
            '- link "Kindle Paperwhite"', '- button "Add to list"'], shot.text
        # an article alone in a wrapper (no class) that repeats is a repeated item
        linus = under(shot, '- article "Linus sent a patch."')
        assert [ln.split(" @")[0] for ln in linus] == ['- button "Like"'], shot.text
    await actions.click(tab, parse(refs_in(grace)[1]))
    await actions.click(tab, parse(refs_in(linus)[0]))
    assert await js(tab, "window.done") == ["reply:grace", "like:linus"]


async def test_a_card_with_one_ref_and_no_words_of_its_own_gets_no_line_of_its_own(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("headlines.html"))
    for interactive in (False, True):
        text = (await tab.snapshot(interactive=interactive)).text
        assert 'listitem "Rivers rise' not in text, text
        assert 'listitem "Markets close' not in text, text
        assert '- link "Rivers rise in the north" @' in text
    bridge = under(await tab.snapshot(), '- listitem "A new bridge opens"')  # words of its own
    assert [ln.split(" @")[0] for ln in bridge] == ['- link "A new bridge opens"',
                                                    "> Two years late."], bridge


async def test_an_unlabeled_checkbox_or_radio_is_not_named_by_its_value(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("structure.html"))
    shot = await tab.snapshot()
    names = {info["name"] for info in shot.refs.values()
             if info["role"] in ("checkbox", "radio")}
    assert names == {"", "Select row"}, shot.text
    boxes = [ln.strip() for ln in shot.text.splitlines()
             if ln.strip().startswith(("- checkbox", "- radio"))]
    assert all(re.match(r"- (checkbox|radio) @", ln) for ln in boxes
               if "Select row" not in ln), boxes
    body = "\n".join(ln for ln in shot.text.splitlines() if not ln.startswith("url: "))
    for value in ('"on', "42", "yes-please"):  # (the url line holds a random port)
        assert value not in body, shot.text
    assert ref(shot, "clickable", "I agree to the terms")  # the value is not its words
    # each unlabeled box is found by a locator scoped to its item, and checks that one
    plants = under(shot, '- listitem "Water plants"')
    loc = loc_on_line(line_of(shot, refs_in(plants)[0]))
    assert loc.endswith(' in "Water plants"'), loc
    await actions.click(tab, parse("loc=" + loc))
    assert await js(tab, "window.done") == ["toggle:plants"]


async def test_a_grid_cell_that_only_takes_focus_or_wraps_a_control_gets_no_ref(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("structure.html"))
    for interactive in (False, True):
        shot = await tab.snapshot(interactive=interactive)
        assert not any(info["role"] == "gridcell" for info in shot.refs.values()), shot.text
        jon = under(shot, "- row |  | Jon |  | x |")
        assert [ln.split(" @")[0] for ln in jon] == ['- checkbox "Select row"',
                                                     '- button "Delete Jon"'], shot.text
    await actions.click(tab, parse(refs_in(jon)[1]))
    assert await js(tab, "window.done") == ["delete:jon"]


async def test_inline_block_badges_are_words_apart_in_rows_text_and_names(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("structure.html"))
    shot = await tab.snapshot()
    assert "- row | Crash on start | bug good first issue |" in shot.text
    assert '- group "open p1 Needs triage"' in shot.text
    assert ref(shot, "button", "Red Large")


async def test_a_long_list_shows_its_first_items_and_says_how_many_were_left_out(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("longlist.html"))
    for interactive in (False, True):
        shot = await tab.snapshot(interactive=interactive)
        items = re.findall(r"^- listitem ", shot.text, re.M)
        assert len(items) == 100, shot.text[-500:]
        assert "\n- [150 more items left out; --scope on the list or -v after scrolling " \
               "shows them]" in shot.text
        assert len(shot.text) < 12_000, len(shot.text)
    assert (await tab.snapshot()).text.endswith("> End of notifications.")
    whole = await tab.snapshot(scope=parse("#all"))
    assert '- listitem "Notification 250 about something"' in whole.text
    assert "more items" not in whole.text


async def test_what_a_closed_details_holds_is_left_out_and_a_click_on_it_says_to_open_it(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("folded.html"))
    for interactive in (False, True):
        text = (await tab.snapshot(interactive=interactive)).text
        assert "More options" in text, text
        assert "Direct flights" in text, text
        for folded in ("Flexible dates", "Only with the box open", "Found later",
                       "Kept for later"):  # (a box of content-visibility: hidden)
            assert folded not in text, text
    summary = target(await tab.snapshot(interactive=True), "button", "More options")
    await actions.click(tab, summary)
    flex = target(await tab.snapshot(interactive=True), "checkbox", "Flexible dates")
    await actions.click(tab, summary)  # closed again: the ref stays, hidden
    with pytest.raises(TargetNotInteractable, match=r'@\d+ \(checkbox "Flexible dates"\) is '
                       r'hidden inside the collapsed summary "More options"; nothing was done'):
        await actions.check(tab, flex, True)
    assert await js(tab, "[window.done, flex.checked]") == [[], False]


async def test_a_select_made_of_a_button_shows_what_it_shows_as_its_value(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("combos.html"))
    for interactive in (False, True):
        shot = await tab.snapshot(interactive=interactive)
        size = [ln for ln in shot.text.splitlines() if 'combobox "Size"' in ln]
        assert len(size) == 1, shot.text
        assert size[0].endswith('value="Medium"'), shot.text
        assert "> Medium" not in shot.text  # not again as text
        # (ARIA 1.1's combobox: the box around the field is none, the field the combobox)
        town = [ln for ln in shot.text.splitlines() if 'combobox "Town search"' in ln]
        assert town, shot.text
        assert 'combobox "Town"' not in shot.text, shot.text
        assert "value=" not in town[0]  # not its options' words
        colour = [ln for ln in shot.text.splitlines() if "Pick a colour" in ln]
        assert "value=" not in colour[0]  # named by those words: no value to repeat them
    out = await actions.click(tab, target(shot, "combobox", "Size"))
    assert "value now 'Large'" in out.text()


async def test_the_interactive_snapshot_keeps_what_the_page_tells_the_person_after_an_action(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("tells.html"))
    shot = await tab.snapshot(interactive=True)
    assert "- status" not in shot.text  # an empty live region says nothing, nor one that
    assert "- alert" not in shot.text   # only a screen reader hears (a pixel wide)
    assert "refine the list" not in shot.text
    assert "2 results" not in shot.text
    full = (await tab.snapshot()).text
    # (nor the full one: a screen reader's narration a box clips away whole is no text a
    # person reads; react-select's, a drag kit's announcements)
    assert "type to refine the list" not in full, full
    assert "2 results are available" not in full, full
    await actions.click(tab, target(shot, "button", "Save"))
    lines = (await tab.snapshot(interactive=True)).text.splitlines()
    assert '- status "Saved your changes"' in lines
    alert = [ln for ln in lines if ln.startswith("- alert")]
    assert alert == ['- alert "The display name must be unique across the whole workspace and '
                     'at least three characters long Undo"'], lines  # whole, not cut at 60
    assert any(ln.startswith('- button "Undo" @') for ln in lines), lines


async def test_an_app_left_hidden_from_assistive_technology_is_read_and_used_as_shown(
        tab: Tab, site: Site) -> None:
    # (its controls are in view and in the keyboard's reach: the aria-hidden a closed modal
    # left on it is a mistake; an icon's and a carousel clone's are not)
    await goto(tab, site.url("left_hidden.html"))
    shot = await tab.snapshot()
    assert 'heading "Shop"' in shot.text, shot.text
    assert "Fresh bread daily." in shot.text, shot.text
    assert shot.text.count('link "Slide one"') == 1, shot.text
    spelt = ref(shot, "button", "Add to cart", nth=1)
    assert 'in "Spelt loaf"' in line_of(shot, spelt), shot.text
    await actions.click(tab, parse(spelt))
    assert await js(tab, "document.getElementById('out').textContent") == "added spelt"


async def test_an_app_hidden_while_a_modal_is_open_stays_out_of_the_snapshot(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("left_hidden.html?modal=1"))
    shot = await tab.snapshot()
    assert 'button "No thanks"' in shot.text, shot.text
    assert "Add to cart" not in shot.text, shot.text
    assert "Fresh bread daily." not in shot.text, shot.text


async def test_a_fieldsets_group_in_the_interactive_snapshot_is_named_by_its_legend(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("legendgroups.html"))
    shot = await tab.snapshot(interactive=True)
    for legend, hint in (("When do you want the permit to start?", "For example"),
                         ("How will you pay?", "Cards are charged")):
        assert f'- group "{legend}"' in shot.text, shot.text
        assert hint not in shot.text, shot.text
    assert under(shot, '- group "When do you want the permit to start?"')[0].startswith(
        '- textbox "Day" @'), shot.text
