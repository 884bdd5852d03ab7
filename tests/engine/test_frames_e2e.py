"""Iframes (same-origin and out-of-process cross-origin) and open shadow roots."""

from __future__ import annotations

import asyncio
import struct
import zlib
from pathlib import Path

import pytest
from fixture_server import Site
from pagetools import goto, js, line_of, ref, target, text_of
from tabsteward.bridge.engine import actions, files
from tabsteward.bridge.engine.model import Snapshot
from tabsteward.bridge.engine.outputs import at
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse
from tabsteward.bridge.errors import RefNotFound, TargetCovered

pytestmark = pytest.mark.browser


async def frames_page(tab: Tab, site: Site) -> Snapshot:
    """Open the frames page: the main frame's load waits for both frames' load."""
    await goto(tab, site.url("frames.html"))
    shot = await tab.snapshot()
    assert "Press cross" in shot.text, shot.text
    assert "Press same" in shot.text, shot.text
    return shot


async def frame_text(tab: Tab, who: str, selector: str) -> str:
    """Read an element of the inner page in frame `who`, in that frame's own main world."""
    if who == "same":
        return str(await js(tab, "document.getElementById('same').contentDocument"
                                  f".querySelector('{selector}').textContent"))
    return str(await js(tab, f"document.querySelector('{selector}').textContent",
                        session=await oopif_session(tab)))


async def oopif_session(tab: Tab) -> str:
    """The cross-origin frame's own debugger session (through the extension, a page read
    without the debugger has none until something attaches it: this does)."""
    await js(tab, "0")
    [session] = list(tab.child_sessions)
    return session


async def test_cross_origin_frame_runs_in_its_own_process(tab: Tab, site: Site) -> None:
    """The fixture does what it claims: the other site's frame is an OOPIF."""
    await frames_page(tab, site)
    await oopif_session(tab)
    assert site.other_origin.startswith("http://127.0.0.2:")


async def test_iframe_contents_appear_under_their_frame(tab: Tab, site: Site) -> None:
    shot = await frames_page(tab, site)
    lines = shot.text.splitlines()
    same = lines.index(line_of(shot, ref(shot, "iframe", "Same origin frame")))
    cross = lines.index(line_of(shot, ref(shot, "iframe", "Cross origin frame")))
    press_same = lines.index(line_of(shot, ref(shot, "button", "Press same")))
    press_cross = lines.index(line_of(shot, ref(shot, "button", "Press cross")))
    assert same < press_same < cross < press_cross
    indent = len(lines[cross]) - len(lines[cross].lstrip())
    assert len(lines[press_cross]) - len(lines[press_cross].lstrip()) > indent
    assert "> Frame cross" in shot.text


async def test_frames_added_moved_and_removed_after_a_snapshot_show_in_the_next(
        tab: Tab, site: Site) -> None:
    await frames_page(tab, site)
    await js(tab, f"""(() => {{
        for (const [id, src] of [["late", "inner.html?who=late"],
                                 ["far", "{site.other_origin}/inner.html?who=far"]]) {{
            const f = document.createElement("iframe");
            f.id = id; f.title = "Frame " + id; f.src = src;
            document.body.append(f);
        }}
        return true }})()""")
    shot = await snapshot_showing(tab, "Press far", "Press late")
    for who in ("same", "cross", "late", "far"):
        assert f"Press {who}" in shot.text, shot.text
    lines = shot.text.splitlines()
    far = lines.index(line_of(shot, ref(shot, "iframe", "Frame far")))
    assert lines.index(line_of(shot, ref(shot, "button", "Press far"))) > far
    # the same-origin frame goes to another site, the far one to this site, one goes away
    await js(tab, f"""(() => {{
        document.getElementById("same").src = "{site.other_origin}/inner.html?who=moved";
        document.getElementById("far").src = "inner.html?who=back";
        document.getElementById("late").remove();
        return true }})()""")
    shot = await snapshot_showing(tab, "Press moved", "Press back")
    for who in ("cross", "moved", "back"):
        assert f"Press {who}" in shot.text, shot.text
    for gone in ("Press same", "Press late", "Press far", "Frame late"):
        assert gone not in shot.text, shot.text
    out = await actions.click(tab, target(shot, "button", "Press moved"))
    assert out.did.startswith("clicked")
    after = (await tab.snapshot()).text
    assert "moved clicked (trusted)" in after
    assert "cross clicked" not in after
    assert "back clicked" not in after


