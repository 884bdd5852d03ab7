"""Questions for the person: actions that wait for approval, blocked actions on offer,
agents that want to pair, and the person's own terminal commands. Each has one one-time
code per answer (approve, approve always, deny) that only the person's channels show."""

from __future__ import annotations

import asyncio
import hmac
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from ..errors import AuthError, UsageError
from ..records import context
from ..records.redact import REDACTOR

log = logging.getLogger("tabsteward.hub")

Kind = Literal["ask", "blocked", "pair", "person"]
Verb = Literal["approve", "always", "deny"]
VERBS: tuple[Verb, ...] = ("approve", "always", "deny")
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I
CODE_LENGTH = 8  # 40 bits; MAX_WRONG guesses, then code answers wait LOCK_SECONDS
MAX_WRONG = 3
LOCK_SECONDS = 60.0  # after MAX_WRONG wrong codes: no code answers this long (the tray works)
OFFER_SECONDS = 600.0  # how long a blocked action stays on offer to the person
MAX_OPEN = 200  # questions open at once; more are refused, not queued
# pairing requests, and the person's terminal commands, open at once (so those who hold
# no token never fill MAX_OPEN) ...
MAX_PAIRS = 20
MAX_PAIRS_PER_PROGRAM = 3  # ... from one program (its executable) ...
MAX_PAIRS_PER_PROCESS = 1  # ... and from one process


def new_code() -> str:
    raw = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    return f"{raw[:4]}-{raw[4:]}"


def _same(given: str, code: str) -> bool:
    norm = given.strip().upper().replace("-", "").replace(" ", "")
    return hmac.compare_digest(norm.encode("utf-8", "replace"),
                               code.replace("-", "").encode("ascii"))


def verb_of(approve: bool, always: bool = False) -> Verb:
    """The answer's verb, whose code proves it."""
    if not approve:
        return "deny"
    return "always" if always else "approve"


def _codes() -> dict[Verb, str]:
    codes: dict[Verb, str] = {}
    for verb in VERBS:
        code = new_code()
        while code in codes.values():
            code = new_code()
        codes[verb] = code
    return codes


@dataclass(frozen=True)
class Answer:
    """How a question ended: approved or not, remembered or not; `by` says how in a phrase
    for messages, `who` in a word or two for the activity log."""

    approved: bool
    by: str
    always: bool = False
    who: str = "the hub"


@dataclass
class Question:
    """One thing the person is asked. Its `codes` (one per verb) never leave the hub but to
    the person. `process` is what the hub verified of the process that asked (from the
    kernel), apart from what it says of itself."""

    id: str
    kind: Kind
    agent: str
    summary: str
    site: str = ""
    profile: str = ""
    categories: tuple[str, ...] = ()
    reasons: tuple[str, ...] = ()
    target: str = ""  # the element it acts on, as the page has it: role, name, its form
    image: bytes | None = field(default=None, repr=False)  # a PNG of the target in its page
    timeout: float = 0.0
    created: float = field(default_factory=time.time)
    codes: dict[Verb, str] = field(default_factory=_codes, repr=False)
    wrong: int = 0
    locked_until: float = 0.0  # code answers refused until then (MAX_WRONG wrong codes)
    process: dict[str, Any] = field(default_factory=dict)  # pid, exe, cwd, program
    owner: object | None = None  # the connection that asked (asks and pairings)
    future: asyncio.Future[Answer] | None = None
    on_answer: Callable[[Question, Answer], None] | None = None  # blocked offers

    @property
    def code(self) -> str:
        """The code that approves it (once)."""
        return self.codes["approve"]

    @property
    def expires(self) -> float:
        return self.created + self.timeout

    def public(self) -> dict[str, Any]:
        """What anyone may see of it: everything but the code."""
        return {"id": self.id, "kind": self.kind, "agent": self.agent, "summary": self.summary,
                "site": self.site, "profile": self.profile,
                "categories": list(self.categories), "reasons": list(self.reasons),
                "target": self.target, "process": dict(self.process),
                "created": round(self.created, 3), "expires": round(self.expires, 3)}


