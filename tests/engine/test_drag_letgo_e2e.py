"""A drag that cannot finish lets go of the button: the page sees it released once, however
the drag ends (its request cancelled, the target drawn anew while it is held)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from fixture_server import Site
from pagetools import goto, js, text_of
from tabsteward.bridge.engine import dragging
from tabsteward.bridge.engine.tab import Tab
from tabsteward.bridge.engine.targets import parse
from tabsteward.bridge.errors import TargetError

pytestmark = pytest.mark.browser

PRESSED_AND_RELEASED = "pointerdown mousedown pointerup mouseup"


@pytest.mark.parametrize(("kind", "buttons"), [("mousePressed", 1), ("mouseMoved", 1)],
                         ids=["answer-to-the-press", "first-move"])
async def test_a_drag_cancelled_while_the_button_is_held_releases_it_in_the_page(
        tab: Tab, site: Site, monkeypatch: pytest.MonkeyPatch, kind: str, buttons: int) -> None:
    await goto(tab, site.url("dragheld.html"))
    held, answer = asyncio.Event(), asyncio.Event()
    send = tab.send

    async def slow_page(method: str, params: dict[str, Any] | None = None,
                        session: str | None = None, timeout: float | None = 30) -> Any:
        # the press is answered, or the first move with the button down made, only once
        # the drag was cancelled: the request is waiting there
        if (method == "Input.dispatchMouseEvent" and params is not None and not held.is_set()
                and params.get("type") == kind and params.get("buttons") == buttons):
            sent = await send(method, params, session, timeout) if kind == "mousePressed" \
                else None
            held.set()
            await answer.wait()
            if sent is not None:
                return sent
        return await send(method, params, session, timeout)

    monkeypatch.setattr(tab, "send", slow_page)
    dragged = asyncio.ensure_future(dragging.drag(tab, parse("#a"), parse("#c")))
    await held.wait()
    assert await text_of(tab, "#log") == "pointerdown mousedown"
    dragged.cancel()
    answer.set()
    with pytest.raises(asyncio.CancelledError):
        await dragged
    assert await text_of(tab, "#log") == PRESSED_AND_RELEASED


async def test_a_drag_whose_target_is_drawn_anew_while_held_is_let_go_and_drops_nothing(
        tab: Tab, site: Site) -> None:
    # the page replaces the target element at the first move of the held button, as sortable
    # libraries re-render their lists: a release there would land on another element
    await goto(tab, site.url("dragheld.html?redraw"))
    with pytest.raises(TargetError) as failed:
        await dragging.drag(tab, parse("#a"), parse("#c"))
    said = str(failed.value)
    assert "the drag was let go on the dragged element, and nothing was dropped on the " \
           "target" in said, said
    assert "nothing was done" not in said  # the button was pressed and released
    assert await text_of(tab, "#log") == PRESSED_AND_RELEASED
    assert await js(tab, "[...document.querySelectorAll('li')].map(li => li.textContent)"
                         ".join(' ')") == "Alpha Bravo Charlie"
