"""The interaction realism tasks: what each agent does on a page (found from the snapshot
text, never from the page's markup), and how the outcome is checked (the page's report to
the server, or the page's own values against the agent's answer)."""

from __future__ import annotations

import html
import random
import re
import string
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from agents import TEXTBOX, Agent
from snaptext import (
    Line,
    ref_in_card,
    ref_meaning,
    ref_named,
    ref_on_row,
    value_by_column,
    value_by_key,
)

Values = dict[str, str]
Goal = dict[str, Any]
Records = list[dict[str, Any]]


class NotFound(RuntimeError):
    """The agent could not find its target in the snapshot."""


@dataclass
class Task:
    name: str
    case: str
    page: str
    make: Callable[[random.Random, Values], tuple[Values, Goal]]  # (values, goal); shared
    solve: Callable[[Agent, str, Goal], str | None]  # the agent's answer, for reading tasks
    check: Callable[[Values, Goal, Records, str | None], bool]


def need(ref: str | None, what: str) -> str:
    if not ref:
        raise NotFound(f"no ref for {what}")
    return ref


def norm(text: str | None) -> str:
    return " ".join((text or "").split())


def recorded(want: dict[str, Any]) -> Callable[[Values, Goal, Records, str | None], bool]:
    """Checked by the page's report: an event with these fields (goal keys in {braces})."""
    def check(values: Values, goal: Goal, records: Records, answer: str | None) -> bool:
        wanted = {k: goal[v[1:-1]] if isinstance(v, str) and v.startswith("{") else v
                  for k, v in want.items()}
        return any(all(r.get(k) == v for k, v in wanted.items()) for r in records)
    return check


def answered(key: str) -> Callable[[Values, Goal, Records, str | None], bool]:
    """Checked by the page's own value: the answer is what the page holds, whole."""
    def check(values: Values, goal: Goal, records: Records, answer: str | None) -> bool:
        return bool(answer) and norm(answer) == norm(values[key])
    return check


# -- 1. scroll boxes ----------------------------------------------------------------------

def click_named(interactive: bool = True) -> Callable[[Agent, str, Goal], None]:
    def solve(a: Agent, url: str, goal: Goal) -> None:
        a.open(url, then=interactive)
        a.click(need(ref_named(a.snap(interactive), goal["name"]), goal["name"]))
    return solve


def _modal(a: Agent, url: str, goal: Goal) -> None:
    a.open(url, then=True)
    lines = a.snap(interactive=True)
    a.check(need(ref_named(lines, "I accept the terms"), "the terms checkbox"))
    a.click(need(ref_named(lines, "Continue", ("button",)), "Continue"))


def _pick(lo: int, hi: int, fmt: str, key: str) -> Callable[[random.Random, Values],
                                                           tuple[Values, Goal]]:
    def make(rng: random.Random, shared: Values) -> tuple[Values, Goal]:
        n = rng.randint(lo, hi)
        return {}, {"name": fmt.format(n), key: n}
    return make


CAROUSEL = ["Lamp", "Chair", "Desk", "Shelf", "Rug", "Clock", "Mirror", "Vase", "Stool", "Sofa"]


def _carousel(rng: random.Random, shared: Values) -> tuple[Values, Goal]:
    item = rng.choice(CAROUSEL[6:])
    return {}, {"name": f"Add {item} to basket", "item": item}


SCROLL = [
    Task("scroll-inbox-late-row", "scroll", "inbox.html", _pick(9, 12, "Open {}", "n"),
         click_named(), recorded({"open": "{n}"})),
    Task("scroll-inbox-middle-row", "scroll", "inbox.html", _pick(5, 8, "Open {}", "n"),
         click_named(), recorded({"open": "{n}"})),
    Task("scroll-nested-boxes", "scroll", "inbox.html", _pick(6, 10, "Unpin {}", "n"),
         click_named(), recorded({"unpin": "{n}"})),
    Task("scroll-horizontal-carousel", "scroll", "carousel.html", _carousel, click_named(),
         recorded({"add": "{item}"})),
    Task("scroll-modal-body", "scroll", "modal.html", lambda r, s: ({}, {}), _modal,
         recorded({"continued": True, "accepted": True})),
]


# -- 2. tables read by key ----------------------------------------------------------------

FIRST = ["Grace", "Alan", "Ada", "Edsger", "Barbara", "Donald", "Frances", "Ken", "Radia"]
LAST = ["Hopper", "Turing", "Lovelace", "Dijkstra", "Liskov", "Knuth", "Allen", "Thompson"]


