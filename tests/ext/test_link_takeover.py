"""A process with hub.token poses as the extension of a connected browser, under its install
id: the live link must stay, the impostor gets nothing. (No `browser` marker: the hub's
warning about the refused link is expected here.)"""

from __future__ import annotations

import asyncio
import os

import pytest
from extension_env import ExtensionHub
from fixture_server import Site
from tabsteward.bridge.cdp.extension import ExtensionConnection
from tabsteward.bridge.engine import actions
from tabsteward.bridge.native import framing

pytestmark = pytest.mark.timeout(120)



async def _read_all(reader: asyncio.StreamReader, seconds: float) -> list[object]:
    """Every message the impostor receives until its connection closes (or time runs out)."""
    decoder = framing.Decoder()
    got: list[object] = []
    try:
        async with asyncio.timeout(seconds):
            while data := await reader.read(65536):
                decoder.feed(data)
                got += decoder.messages()
    except TimeoutError:
        got.append("still open")
    return got


async def test_a_second_link_claiming_a_live_extensions_install_id_is_refused(
        ext_hub: ExtensionHub, site: Site) -> None:
    browser = await ext_hub.connect()
    conn = browser.conn
    assert isinstance(conn, ExtensionConnection)
    assert conn.link.hello is not None
    live, install = conn.link, conn.link.hello.install
    tab = await browser.session("agent").current_tab()
    await actions.navigate(tab, site.url("form.html"))

    token_file = os.path.join(os.path.dirname(ext_hub.socket), "hub.token")
    with open(token_file) as f:
        token = f.read().strip()
    reader, writer = await asyncio.open_unix_connection(ext_hub.socket)
    writer.write(framing.encode({"op": "extension", "token": token}))
    writer.write(framing.encode({"type": "hello", "protocol": 1, "install": install,
                                 "browser": "Mozilla/5.0 Chrome/156", "name": "chromium",
                                 "profile": "", "stopped": False}))
    await writer.drain()
    received = await _read_all(reader, 15)
    writer.close()

    # the impostor was closed without a single call (no page content, no commands)
    assert received == []
    assert conn.link is live
    assert not live.closed.done()
    assert ext_hub.pool is not None
    assert list(ext_hub.pool.extensions.values()) == [browser]
    assert (await tab.snapshot()).title == "Sign up"  # the agent carries on, as before
