"""Controls as unstyled kits draw them (Headless UI, React Aria): a label that names its
control by id (aria-labelledby, no for=) is that control's name and no text of its own, so
a field holding one control and its label is no card; a dialog's panel listening to keep
its clicks from the veil is no control; choosing from a list box does not report the
options' going as news; choosing in a combobox that shows its list only once typed in types
the choice's words, as a person does. Both transports."""

from __future__ import annotations

import pytest
from fixture_server import Site
from pagetools import js, listened_snapshot, ref, text_of
from tabsteward.bridge.engine import actions
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


async def test_a_label_naming_its_control_by_id_is_its_name_and_no_text_or_card(
        tab: Tab, site: Site) -> None:
    await listened_snapshot(tab, site.url("headless_kit.html"))
    text = (await tab.snapshot()).text
    lines = [ln.strip() for ln in text.splitlines()]
    at = lines.index('- radiogroup "Plan"')
    assert [ln.split(" @")[0] for ln in lines[at + 1:at + 4]] == [
        '- radio "Startup"', '- radio "Business"', '- radio "Enterprise"'], text
    assert "group" not in text.replace("radiogroup", ""), text
    assert "> Startup" not in text, text


async def test_a_dialogs_listening_panel_is_no_control(tab: Tab, site: Site) -> None:
    shot = await listened_snapshot(tab, site.url("headless_kit.html"))
    await actions.click(tab, parse(ref(shot, "button", "Deactivate account")))
    shot = await tab.snapshot(interactive=True)
    assert [info["name"] for info in shot.refs.values()] == ["Deactivate", "Cancel"], shot.text
    await actions.click(tab, parse(ref(shot, "button", "Deactivate")))
    assert await text_of(tab, "#out") == "deactivated"


async def test_choosing_from_a_list_box_reports_the_choice_not_the_options_going(
        tab: Tab, site: Site) -> None:
    shot = await listened_snapshot(tab, site.url("headless_kit.html"))
    done = await actions.select(tab, parse(ref(shot, "button", "Assignee Wade Cooper")),
                                ["Devon Webb"])
    assert "it is no longer in the page" not in done.changes, done
    assert 'now named "Assignee Devon Webb"' in done.changes, done
    assert await js(tab, "document.getElementById('people').children.length") == 0


async def test_choosing_in_a_combobox_that_lists_only_once_typed_in_types_the_words(
        tab: Tab, site: Site) -> None:
    shot = await listened_snapshot(tab, site.url("headless_kit.html"))
    done = await actions.select(tab, parse(ref(shot, "combobox", "Reviewer")), ["Tom Cook"])
    assert 'its list showed the option once "Tom Cook" was typed in it' in done.changes, done
    assert await text_of(tab, "#out") == "reviewer Tom Cook"