def _settings(rng: random.Random, shared: Values) -> Values:
    members = rng.sample([f"{f} {la}" for f in FIRST for la in LAST], 5)
    rows = "".join(f"<tr><td>{m}</td><td>{rng.choice(['Owner', 'Editor', 'Viewer'])}</td>"
                   f'<td><button data-member="{m}">Edit</button></td></tr>' for m in members)
    return {"name": f"{rng.choice(FIRST)} {rng.choice(LAST)}",
            "gender": rng.choice(["Female", "Male", "Non-binary", "Not stated"]),
            "tz": rng.choice(["Europe/Lisbon", "Asia/Tokyo", "America/Chicago", "UTC"]),
            "lang": rng.choice(["Portuguese", "Japanese", "English", "Finnish"]),
            "since": f"{rng.randint(2009, 2025)}-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}",
            "plan": rng.choice(["Gold", "Silver", "Free", "Team"]),
            "members_html": rows, "members": "|".join(members)}


def _read_key(key: str, field: str) -> Callable[[random.Random, Values], tuple[Values, Goal]]:
    def make(rng: random.Random, shared: Values) -> tuple[Values, Goal]:
        return _settings(rng, shared), {"key": key, "field": field}
    return make


def solve_key(a: Agent, url: str, goal: Goal) -> str | None:
    a.open(url, then=False)
    return value_by_key(a.snap(), goal["key"])


def _edit_member(rng: random.Random, shared: Values) -> tuple[Values, Goal]:
    values = _settings(rng, shared)
    return values, {"member": rng.choice(values["members"].split("|"))}


def solve_edit(a: Agent, url: str, goal: Goal) -> None:
    a.open(url, then=False)
    a.click(need(ref_on_row(a.snap(), goal["member"], "edit"), "Edit on the member's row"))


FLIGHTS = ["TP 1351", "LH 1172", "FR 8443", "U2 7721", "IB 3103", "KL 1693"]
RULES = ["Change fee", "Refund", "Checked bag", "Seat choice", "Cabin bag"]


def _flights(rng: random.Random, shared: Values) -> tuple[Values, Goal]:
    flights = rng.sample(FLIGHTS, 5)
    prices = {f: f"€{rng.randint(49, 480)}" for f in flights}
    rows = "".join(f"<tr><td>{f}</td><td>{rng.randint(6, 21):02d}:{rng.choice(['05', '40'])}"
                   f"</td><td>{rng.choice(['direct', '1 stop'])}</td><td>{prices[f]}</td></tr>"
                   for f in flights)
    rules = {r: rng.choice(["€70", "€45", "not allowed", "free", "23 kg", "8 kg"])
             for r in RULES}
    grid = "".join(f'<div role="row"><span role="rowheader">{r}</span>'
                   f'<span role="gridcell">{html.escape(v)}</span></div>' for r, v in rules.items())
    flight, rule = rng.choice(flights), rng.choice(RULES)
    values = {"rows_html": rows, "grid_html": grid, "price": prices[flight], "rule": rules[rule]}
    return values, {"flight": flight, "column": "Price", "key": rule}


def solve_column(a: Agent, url: str, goal: Goal) -> str | None:
    a.open(url, then=False)
    return value_by_column(a.snap(), goal["flight"], goal["column"])


def check_field(values: Values, goal: Goal, records: Records, answer: str | None) -> bool:
    return norm(answer) == norm(values[goal["field"]])


TABLES = [
    Task("table-key-gender", "tables", "settings.html", _read_key("Gender", "gender"),
         solve_key, check_field),
    Task("table-key-time-zone", "tables", "settings.html", _read_key("Time zone", "tz"),
         solve_key, check_field),
    Task("table-key-member-since", "tables", "settings.html",
         _read_key("Member since", "since"), solve_key, check_field),
    Task("table-column-by-row", "tables", "flights.html", _flights, solve_column,
         answered("price")),
    Task("table-aria-grid-by-key", "tables", "flights.html", _flights, solve_key,
         answered("rule")),
    Task("table-control-on-row", "tables", "settings.html", _edit_member, solve_edit,
         recorded({"edit": "{member}"})),
]


# -- 3. icons picked by meaning -------------------------------------------------------------

