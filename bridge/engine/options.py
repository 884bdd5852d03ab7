"""Which line of a snapshot offers the choice an agent names, and what to say when none does:
pure matching of options' names, apart from the clicks that open their lists (forms.py)."""

from __future__ import annotations

import re
from typing import Any

from .snapshot import Line, quote

# the roles the choices of a list of a page's own making (not a <select>) take
OPTION_ROLES = ("option", "menuitem", "menuitemradio", "menuitemcheckbox", "treeitem")


def alike(name: str, want: str) -> bool:
    """Whether a name is the words wanted, whatever their case and spacing."""
    return " ".join(name.split()).casefold() == want.casefold()


# an option's name that says its state before or after its words, as a screen reader
# would read both (UI5's "Not Selected, Python")
STATED = re.compile(r"^(?:not )?(?:selected|checked|chosen), (.+)$|^(.+), (?:not )?"
                    r"(?:selected|checked|chosen)$", re.I)


def offers(ln: Line, want: str) -> bool:
    """Whether the line offers `want`: named so, or an option named so with its state."""
    if alike(ln.name, want):
        return True
    stated = STATED.match(" ".join(ln.name.split())) if ln.role in OPTION_ROLES else None
    return stated is not None and alike(stated[1] or stated[2], want)


def offering(lines: list[Line], want: str, known: set[int], tied: set[int]) -> Line | None:
    """The line that offers `want`: an option (menu item, tree item) of that name that came
    since `known`, or one of the control's own list that showed before (`tied`); else a line
    with that name, come since or of that list (a list whose choices carry no role: Ant
    Design's, which stays open for a second choice). What another list showed before is
    never it: two widgets may offer the same words."""
    named = [ln for ln in lines if ln.ref and (ln.ref not in known or ln.ref in tied) and
             offers(ln, want)]
    named.sort(key=lambda ln: ln.ref in known)
    options = [ln for ln in named if ln.role in OPTION_ROLES]
    if not named:  # the one option that says more after the words (a "Germany (+49)", a
        # label's description: "bug Something isn't working")
        more = re.compile(re.escape(want) + r"(?:\s*[(\[,·|:+\-\u2013\u2014]|\s)", re.I)
        options = [ln for ln in lines if ln.ref and (ln.ref not in known or ln.ref in tied) and
                   ln.role in OPTION_ROLES and more.match(" ".join(ln.name.split()))]
        return options[0] if len(options) == 1 else None
    return options[0] if options else named[0] if named else None


def takes_words(info: dict[str, Any]) -> bool:
    """Whether a combobox, or a field completing from a list (ARIA 1.1's), takes words."""
    tag = str(info.get("tag") or "")
    states = info.get("states") or []
    return (info.get("role") == "combobox" or info.get("completes") is True) and \
        tag in ("input", "textarea") and "readonly" not in states and "disabled" not in states


def shown_instead(want: str, shown: list[Line], none: str = "") -> str:
    """What an error says the page shows instead of `want`: its options' names; and where
    one of them is `want` in a list not the control's (another widget's, or one open before
    the control was pressed), which one, for the agent to click."""
    if not shown:
        return none
    names = ", ".join(quote(ln.name) for ln in shown[:30])
    other = next((ln for ln in shown if offers(ln, want)), None)
    if other is None:
        return f"; it shows {names}"
    return (f"; it shows {names}, but {quote(want)} (@{other.ref}) is in a list that is not "
            f"this control's (another's, or one open before it was pressed): to choose it, "
            f"click @{other.ref}")
