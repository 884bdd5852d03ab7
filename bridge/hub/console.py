"""The hub's own console as a channel to the person: each question and its one-time code,
written to the terminal `tabsteward serve` runs in, and nowhere else (not to the log)."""

from __future__ import annotations

import logging
import os
import time
from typing import TextIO

from .approvals import Answer, Question

log = logging.getLogger("tabsteward.hub")

WHAT = {"ask": "wants to", "blocked": "was blocked from", "pair": "asks to pair:"}


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
            self._write(self._question(q))
        elif answer is not None:
            self._write(f"[tabsteward] {q.id} closed: {answer.by}\n")

    def _question(self, q: Question) -> str:
        risk = f" ({', '.join(q.categories)})" if q.categories else ""
        left = max(0, round(q.expires - time.time()))
        deny = f"tabsteward deny {q.id} --code {q.code}"
        if q.kind == "pair":
            approve = f"tabsteward approve {q.id} --code {q.code}"
        else:
            approve = f"tabsteward approve {q.id} --code {q.code} [--always]"
        return (f"\n[tabsteward] {q.id}: agent {q.agent!r} {WHAT[q.kind]} {q.summary}{risk}\n"
                f"             approve: {approve}\n"
                f"             deny:    {deny}\n"
                f"             (open for {left} s; the code is shown only here)\n")

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