ICONS = {  # meaning: (markup without its data-i, the words an agent looks for)
    "like": ('<span class="ico like"></span>', ("like", "heart", "favorite")),
    "delete": ('<div><svg><use href="#icon-trash"></use></svg></div>',
               ("delete", "trash", "remove", "bin")),
    "reply": ('<span><img src="/static/reply.svg" alt="Reply"></span>', ("reply", "respond")),
    "archive": ('<div data-action="archive"></div>', ("archive",)),
    "print": ('<div class="btn-x_9f3a1"></div>', ("print", "printer")),
    "pin": ('<span aria-description="Pin to top"></span>', ("pin",)),
    "bookmark": ('<i class="material-icons">bookmark_border</i>', ("bookmark", "save")),
}


def _icons(meaning: str) -> Callable[[random.Random, Values], tuple[Values, Goal]]:
    def make(rng: random.Random, shared: Values) -> tuple[Values, Goal]:
        order = rng.sample(list(ICONS), len(ICONS))
        marks = "".join(re.sub(r"^<(\w+)", rf'<\1 data-i="{i}"', ICONS[m][0])
                        for i, m in enumerate(order))
        return {"icons_html": marks}, {"words": ICONS[meaning][1],
                                       "i": str(order.index(meaning))}
    return make


def solve_icon(a: Agent, url: str, goal: Goal) -> None:
    a.open(url, then=True)
    a.click(need(ref_meaning(a.snap(interactive=True), *goal["words"]), goal["words"][0]))


ICON_TASKS = [Task(f"icon-{m}", "icons", "icons.html", _icons(m), solve_icon,
                   recorded({"icon": "{i}"})) for m in ICONS]


# -- 4. a control picked by its card ---------------------------------------------------------

def _feed(title: str, cards: Callable[[random.Random], list[tuple[str, str]]],
          action: str, wrap: str = "div", style: str = ""
          ) -> Callable[[random.Random, Values], tuple[Values, Goal]]:
    def make(rng: random.Random, shared: Values) -> tuple[Values, Goal]:
        made = cards(rng)
        rng.shuffle(made)
        card, _ = rng.choice(made)
        markup = (f"<style>{style}</style>" if style else "") + \
            f"<{wrap}>{''.join(m for _, m in made)}</{wrap}>"
        return {"title": title, "cards_html": markup}, {"card": card, "action": action}
    return make


def _posts(rng: random.Random) -> list[tuple[str, str]]:
    texts = ["shipped the new parser.", "wrote a note about compilers.",
             "asks who has the projector.", "posted the minutes."]
    return [(a, f'<article class="card" data-card="{a}"><p><b>{a}</b> {rng.choice(texts)}</p>'
                f"<button>Reply</button><button>Like</button><button>Share</button></article>")
            for a in rng.sample(FIRST, 3)]


def _mails(rng: random.Random) -> list[tuple[str, str]]:
    subjects = ["Lunch on Friday?", "Quarterly numbers", "Your parcel", "Re: the draft"]
    return [(s, f'<li data-card="{s}">From {s}: {rng.choice(subjects)} '
                f"<button>Archive</button><button>Reply</button></li>")
            for s in rng.sample(["Bob", "Carol", "Dave", "Erin"], 3)]


def _flight_cards(rng: random.Random) -> list[tuple[str, str]]:
    return [(f, f'<div class="card" data-card="{f}"><p>{f} · {rng.randint(6, 21)}:40 · '
                f"€{rng.randint(49, 480)}</p><button>Select</button></div>")
            for f in rng.sample(FLIGHTS, 4)]


def _products(rng: random.Random) -> list[tuple[str, str]]:
    names = ["Blue kettle", "Red toaster", "Steel pan", "Oak board"]
    return [(n, f'<div class="card" data-card="{n}"><h3>{n}</h3><p>€{rng.randint(9, 99)}</p>'
                f"<button>Add to cart</button></div>") for n in names]


def solve_card(a: Agent, url: str, goal: Goal) -> None:
    a.open(url, then=a.card_interactive)
    lines = a.card_snapshot()
    a.click(need(ref_in_card(lines, goal["card"], goal["action"]),
                 f"{goal['action']} in the card of {goal['card']}"))


def _mail_list(rng: random.Random) -> list[tuple[str, str]]:
    return _mails(rng)


