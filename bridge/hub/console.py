"""The hub's own console as a channel to the person: each question and its one-time code,
written to the terminal `tabsteward serve` runs in, and nowhere else (not to the log)."""

from __future__ import annotations

import logging
import os
import time
from typing import TextIO

from ..records import peer
from ..shown import shown
from .approvals import Answer, Question

log = logging.getLogger("tabsteward.hub")

WHAT = {"ask": "wants to", "blocked": "was blocked from"}


class Console:
    """Shows questions on a terminal; on anything but a terminal it shows no code."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.is_terminal = _is_tty(stream)
        self._warned = False

    def __call__(self, event: str, q: Question, answer: Answer | None) -> None:
        if not self.is_terminal:
            if event == "asked" and not self._warned:
                self._warned = True
                log.warning("%s waits for the person, but this hub has no terminal to show "
                            "its code on: answer in the tray app, or run `tabsteward serve` "
                            "in a terminal", q.id)
            return
        if event == "asked":
            self._write(question_text(q))
        elif answer is not None:
            self._write(f"[tabsteward] {q.id} closed: {shown(answer.by)}\n")

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError) as exc:
            log.warning("could not write to the console: %s", exc)


def _is_tty(stream: TextIO) -> bool:
    try:
        return os.isatty(stream.fileno())
    except (OSError, ValueError, AttributeError):
        return False


def question_text(q: Question) -> str:
    """A question as the console shows it: what is asked (every string from an agent, a page
    or a process made inert), what the hub verified, and one code per answer."""
    risk = f" ({', '.join(q.categories)})" if q.categories else ""
    left = max(0, round(q.expires - time.time()))
    pad = " " * 13
    if q.kind == "pair":
        head = (f"{q.id}: a process asks to pair with the hub to {shown(q.summary)}; "
                f"it says it is '{shown(q.agent)}'\n{pad}verified: {peer.describe(q.process)}")
    elif q.kind == "person":
        head = (f"{q.id}: {shown(q.agent)} asks to {shown(q.summary)}\n"
                f"{pad}verified: {peer.describe(q.process)}")
    else:
        head = f"{q.id}: agent '{shown(q.agent)}' {WHAT[q.kind]} {shown(q.summary)}{risk}"
    rows = [("approve", f"tabsteward approve {q.id}", q.codes["approve"])]
    if q.kind not in ("pair", "person"):
        rows.append(("approve always", f"tabsteward approve {q.id} --always",
                     q.codes["always"]))
    rows.append(("deny", f"tabsteward deny {q.id}", q.codes["deny"]))
    width = max(len(cmd) for _, cmd, _ in rows)
    lines = [f"{pad}{label + ':':<16}{cmd:<{width}}  code {code}" for label, cmd, code in rows]
    return (f"\n[tabsteward] {head}\n" + "\n".join(lines) + "\n"
            f"{pad}(open for {left} s; type the code when the command asks for it; each code "
            "answers only its own line, and is shown only here)\n")