async def snapshot_showing(tab: Tab, *texts: str) -> Snapshot:
    """Snapshots (only: nothing else that reads the frame trees) until all texts show."""
    deadline = asyncio.get_running_loop().time() + 10
    while True:
        shot = await tab.snapshot()
        if all(t in shot.text for t in texts) or asyncio.get_running_loop().time() > deadline:
            return shot
        await asyncio.sleep(0.1)


async def test_button_inside_same_origin_iframe_gets_a_ref_that_clicks(
        tab: Tab, site: Site) -> None:
    shot = await frames_page(tab, site)
    out = await actions.click(tab, target(shot, "button", "Press same"))
    assert "Press same" in out.did
    assert await frame_text(tab, "same", "#out") == "same clicked (trusted)"


async def test_button_inside_cross_origin_iframe_gets_a_ref_that_clicks(
        tab: Tab, site: Site) -> None:
    shot = await frames_page(tab, site)
    press = ref(shot, "button", "Press cross")
    out = await actions.click(tab, parse(press))  # the frame is below the fold: scrolls
    assert out.did.startswith(f"clicked {press}")
    assert await frame_text(tab, "cross", "#out") == "cross clicked (trusted)"
    assert await frame_text(tab, "same", "#out") == "not clicked"
    again = await tab.snapshot()
    assert ref(again, "button", "Press cross") == press
    assert "> cross clicked (trusted)" in again.text


async def test_fill_inside_cross_origin_iframe(tab: Tab, site: Site) -> None:
    shot = await frames_page(tab, site)
    field = ref(shot, "textbox", "Field cross")
    out = await actions.enter_text(tab, parse(field), "over there", "fill")
    assert out.data["value"] == "over there"
    [session] = list(tab.child_sessions)
    assert await js(tab, "document.getElementById('field').value", session=session) == \
        "over there"


async def test_css_selector_reaches_into_a_cross_origin_frame(tab: Tab, site: Site) -> None:
    await frames_page(tab, site)
    handle = await tab.resolve(parse('[aria-label="Swatch cross"]'))
    assert handle.frame.session != tab.session_id  # the cross-origin frame's own session


async def test_a_css_selector_each_frame_matches_is_refused_and_nothing_is_typed(
        tab: Tab, site: Site) -> None:
    await frames_page(tab, site)
    with pytest.raises(RefNotFound, match=r"^2 elements match '#field'.*nothing was done"):
        await actions.enter_text(tab, parse("#field"), "first match", "fill")
    assert await js(tab, "document.getElementById('same').contentDocument"
                         ".getElementById('field').value") == ""


async def test_scoped_snapshot_of_a_cross_origin_frame_shows_its_content(
        tab: Tab, site: Site) -> None:
    shot = await frames_page(tab, site)
    press = ref(shot, "button", "Press cross")
    scoped = await tab.snapshot(scope=parse(press))
    assert "Press cross" in scoped.text
    assert "Press same" not in scoped.text


async def test_text_of_an_iframe_is_the_text_of_the_document_it_shows(
        tab: Tab, site: Site) -> None:
    await frames_page(tab, site)
    for who in ("same", "cross"):
        kind, text = await actions.read_element(tab, parse(f"#{who}"))
        assert kind == "text"
        assert f"Frame {who}" in text
        assert "Main page text" not in text


async def test_shadow_dom_buttons_and_inputs_get_refs_that_work(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("shadow.html"))
    shot = await tab.snapshot()
    assert '- heading "Card"' in shot.text
    field = ref(shot, "textbox", "Shadow field")
    await actions.enter_text(tab, parse(field), "in the shadow", "fill")
    await actions.click(tab, target(shot, "button", "Shadow button"))
    assert await text_of(tab, "#out") == "shadow clicked with in the shadow"
    await actions.click(tab, target(shot, "button", "Deep button"))
    assert await text_of(tab, "#out") == "deep clicked"
    await actions.click(tab, target(shot, "button", "Slotted button"))
    assert await text_of(tab, "#out") == "slotted clicked"
    assert len([i for i in shot.refs.values() if i["name"] == "Slotted button"]) == 1


async def test_text_reads_what_shadow_roots_show_in_page_order_and_waits_find_it(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("shadow.html"))
    lines = (await actions.read(tab, "text")).splitlines()
    for word in ("Shadow DOM", "Card", "Outer host", "Deep button", "Slotted button", "none"):
        assert word in lines, lines
    assert lines.index("Card") < lines.index("Outer host") < lines.index("none")
    kind, text = await actions.read_element(tab, parse("x-outer"))
    assert (kind, text.split()) == ("text", ["Outer", "host", "Deep", "button"])
    await js(tab, "document.querySelector('x-card').shadowRoot.querySelector('h2')"
                  ".textContent = 'Card arrived'")
    await actions.wait(tab, text="Card arrived", timeout=10)