def _hover_mails(rng: random.Random) -> list[tuple[str, str]]:
    subjects = ["Lunch on Friday?", "Quarterly numbers", "Your parcel", "Re: the draft"]
    return [(s, f'<li data-card="{s}">From {s}: {rng.choice(subjects)} <span class="acts">'
                f"<button>Archive</button><button>Delete</button></span></li>")
            for s in rng.sample(["Bob", "Carol", "Dave", "Erin"], 3)]


# a mail's actions show only while the pointer is over its row (as web mail does)
ON_HOVER = "li .acts { visibility: hidden; } li:hover .acts { visibility: visible; }"


CARDS = [
    Task("card-reply-to-author", "cards", "feed.html", _feed("Team feed", _posts, "Reply"),
         solve_card, recorded({"action": "Reply", "card": "{card}"})),
    Task("card-like-author", "cards", "feed.html", _feed("Team feed", _posts, "Like"),
         solve_card, recorded({"action": "Like", "card": "{card}"})),
    Task("card-archive-sender", "cards", "feed.html", _feed("Inbox", _mails, "Archive", "ul"),
         solve_card, recorded({"action": "Archive", "card": "{card}"})),
    Task("card-select-flight", "cards", "feed.html", _feed("Flights", _flight_cards, "Select"),
         solve_card, recorded({"action": "Select", "card": "{card}"})),
    Task("card-add-product", "cards", "feed.html", _feed("Kitchen", _products, "Add to cart"),
         solve_card, recorded({"action": "Add to cart", "card": "{card}"})),
    Task("card-delete-on-hover", "cards", "feed.html",
         _feed("Inbox", _hover_mails, "Delete", "ul", ON_HOVER),
         solve_card, recorded({"action": "Delete", "card": "{card}"})),
]


# -- 6. a long value read whole ---------------------------------------------------------------

WORDS = [
    "alpha", "bravo", "delta", "echo", "foxtrot", "kilo", "lima", "oscar", "quebec", "romeo",
    "sierra", "tango", "victor", "yankee", "zulu", "amber", "basalt", "cobalt", "dune",
    "ember", "fjord", "granite", "harbor",
]


def _prose(rng: random.Random, chars: int, lines: bool = False) -> str:
    out: list[str] = []
    while sum(len(w) + 1 for w in out) < chars:
        out.append(rng.choice(WORDS) + (".\n" if lines and rng.random() < .12 else ""))
    return " ".join(out).replace("\n ", "\n") + " END."


def _long(label: str) -> Callable[[random.Random, Values], tuple[Values, Goal]]:
    def make(rng: random.Random, shared: Values) -> tuple[Values, Goal]:
        return ({"notes": _prose(rng, 1400), "draft": _prose(rng, 900),
                 "key": "".join(rng.choices(string.ascii_letters + string.digits, k=420)),
                 "log": _prose(rng, 2000, lines=True)}, {"label": label})
    return make


def solve_long(a: Agent, url: str, goal: Goal) -> str | None:
    a.open(url, then=False)
    named = [ln for ln in a.snap() if ln.ref and ln.name == goal["label"]]
    line = next((ln for ln in named if ln.role in TEXTBOX), named[0] if named else None)
    if line is None:
        raise NotFound(f"no ref for {goal['label']}")
    return a.read(line)


LONG = [
    Task("long-textarea-value", "long", "longtext.html", _long("Notes"), solve_long,
         answered("notes")),
    Task("long-input-value", "long", "longtext.html", _long("API key"), solve_long,
         answered("key")),
    Task("long-rich-text-box", "long", "longtext.html", _long("Reply draft"), solve_long,
         answered("draft")),
    Task("long-multiline-output", "long", "longtext.html", _long("Build output"), solve_long,
         answered("log")),
]


# -- 7. a list sorted by dragging --------------------------------------------------------------

GROCERIES = ["Bread", "Milk", "Eggs", "Tea", "Rice", "Soap"]
CHORES = ["Fix login bug", "Write release notes", "Review parser", "Update docs", "Triage"]


def _sorting(names: list[str], up: bool, markup: Callable[[str], str], key: str
             ) -> Callable[[random.Random, Values], tuple[Values, Goal]]:
    def make(rng: random.Random, shared: Values) -> tuple[Values, Goal]:
        order = rng.sample(names, len(names))
        i, j = sorted(rng.sample(range(len(order)), 2))
        moved, target = (order[j], order[i]) if up else (order[i], order[j])
        want = [n for n in order if n != moved]
        at = want.index(target)
        want.insert(at if up else at + 1, moved)
        return {key: "".join(markup(n) for n in order)}, {"moved": moved, "target": target,
                                                           "order": want}
    return make


