"""Pure parsing of what an action names: `@12`, `loc=button "Save" nth=1`, `loc=text "Alice"`
(`text=Alice`), `loc=#id`, or CSS (a locator or CSS may end `in "WORDS"`: the one whose card
says WORDS)."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import UsageError


@dataclass(frozen=True)
class RefTarget:
    ref: int


@dataclass(frozen=True)
class RoleTarget:
    """A role and name; the nth of them, or with `within` the one whose card says it."""

    role: str
    name: str
    nth: int = 0
    within: str | None = None


@dataclass(frozen=True)
class CssTarget:
    """A CSS selector; with `within`, the match nearest to that text (its card's words)."""

    selector: str
    within: str | None = None


@dataclass(frozen=True)
class TextTarget:
    """The element that shows these words (a line with no ref); with `nth`, the nth of
    several (else several are refused), with `within`, the one whose card says it."""

    words: str
    nth: int | None = None
    within: str | None = None


Target = RefTarget | RoleTarget | CssTarget | TextTarget


def _unquote(s: str) -> tuple[str, str]:
    """Read a double-quoted string at the start of s; return (value, rest)."""
    if not s.startswith('"'):
        raise UsageError(f"expected a quoted name in {s!r}")
    out: list[str] = []
    i = 1
    while i < len(s):
        c = s[i]
        if c == "\\" and i + 1 < len(s):
            out.append(s[i + 1])
            i += 2
            continue
        if c == '"':
            return "".join(out), s[i + 1:]
        out.append(c)
        i += 1
    raise UsageError(f"unterminated quoted name in {s!r}")


def parse(target: str) -> Target:
    """Parse a target string; refuse empty or malformed ones with the accepted forms."""
    t = target.strip()
    if not t:
        raise UsageError("empty target: give @N from a snapshot, loc=..., or a CSS selector")
    if len(t) > 2000:
        raise UsageError("target is over 2000 characters; nothing was done")
    if t.startswith("@"):
        body = t[1:].removeprefix("e")
        if not body.isdigit() or int(body) <= 0:
            raise UsageError(f"{target!r} is not a ref: refs look like @12")
        return RefTarget(int(body))
    if t.startswith("loc="):
        return parse_locator(t[4:])
    if t.startswith("css="):
        return CssTarget(t[4:])
    if t.startswith("text="):  # Playwright's form: text=Alice, text="Alice"
        words = t[5:].strip()
        if words.startswith('"'):
            return parse_locator(f"text {words}")
        if not words:
            raise UsageError("empty text=; give the words an element shows: text=\"Sign in\"")
        return TextTarget(words)
    return CssTarget(t)


def parse_locator(loc: str) -> Target:
    loc = loc.strip()
    head, _, rest = loc.partition(" ")
    if rest.lstrip().startswith('"') and head.replace("-", "").isalpha() and head.islower():
        name, tail = _unquote(rest.lstrip())
        tail = tail.strip()
        if tail.startswith('in "'):
            within, after = _unquote(tail[3:])
            if within.strip() and not after.strip():
                return TextTarget(name, None, within) if head == "text" else \
                    RoleTarget(head, name, 0, within)
        if tail and (not tail.startswith("nth=") or not tail[4:].isdigit()):
            raise UsageError(f"unexpected {tail!r} after the name in loc={loc}; "
                             'the form is loc=ROLE "NAME" [nth=N] or loc=ROLE "NAME" in "WORDS"')
        if head == "text":
            if not name.strip():
                raise UsageError('empty loc=text ""; give the words an element shows')
            return TextTarget(name, int(tail[4:]) if tail else None)
        return RoleTarget(head, name, int(tail[4:]) if tail else 0)
    if not loc:
        raise UsageError("empty loc=; the forms are loc=ROLE \"NAME\" [nth=N] or loc=CSS")
    return _css_in(loc)


def _css_in(loc: str) -> CssTarget:
    """`CSS in "TEXT"`: the CSS match whose card says TEXT (a quoted string cannot end a
    selector, so the form is never a selector of its own); else plain CSS."""
    at = loc.find(' in "')
    while at > 0:
        try:
            text, tail = _unquote(loc[at + 4:])
        except UsageError:
            text, tail = "", "x"
        if not tail.strip() and text.strip():
            return CssTarget(loc[:at].strip(), text)
        at = loc.find(' in "', at + 1)
    return CssTarget(loc)


def card_of(loc: str | None) -> str | None:
    """The words of the card a snapshot's locator places its element in (`button "Edit"
    in "Ada"`: "Ada"), if it names one."""
    if not loc or ' in "' not in loc:
        return None
    try:
        located = parse("loc=" + loc)
    except UsageError:
        return None
    within = getattr(located, "within", None)
    return within if isinstance(within, str) and within else None
