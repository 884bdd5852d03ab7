"""chrome.downloads events as the CDP Browser.download* events the engine reads."""

from __future__ import annotations

from typing import Any


def download_event(name: str, item: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The CDP event for one `downloads.created` or `downloads.changed` of the extension."""
    guid = str(item.get("id"))
    if name == "downloads.created":
        path = str(item.get("filename") or "")
        return "Browser.downloadWillBegin", {
            "guid": guid, "url": item.get("finalUrl") or item.get("url"),
            "suggestedFilename": path.rsplit("/", 1)[-1], "path": path or None}
    params: dict[str, Any] = {"guid": guid}
    filename = item.get("filename")
    if isinstance(filename, dict) and isinstance(filename.get("current"), str):
        params["path"] = filename["current"]
    state = item.get("state")
    if isinstance(state, dict):
        params["state"] = {"complete": "completed", "interrupted": "canceled"}.get(
            str(state.get("current")), "inProgress")
    return "Browser.downloadProgress", params
