"""A look right after an action waits for the timers the page armed in reply to its input (a
search box's debounce) and for the data they fetched, as a person waits for the results;
the page's own clock is not waited for, nor a reply armed for later than a second, and a
page that never stops replying holds the look no longer than its cap. On both transports."""

from __future__ import annotations

import json

import pytest
from fixture_server import Site
from pagetools import ref, run_tool
from tabsteward.bridge.engine import actions, replies
from tabsteward.bridge.engine.collect import HOOK_SECRET
from tabsteward.bridge.engine.tab import Tab

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


async def armed(tab: Tab) -> list[int]:
    got = await tab.evaluate(tab.frames[tab.target_id],
                             f"__ts.armed({json.dumps(HOOK_SECRET)})")
    return [int(n) for n in got]


async def test_a_fill_with_a_snapshot_shows_the_results_a_search_box_fetched_after_its_pause(
        tab: Tab, site: Site) -> None:
    await actions.navigate(tab, site.url("typeahead.html"))
    filled = await run_tool(tab, "fill", target="#q", text="ada", interactive=True)
    assert 'button "Open ada" @' in filled.text
    assert "still replying" not in filled.text
    # typed key by key: each key re-arms the pause, and the results are the whole word's
    typed = await run_tool(tab, "type", target="#q", text="m", interactive=True)
    assert 'button "Open adam" @' in typed.text


async def test_the_pages_own_clock_and_a_reply_armed_for_later_than_a_second_are_not_awaited(
        tab: Tab, site: Site) -> None:
    await actions.navigate(tab, site.url("typeahead.html?ms=3000"))
    await tab.snapshot()  # (which waits for the timers it armed as it loaded)
    assert await armed(tab) == [0, 0, 0]  # its clock ticks on timers no input armed
    filled = await run_tool(tab, "fill", target="#q", text="ada", snapshot=True)
    assert "No search yet" in filled.text
    assert "still replying" not in filled.text


async def test_a_page_that_never_stops_replying_holds_the_look_only_up_to_its_cap(
        tab: Tab, site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(replies, "TIMERS_WAIT", 0.6)
    await actions.navigate(tab, site.url("typeahead.html?ms=200&forever=1"))
    filled = await run_tool(tab, "fill", target="#q", text="ada", interactive=True)
    first, _, rest = filled.text.partition("\n[untrusted page data")
    assert first.endswith("the page was still replying to the input after 0.6 s; read as it "
                          "was")
    assert 'textbox "Search people"' in rest


async def test_the_pages_timers_still_look_and_work_as_the_browsers_own(
        tab: Tab, site: Site) -> None:
    await actions.navigate(tab, site.url("typeahead.html"))
    await run_tool(tab, "fill", target="#q", text="x")  # the hook is in (through the extension
    # once the debugger came for the input)
    seen = await tab.send("Runtime.evaluate", {"returnByValue": True, "awaitPromise": True,
                                                "expression": """(async () => {
      const natives = [setTimeout, setInterval, clearTimeout, clearInterval].map(
        (f) => [f.name, f.length, String(f).includes("[native code]")]);
      const got = await new Promise((done) => setTimeout((a, b) => done(a + b), 5, 2, 3));
      let ran = false;
      const id = setTimeout(() => { ran = true; }, 1);
      clearTimeout(id);
      await new Promise((done) => setTimeout(done, 20));
      return {natives, got, ran};
    })()"""})
    value = seen["result"]["value"]
    assert value["natives"] == [["setTimeout", 1, True], ["setInterval", 1, True],
                                ["clearTimeout", 0, True], ["clearInterval", 0, True]]
    assert value["got"] == 5
    assert value["ran"] is False


@pytest.mark.parametrize("other_site", [False, True])
async def test_a_search_box_in_a_frame_is_waited_for_in_that_frames_document(
        tab: Tab, site: Site, other_site: bool) -> None:
    at = site.other_origin if other_site else ""
    await actions.navigate(tab, site.url(f"typeahead-framed.html?at={at}"))
    box = ref(await tab.snapshot(interactive=True), "textbox", "Search people")
    filled = await run_tool(tab, "fill", target=box, text="ada", interactive=True)
    assert 'button "Open ada" @' in filled.text
