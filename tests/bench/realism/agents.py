"""The agents that solve the tasks: one per tool, each driving its tool's command line one
process per command (as a coding agent does) and reading that tool's own snapshot format."""

from __future__ import annotations

import re
import shlex
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from snaptext import Line, parse

TEXTBOX = ("textbox", "searchbox", "combobox")


class StepFailed(RuntimeError):
    """A command the agent ran exited with an error."""


@dataclass
class Agent:
    """One tool on one transport: its command line and the environment it runs in."""

    label: str  # "tabsteward/launched", "tabsteward/extension", "agent-browser"
    argv0: str
    env: dict[str, str]
    cwd: str
    calls: list[tuple[str, float]] = field(default_factory=list)  # (command, ms)
    said: str = ""  # what its last command printed (a failed check's report shows it)
    # whether the person's tab is still the active one (the extension transport only)
    person_in_front: Callable[[], bool] | None = None
    debugger: Any = None  # its debugger_share.DebuggerPoll (the extension transport only)

    @property
    def tool(self) -> str:
        return self.label.split("/")[0]

    def run(self, *args: str, timeout: float = 60.0) -> str:
        t0 = time.perf_counter()
        r = subprocess.run([self.argv0, *args], capture_output=True, text=True, env=self.env,
                           cwd=self.cwd, timeout=timeout)
        self.calls.append((args[0], (time.perf_counter() - t0) * 1000))
        self.said = f"{' '.join(args)[:80]}: {(r.stdout or r.stderr).strip()}"
        if r.returncode != 0:
            raise StepFailed(f"{args[0]} {' '.join(args[1:])[:60]}: exit {r.returncode}: "
                             f"{(r.stderr or r.stdout).strip()[:240]}")
        return r.stdout

    # -- what every agent does, in its tool's words --------------------------------------

    def open(self, url: str, then: bool | None = None) -> None:
        """Open url; `then` says which snapshot the agent takes next (True: `-i`, False: the
        full one), for a tool that can give it with the open."""
        self.run("open", url)

    def snap(self, interactive: bool = False) -> list[Line]:
        return parse(self.run("snapshot", *(["-i"] if interactive else [])), self.tool)

    def click(self, ref: str, then: bool | None = None) -> str:
        """What the tool said the click did; `then` says which snapshot the agent takes next
        (True: `-i`, False: the full one), for a tool that can give it with the click."""
        return self.run("click", ref).strip()

    def check(self, ref: str) -> None:
        self.run("check", ref)

    def fill(self, ref: str, text: str) -> None:
        self.run("fill", ref, text)

    def drag(self, source: str, target: str) -> None:
        self.run("drag", source, target)

    def fill_and_submit(self, fields: list[tuple[str, str]], submit: str,
                        then: bool | None = None) -> str:
        """Fill a form's fields and click its submit: what the tool said the click did.
        Both tools' guides run the steps in one process (`batch`), stopping at a failure."""
        steps = [f"fill {ref} {shlex.quote(text)}" for ref, text in fields]
        return self.run("batch", *steps, f"click {submit}").strip()

    def after_submit(self) -> None:
        """What the tool's guide says to do after a click that loads a new page."""

    def read(self, line: Line) -> str:
        raise NotImplementedError

    card_interactive: ClassVar[bool] = False  # which snapshot card_snapshot takes

    def card_snapshot(self) -> list[Line]:
        """The snapshot this tool's agent picks a card's control from."""
        return self.snap(self.card_interactive)


@dataclass
class TabstewardAgent(Agent):
    # SKILL.md: `open URL -i` (or --snapshot) when the agent acts on the page at once;
    # False plays the agent before that option (open, then snapshot: two commands)
    open_and_look: bool = True
    _kept: tuple[bool, list[Line]] | None = None  # open's snapshot, for the next snap

    def open(self, url: str, then: bool | None = None) -> None:
        self._kept = None
        if then is None or not self.open_and_look:
            self.run("open", url)
            return
        out = self.run("open", url, "-i" if then else "--snapshot")
        at = out.find("\n[untrusted page data")
        if at >= 0:  # else no snapshot came (a dialog): snap takes one
            self._kept = (then, parse(out[at + 1:], self.tool))

    def click(self, ref: str, then: bool | None = None) -> str:
        # SKILL.md: `click @N -i` (or --snapshot) when the agent looks right after the click
        if then is None or not self.open_and_look:
            return super().click(ref)
        out = self.run("click", ref, "-i" if then else "--snapshot")
        at = out.find("\n[untrusted page data")
        if at >= 0:  # else no snapshot came (a dialog): snap takes one
            self._kept = (then, parse(out[at + 1:], self.tool))
            return out[:at].strip()
        return out.strip()

    def fill_and_submit(self, fields: list[tuple[str, str]], submit: str,
                        then: bool | None = None) -> str:
        if not self.open_and_look:
            for ref, text in fields:
                self.fill(ref, text)
            return self.click(submit, then)
        steps = [f"fill {ref} {shlex.quote(text)}" for ref, text in fields]
        click = f"click {submit}" + ("" if then is None else " -i" if then else " --snapshot")
        out = self.run("batch", *steps, click)
        out = out[out.find(f"[{len(steps) + 1}/{len(steps) + 1}] click"):].partition("\n")[2]
        at = out.find("\n[untrusted page data")
        if at >= 0 and then is not None:
            self._kept = (then, parse(out[at + 1:], self.tool))
            return out[:at].strip()
        return out.strip()

    def run(self, *args: str, timeout: float = 60.0) -> str:
        self._kept = None  # any other command may change the page
        return super().run(*args, timeout=timeout)

    def snap(self, interactive: bool = False) -> list[Line]:
        kept, self._kept = self._kept, None
        if kept is not None and kept[0] == interactive:
            return kept[1]
        return super().snap(interactive)

    def read(self, line: Line) -> str:
        # SKILL.md: a line ending in [+N chars] was cut; `text @N` gives all of it
        if re.search(r"\[\+[\d,]+ chars\]", line.raw) or not line.ref:
            return _page_words(self.run("text", line.ref)) if line.ref else ""
        m = re.search(r'value="((?:[^"\\]|\\.)*)"', line.raw)
        return (m.group(1) if m else line.name).replace('\\"', '"')

    card_interactive: ClassVar[bool] = True  # -i keeps the cards that hold refs


def _page_words(out: str) -> str:
    """`text @N`'s output without the lines that say whose data it is."""
    lines = out.rstrip("\n").split("\n")
    if lines and lines[0].startswith("[untrusted page data"):
        lines = lines[1:]
        while lines and lines[0].startswith(("page: ", "url: ")):
            lines = lines[1:]
    return "\n".join(lines)


class AgentBrowserAgent(Agent):
    def read(self, line: Line) -> str:
        # its guide: `get value` for a field, `get text` for the rest
        if line.role in TEXTBOX:
            value = self.run("get", "value", line.ref).rstrip("\n")
            if value:
                return value
        return self.run("get", "text", line.ref).rstrip("\n")

    def after_submit(self) -> None:
        self.run("wait", "--load", "load")