def _item(name: str) -> str:
    return f'<li draggable="true" data-item="{name}">{name}</li>'


def _task_row(name: str) -> str:
    return f'<div class="task" data-item="{name}"><span class="handle"></span>' \
           f"<span>{name}</span></div>"


def drag_ref(lines: list[Line], name: str) -> str | None:
    """The ref that takes hold of the item: its own line, else a handle in its row."""
    return ref_named(lines, name) or ref_in_card(lines, name, "handle", "drag", "grip", "move")


def solve_drag(a: Agent, url: str, goal: Goal) -> None:
    a.open(url, then=False)
    lines = a.snap()
    a.drag(need(drag_ref(lines, goal["moved"]), goal["moved"]),
           need(drag_ref(lines, goal["target"]), goal["target"]))


def check_order(values: Values, goal: Goal, records: Records, answer: str | None) -> bool:
    return bool(records) and records[-1].get("order") == goal["order"]


SORT = [
    Task("drag-item-above", "drag", "sort.html", _sorting(GROCERIES, True, _item, "items_html"),
         solve_drag, check_order),
    Task("drag-item-below", "drag", "sort.html", _sorting(GROCERIES, False, _item, "items_html"),
         solve_drag, check_order),
    Task("drag-handle-above", "drag", "sortable.html",
         _sorting(CHORES, True, _task_row, "tasks_html"), solve_drag, check_order),
    Task("drag-handle-below", "drag", "sortable.html",
         _sorting(CHORES, False, _task_row, "tasks_html"), solve_drag, check_order),
]


# -- 5. log in, then read --------------------------------------------------------------------

def _login(read: str) -> Callable[[random.Random, Values], tuple[Values, Goal]]:
    def make(rng: random.Random, shared: Values) -> tuple[Values, Goal]:
        pw = shared["password"]  # one password for the whole run, as a person keeps theirs
        return ({"user": f"{rng.choice(FIRST).lower()}.{rng.randint(10, 99)}", "pw": pw,
                 "code": f"{rng.choice(['QX', 'TR', 'ZB'])}-{rng.randint(1000, 9999)}",
                 "balance": f"€{rng.randint(100, 9999)}.{rng.randint(10, 99)}",
                 "sentence": f"The {pw} is asleep under the {rng.choice(WORDS)} tree."},
                {"read": read})
    return make


def solve_login(a: Agent, url: str, goal: Goal) -> str | None:
    a.open(url, then=False)
    lines = a.snap()
    said = next((ln.name or ln.raw for ln in lines if ln.mentions("password is")), "")
    m = re.search(r"user name is (\S+) and your one-time password is (\w+)", said)
    if not m:
        raise NotFound(f"the page's instructions: {said[:80]!r}")
    said = a.fill_and_submit([(need(ref_named(lines, "User name"), "User name"), m.group(1)),
                              (need(ref_named(lines, "Password"), "Password"), m.group(2))],
                             need(ref_named(lines, "Log in", ("button",)), "Log in"),
                             then=False)
    a.after_submit()
    after = a.snap()
    for line in after:
        words = line.name or line.raw
        if words.startswith(goal["read"] + ":"):
            return words.split(":", 1)[1].strip()
    page = " / ".join(ln.raw for ln in after[:6])
    raise NotFound(f"no line saying {goal['read']}: after logging in; the click said "
                   f"{said[-120:]!r}; the snapshot: {page[:160]}")


def check_login(field: str) -> Callable[[Values, Goal, Records, str | None], bool]:
    def check(values: Values, goal: Goal, records: Records, answer: str | None) -> bool:
        return {"login": True} in records and norm(answer) == norm(values[field])
    return check


LOGIN = [
    Task("login-read-code", "login", "login.html", _login("Account code"), solve_login,
         check_login("code")),
    Task("login-read-balance", "login", "login.html", _login("Balance"), solve_login,
         check_login("balance")),
    Task("login-read-sentence-with-password-word", "login", "login.html",
         _login("Today's riddle"), solve_login, check_login("sentence")),
    Task("login-again-same-password", "login", "login.html", _login("Account code"),
         solve_login, check_login("code")),
]

TASKS = [*SCROLL, *TABLES, *ICON_TASKS, *CARDS, *LONG, *SORT, *LOGIN]
