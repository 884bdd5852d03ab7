"""The hub that the extension tests' own browsers connect to."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from extension_env import HOST_RULES, ExtensionHub
from looprunner import LoopThread
from xdisplay import xvfb


@pytest.fixture
def ext_hub(loop: LoopThread, request: pytest.FixtureRequest) -> Iterator[ExtensionHub]:
    """A hub in this process for extension browsers (off the network but for the fixture
    sites); its idle detach is an indirect param, else the module's IDLE_DETACH, else 120 s."""
    idle = getattr(request, "param", getattr(request.module, "IDLE_DETACH", 120))
    hub = ExtensionHub([HOST_RULES], idle_detach=idle)
    loop.run(hub.start(), timeout=30)
    yield hub
    loop.run(hub.close(), timeout=60)


@pytest.fixture(params=["headless", "headed"])
def display(request: pytest.FixtureRequest) -> Iterator[str]:
    """"" for a headless browser; else the Xvfb display a headed one shows on, the person's
    tab in front and the agent's tab hidden behind it (`ExtensionHub.connect_on`)."""
    if request.param == "headed":
        with xvfb() as name:
            yield name
    else:
        yield ""
