"""Why chrome.debugger let go of an agent's tab, and what the agent is told: what happened,
that nothing was done, and what would let it go on."""

from __future__ import annotations

# reason (chrome.debugger.onDetach) -> (what happened, what lets the agent go on)
WHY = {
    "canceled_by_user": (
        "the person cancelled Chrome's \"is debugging this browser\" bar",
        "Ask the person before going on: the next command attaches the debugger again and "
        "the bar comes back (snapshot, text and wait read without it)"),
    "stopped_by_user": (
        "the person switched on \"stop all agents\" in the Tabsteward popup",
        "Agents go on once the person switches it off in the popup"),
    "replaced_with_devtools": (
        "the person opened DevTools on it",
        "Once the person closes DevTools on that tab, the next command attaches again"),
}


def cause(reason: str) -> str:
    """What happened to the tab's debugger, as one clause."""
    why = WHY.get(reason, (f"the debugger was detached ({reason})", ""))[0]
    return f"{why}, so Tabsteward let go of the tab"


def refusal(reason: str, method: str) -> str:
    """The error of the first command after the person took the tab's debugger back."""
    advice = WHY.get(reason, ("", "The next command attaches the debugger again"))[1]
    return (f"{cause(reason)}; nothing was done ({method} was not sent). The tab is still "
            f"the agent's. {advice}")