async def test_css_selector_reaches_into_open_shadow_roots(tab: Tab, site: Site) -> None:
    await goto(tab, site.url("shadow.html"))
    await actions.enter_text(tab, parse("#sf"), "by css", "fill")
    await actions.click(tab, parse("#sb"))
    assert await text_of(tab, "#out") == "shadow clicked with by css"


async def test_dialog_opened_by_a_cross_origin_frame_is_reported_and_answered(
        tab: Tab, site: Site) -> None:
    shot = await frames_page(tab, site)
    asks = [r for r, i in shot.refs.items() if i["role"] == "button" and i["name"] == "Ask"]
    out = await actions.click(tab, parse(asks[1]))  # the cross-origin frame's
    assert out.data["dialog"] == {"type": "confirm", "message": "Sure in the frame?"}
    await actions.dialog(tab, "accept")
    assert await frame_text(tab, "cross", "#out") == "answer true"
    assert (await actions.dialog(tab, "status")).data["dialog"] is None
    await tab.snapshot()  # the engine is not wedged


async def test_wait_for_text_that_appears_inside_a_frame(tab: Tab, site: Site) -> None:
    shot = await frames_page(tab, site)
    await actions.click(tab, target(shot, "button", "Press cross"), count=2)
    await actions.wait(tab, text="frame text arrived", timeout=10)


async def test_keys_pressed_on_a_field_in_a_cross_origin_frame_reach_it(
        tab: Tab, site: Site) -> None:
    shot = await frames_page(tab, site)
    await actions.press(tab, "x", target(shot, "textbox", "Field cross"))
    assert await frame_text(tab, "cross", "#out") == "key x"


async def test_hover_inside_a_cross_origin_frame(tab: Tab, site: Site) -> None:
    shot = await frames_page(tab, site)
    session = await oopif_session(tab)
    await js(tab, """document.getElementById('press').addEventListener('mouseover',
        () => { document.getElementById('out').textContent = 'hovered'; })""", session=session)
    await actions.hover(tab, target(shot, "button", "Press cross"))
    assert await frame_text(tab, "cross", "#out") == "hovered"


async def test_text_of_the_page_includes_its_frames(tab: Tab, site: Site) -> None:
    await frames_page(tab, site)
    text = await actions.read(tab, "text")
    assert "Main page text" in text
    assert "Frame cross" in text
    assert "Frame same" in text


def png_pixels(path: Path) -> list[tuple[int, int, int]]:
    """The RGB pixels of an 8-bit, non-interlaced RGB or RGBA PNG (what Chromium writes)."""
    data = path.read_bytes()
    pos, idat, width, height, channels = 8, b"", 0, 0, 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color = struct.unpack(">IIBB", body[:10])
            assert depth == 8
            assert color in (2, 6)
            channels = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    prev = bytearray(stride)
    pixels: list[tuple[int, int, int]] = []
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b, c = prev[i], prev[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        pixels += [tuple(line[x:x + 3]) for x in range(0, stride, channels)]  # type: ignore[misc]
        prev = line
    return pixels


@pytest.mark.parametrize("who", ["main", "same", "cross"])
async def test_screenshot_of_an_element_inside_a_frame_shows_that_element(
        tab: Tab, site: Site, tmp_path: Path, who: str, request: pytest.FixtureRequest) -> None:
    if tab.browser.kind == "extension":
        request.applymarker(pytest.mark.xfail(
            reason="a hidden background tab of headless Chromium sometimes hands out a "
                   "stale frame; known gap of the extension transport", strict=False))
    shot = await frames_page(tab, site)
    path = tmp_path / "swatch.png"
    await files.screenshot(tab, at(str(path), str(tmp_path)),
                           target=target(shot, "button", f"Swatch {who}"))
    pixels = png_pixels(path)
    red = [p for p in pixels if p[0] > 230 and p[1] < 30 and p[2] < 30]
    assert len(red) >= 0.9 * len(pixels), f"{len(red)} of {len(pixels)} pixels are red"


@pytest.mark.parametrize("who", ["same", "cross"])
async def test_click_into_a_frame_under_a_page_overlay_is_refused_naming_it(
        tab: Tab, site: Site, who: str) -> None:
    shot = await frames_page(tab, site)
    await js(tab, """document.body.insertAdjacentHTML('beforeend',
        '<div id="veil" style="position:fixed;inset:0;background:rgba(0,0,0,.3)"></div>')""")
    with pytest.raises(TargetCovered, match="div#veil"):
        await actions.click(tab, target(shot, "button", f"Press {who}"))
    assert await frame_text(tab, who, "#out") == "not clicked"