# ("asked", question, None) or ("closed", question, how it ended)
Listener = Callable[[str, Question, Answer | None], None]


class Approvals:
    """The open questions; `ask` waits for an answer, `answer` gives one (with the code)."""

    def __init__(self) -> None:
        self._open: dict[str, Question] = {}
        self._next = 1
        self.listeners: list[Listener] = []

    # -- asking --
    def _add(self, q: Question) -> Question:
        # shown to the person and kept: never with a secret an agent typed (the page's
        # words it quotes included)
        q.summary, q.target = REDACTOR.text(q.summary), REDACTOR.text(q.target)
        q.reasons = tuple(REDACTOR.text(r) for r in q.reasons)
        self._expire()
        if len(self._open) >= MAX_OPEN:
            raise UsageError(f"{MAX_OPEN} questions already wait for the person; this one was "
                             "not asked and nothing was done")
        if q.kind in ("pair", "person"):
            self._check_unpaired(q)
        self._open[q.id] = q
        self._emit("asked", q)
        return q

    def _check_unpaired(self, q: Question) -> None:
        """Questions anyone may cause without a token (pairing requests, the person's
        terminal commands) are capped, all told and per asking program and process, so
        unpaired processes cannot crowd out the questions of paired agents."""
        what = "pairing requests" if q.kind == "pair" else "terminal commands"
        same = [o for o in self._open.values() if o.kind == q.kind]
        same_pid = [o for o in same if o.process.get("pid") is not None
                    and o.process.get("pid") == q.process.get("pid")]
        same_exe = [o for o in same if o.process.get("exe")
                    and o.process.get("exe") == q.process.get("exe")]
        if len(same_pid) >= MAX_PAIRS_PER_PROCESS:
            raise UsageError(f"this process already waits for the person to "
                             f"{'pair it' if q.kind == 'pair' else 'confirm a command'}; "
                             "this second request was not asked")
        if len(same_exe) >= MAX_PAIRS_PER_PROGRAM:
            raise UsageError(f"{MAX_PAIRS_PER_PROGRAM} {what} from this program already wait "
                             "for the person; this one was not asked")
        if len(same) >= MAX_PAIRS:
            raise UsageError(f"{MAX_PAIRS} {what} already wait for the person; this one was "
                             "not asked")

    def _id(self, prefix: str) -> str:
        qid = f"{prefix}{self._next}"
        self._next += 1
        return qid

    async def ask(self, kind: Kind, agent: str, summary: str, timeout: float, *,
                  until: asyncio.Future[Any] | None = None, **facts: Any) -> Answer:
        """Hold the caller until the person answers, the time runs out (a denial), or the
        question is withdrawn: its connection closed, or `until` ended (its tab closed)."""
        loop = asyncio.get_running_loop()
        prefix = {"pair": "P", "person": "T"}.get(kind, "A")
        q = self._add(Question(self._id(prefix), kind, agent, summary,
                               timeout=timeout, owner=context.connection.get(),
                               future=loop.create_future(), **facts))
        assert q.future is not None
        waits: set[asyncio.Future[Any]] = {q.future}
        if until is not None:
            waits.add(until)
        try:
            await context.tell({"pending": {**q.public(), "timeout": timeout}})
            done, _ = await asyncio.wait(waits, timeout=timeout,
                                         return_when=asyncio.FIRST_COMPLETED)
            if q.future in done:
                return q.future.result()
            if done:
                return self._close(q, Answer(False, "withdrawn: its tab was closed",
                                             who="withdrawn"))
            return self._close(q, Answer(False, f"nobody answered within {timeout:g} s",
                                         who="timeout"))
        except BaseException:  # cancelled (its agent went away), or the notice failed
            self._close(q, Answer(False, "withdrawn: the agent went away", who="withdrawn"))
            raise

    def offer(self, agent: str, summary: str, on_answer: Callable[[Question, Answer], None],
              **facts: Any) -> Question:
        """Show a blocked action to the person, who may allow it once or always."""
        self._expire()
        return self._add(Question(self._id("B"), "blocked", agent, summary,
                                  timeout=OFFER_SECONDS, on_answer=on_answer, **facts))

    # -- answering --
    def answer(self, qid: str, code: str, approve: bool, *, always: bool = False,
               by: str = "person") -> Question:
        """The person's answer, proven by the code shown for that answer (a deny code never
        approves). MAX_WRONG wrong codes refuse code answers to the question for
        LOCK_SECONDS; the question stays open, and the tray still answers it."""
        self._expire()
        q = self._open.get(qid.strip().upper())
        if q is None:
            raise UsageError(f"no open question {qid!r}; nothing was answered "
                             "(`tabsteward approvals` lists the open ones)")
        now = time.time()
        if q.locked_until > now:
            raise AuthError(f"{q.id} takes no code for {round(q.locked_until - now)} s after "
                            f"{MAX_WRONG} wrong codes; nothing was answered (the question is "
                            "still open; the tray app answers it)")
        verb = verb_of(approve, always)
        if not _same(code, q.codes[verb]):
            q.wrong += 1
            if q.wrong >= MAX_WRONG:
                q.wrong = 0
                q.locked_until = now + LOCK_SECONDS
                log.warning("question %s: %d wrong codes; code answers wait %g s", q.id,
                            MAX_WRONG, LOCK_SECONDS)
                raise AuthError(f"wrong code for {q.id}, {MAX_WRONG} times: it takes no code "
                                f"for {LOCK_SECONDS:g} s; nothing was answered and the "
                                "question is still open")
            raise AuthError(f"wrong code for {q.id} (each answer has its own code: this is "
                            f"not its {verb} code); nothing was answered "
                            f"({MAX_WRONG - q.wrong} tries left)")
        return self.settle(q, approve, always=always, by=by)

    def settle(self, q: Question, approve: bool, *, always: bool = False,
               by: str = "person") -> Question:
        """The person's answer given in this process (the tray's buttons): no code."""
        if self._open.get(q.id) is not q:
            raise UsageError(f"{q.id} is no longer open; nothing was answered")
        verb = "approved" if approve else "denied"
        self._close(q, Answer(approve, f"{verb} by {by}", always and approve, who=by))
        return q

    def withdraw(self, owner: object) -> None:
        """Close every question asked on this connection (it closed)."""
        for q in [q for q in self._open.values() if q.owner is owner and owner is not None]:
            self._close(q, Answer(False, "withdrawn: the agent went away", who="withdrawn"))

    def open(self) -> list[Question]:
        self._expire()
        return sorted(self._open.values(), key=lambda q: q.created)

    def get(self, qid: str) -> Question | None:
        return self._open.get(qid)

    def close_all(self, why: str) -> None:
        for q in list(self._open.values()):
            self._close(q, Answer(False, why, who="withdrawn"))

    # -- inner workings --
    def _expire(self) -> None:
        now = time.time()
        for q in list(self._open.values()):
            if q.kind == "blocked" and q.expires <= now:
                self._close(q, Answer(False, "the offer expired", who="expired"))

    def _close(self, q: Question, answer: Answer) -> Answer:
        if self._open.pop(q.id, None) is None:
            return answer
        if q.future is not None and not q.future.done():
            q.future.set_result(answer)
        try:
            if q.on_answer is not None:
                # what it raises (say, a grant that could not be saved) reaches whoever
                # answered; the question is closed either way
                q.on_answer(q, answer)
        finally:
            log.info("question %s (%s, agent %s) closed: %s", q.id, q.kind, q.agent,
                     answer.by)
            self._emit("closed", q, answer)
        return answer

    def _emit(self, event: str, q: Question, answer: Answer | None = None) -> None:
        for listener in list(self.listeners):
            try:
                listener(event, q, answer)
            except Exception:
                log.exception("a listener failed on question %s", q.id)
