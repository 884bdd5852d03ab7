"""The goal agent's fixture tasks and the scripted model that plays them: shared by its
end-to-end tests and its benchmark. The model reads each request (the page in it, the refs
it offers) and answers by a small rule, as a real model would answer from the page."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from llm_server import Answer, openai_reply

Decide = Callable[[str, list[str]], dict[str, Any]]


def act(op: str, ref: str | None = None, value: str | None = None, *, reason: str = "next",
        evidence: str | None = None) -> dict[str, Any]:
    """One decision, as the schema has it."""
    return {"op": op, "ref": ref, "value": value, "reason": reason, "evidence": evidence}


def ref(page: str, role: str, name: str) -> str:
    found = re.search(rf'- {role} "{re.escape(name)}" (@\d+)', page)
    assert found, f"no {role} {name!r} in the page the model got:\n{page}"
    return found.group(1)


class Model:
    """Plays the model: each request's page goes to `decide` (with the ops it chose so far);
    the judge's request to `judge`. Every request is kept for the test to read."""

    def __init__(self, decide: Decide, judge: Callable[[str], bool] | None = None) -> None:
        self.decide = decide
        self.judge = judge or (lambda page: True)
        self.did: list[str] = []
        self.requests: list[dict[str, Any]] = []

    def __call__(self, body: Any, headers: dict[str, str]) -> Answer:
        self.requests.append(body)
        page = body["messages"][-1]["content"]
        if body["response_format"]["json_schema"]["name"] == "judgement":
            return openai_reply({"achieved": self.judge(page), "reason": "as the page shows"})
        answer = self.decide(page, self.did)
        self.did.append(answer["op"])
        return openai_reply(answer)


def login(page: str, did: list[str]) -> dict[str, Any]:
    if "Welcome back, ada" in page:
        return act("done", reason="signed in", evidence="Welcome back, ada; plan Analytical")
    steps = [act("fill", ref(page, "textbox", "Username"), "ada"),
             act("fill", ref(page, "textbox", "Password"), "lovelace"),
             act("click", ref(page, "button", "Sign in"))]
    return steps[len(did)]


def search(page: str, did: list[str]) -> dict[str, Any]:
    if "Price: 31 CHF" in page:
        return act("done", evidence="Gyokuro costs 31 CHF per 100 g")
    if '- link "Gyokuro"' in page:
        return act("click", ref(page, "link", "Gyokuro"))
    if did and did[-1] == "fill":
        return act("press", None, "Enter")
    return act("fill", ref(page, "searchbox", "Search teas"), "gyokuro")


def booking(page: str, did: list[str]) -> dict[str, Any]:
    if "Booked: From Zurich on 2026-12-04" in page:
        return act("done", evidence="Booked: From Zurich on 2026-12-04")
    if "Confirm booking" in page:
        return act("click", ref(page, "button", "Confirm booking"))
    if '- option "Zurich"' in page:
        return act("click", ref(page, "option", "Zurich"))
    if "fill" not in did:
        return act("fill", ref(page, "combobox", "From"), "Zu")
    if did.count("fill") == 1:
        return act("fill", ref(page, "textbox", "Date"), "2026-12-04")
    return act("click", ref(page, "button", "Next"))


def scrolling(page: str, did: list[str]) -> dict[str, Any]:
    if "The last release is 1.40" in page:
        return act("done", evidence="The last release is 1.40, from 3 November")
    return act("scroll", None, "down")


@dataclass(frozen=True)
class Task:
    name: str
    goal: str
    page: str
    decide: Decide
    done_when: str  # text on the final page that shows the goal is met


TASKS = (
    Task("log in", "sign in as ada (password lovelace) and tell me my plan",
         "agent-login.html", login, "Welcome back"),
    Task("search and pick", "find the price of gyokuro", "agent-search.html", search,
         "Price: 31 CHF"),
    Task("form with autocomplete and date", "book a train from Zurich on 4 December 2026",
         "agent-booking.html", booking, "Booked: From Zurich"),
    Task("scroll", "what is the last release?", "agent-long.html", scrolling,
         "The last release is 1.40"),
)


def model_for(task: Task) -> Model:
    return Model(task.decide, judge=lambda page: task.done_when in page)
