"""The data requests (fetch, XMLHttpRequest) a tab's page has in flight, as its events tell."""

from __future__ import annotations

from typing import Any

from ..cdp.connection import DATA_ANSWERED, DATA_BEGUN

AWAITED = ("XHR", "Fetch")  # the data a page's script loads to draw what it shows
ANSWERED = ("Network.loadingFinished", "Network.loadingFailed")
HEADERS = "Network.responseReceived"
KEPT = 500  # requests remembered at most (a page that never answers holds no more)


def begun(method: str, params: dict[str, Any]) -> str:
    """The id of the data request this event says began ('' for any other event)."""
    if method == DATA_BEGUN or (method == "Network.requestWillBeSent" and
                                params.get("type") in AWAITED):
        return str(params.get("requestId"))
    return ""


def answered(method: str, params: dict[str, Any]) -> str:
    """The id of the request this event says has its answer ('' for any other event)."""
    return str(params.get("requestId")) if method in ANSWERED or method == DATA_ANSWERED \
        else ""


class Fetching:
    """The data requests begun and not answered, whether or not an action records the tab's
    events (the Network domain stays on a while after an action; through the extension its
    worker tells them), and whether their answer's headers came; forgotten when the page's
    document changes."""

    def __init__(self) -> None:
        self.requests: dict[str, bool] = {}  # request id -> its answer's headers came

    def hear(self, method: str, params: dict[str, Any]) -> None:
        if rid := begun(method, params):
            if len(self.requests) >= KEPT:
                del self.requests[next(iter(self.requests))]
            self.requests[rid] = False
        elif rid := answered(method, params):
            self.requests.pop(rid, None)
        elif method == HEADERS and (rid := str(params.get("requestId"))) in self.requests:
            self.requests[rid] = True

    def forget(self) -> None:
        self.requests.clear()

    def headed(self) -> set[str]:
        return {rid for rid, came in self.requests.items() if came}
