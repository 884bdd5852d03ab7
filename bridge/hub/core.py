"""The hub's brain: its browsers, a session per agent in each, and every request op executed."""

from __future__ import annotations

import asyncio
import json
import logging
import os
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any

from .. import version
from ..errors import (
    CODE_NOT_ON_COMMAND_LINE,
    AuthError,
    BrowserError,
    TabstewardError,
    UsageError,
    code_on_command_line,
)
from ..native import framing
from ..records import context, peer
from ..records.agents import Agent, Agents
from ..records.redact import PATTERNS, REDACTOR
from ..records.status import Status
from ..shown import printable, shown
from ..tools.registry import PERSON, Call, Result, Tool, table
from . import argv, protocol
from .approvals import Approvals
from .loggable import loggable

if TYPE_CHECKING:
    from ..engine.session import Browser
    from ..records.activity import ActivityLog
    from .gatekeeper import PolicyGate
    from .pool import BrowserPool
    from .server import LocalServer

log = logging.getLogger("tabsteward.hub")

PAIR_TIMEOUT = 300.0  # how long an unknown agent is held for the person to pair it
PERSON_TIMEOUT = 120.0  # how long a terminal command of the person's waits for their yes


class Hub:
    """Executes schema-checked requests against its browsers; `run` serves until stopped."""

    def __init__(self, pool: BrowserPool, *, idle_timeout: float = 0.0,
                 log_path: str = "the hub log", tools: Mapping[str, Tool] | None = None,
                 approvals: Approvals | None = None,
                 activity: ActivityLog | None = None, agents: Agents | None = None,
                 policy: PolicyGate | None = None,
                 pair_timeout: float = PAIR_TIMEOUT) -> None:
        self.pool = pool
        self.approvals = approvals or Approvals()  # questions waiting for the person
        self.activity = activity
        self.agents = agents if agents is not None else Agents()  # who may use the hub
        self.policy = policy
        self.status = Status()  # agents at work now, and the person's pause switch
        self.pair_timeout = pair_timeout
        self.idle_timeout = idle_timeout
        self.log_path = log_path
        # loaded now, so a broken tool module stops the start and not the first request
        self.tools = table() if tools is None else tools
        self.version = version()
        self._schemas = [protocol.tool_schema(t) for t in self.tools.values()]
        self._ops: dict[str, Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]] = {
            "cli": self._cli, "call": self._call, "ping": self._ping,
            "tools": self._list_tools, "shutdown": self._shutdown, "pair": self._pair,
            "whoami": self._whoami, "answer": self._answer, "person": self._person}
        self._loop = asyncio.get_running_loop()
        self._stop: asyncio.Future[int] = self._loop.create_future()
        self._inflight = 0
        self._last = self._loop.time()

    # -- requests ------------------------------------------------------------------------
    async def execute(self, request: dict[str, Any]) -> dict[str, Any]:
        """The reply to one request (already schema-checked by the server)."""
        self._inflight += 1
        self._last = self._loop.time()
        op = request["op"]
        try:
            run = self._ops.get(op)
            if run is None:
                raise TabstewardError(f"op {op} is not served by this hub; nothing was done")
            return await run(request)
        except TabstewardError as err:
            return protocol.error_reply(err)
        except Exception:
            what = str(request.get("tool", op))
            log.exception("internal error in %s", what)
            return protocol.error_reply(protocol.internal_error(what, self.log_path))
        finally:
            self._inflight -= 1
            self._last = self._loop.time()

    async def _call(self, request: dict[str, Any]) -> dict[str, Any]:
        tool = self._tool(request["tool"])
        result = await self._run(tool, request.get("agent"),
                                 request.get("cwd") or os.path.expanduser("~"),
                                 request.get("args", {}), request.get("browser"))
        return protocol.ok_reply(result=result.data, text=result.text)

    async def _pair(self, request: dict[str, Any]) -> dict[str, Any]:
        """Hold an unknown agent until the person pairs it; its token, once they do. The
        person is shown what the hub verified of the process apart from the name it gives."""
        name = request["name"]
        process = peer.facts(context.peer_pid.get())
        answer = await self.approvals.ask("pair", name, "use your browser",
                                          self.pair_timeout, process=process)
        self.record("pairing", agent=name, summary=f"pairing, says it is {name!r}; "
                    f"{peer.describe(process)}",
                    decision="approved" if answer.approved else "denied",
                    decided_by=answer.by)
        if not answer.approved:
            raise AuthError(f"{name!r} was not paired: {answer.by}; nothing was done")
        agent, token = self.agents.add(name)
        return protocol.ok_reply(token=token, agent=agent.id, name=agent.name)

    async def confirm(self, what: str) -> None:
        """Ask the person whether the terminal command that sent this request may `what`;
        AuthError when they do not say yes. Agents can send the request, but only the
        person sees the code that approves it (or the tray's button)."""
        process = peer.facts(context.peer_pid.get())
        answer = await self.approvals.ask("person", "a terminal", what, PERSON_TIMEOUT,
                                          process=process)
        self.record("person", agent="person", summary=f"a terminal asked to {what}; "
                    f"{peer.describe(process)}",
                    decision="approved" if answer.approved else "denied",
                    decided_by=answer.by)
        if not answer.approved:
            raise AuthError(f"the person did not confirm this command ({answer.by}); "
                            "nothing was run")

    async def _whoami(self, request: dict[str, Any]) -> dict[str, Any]:
        """The hub, and which paired agent the token belongs to."""
        principal = context.principal.get()
        return protocol.ok_reply(version=self.version, pid=os.getpid(),
                                 agent=principal.id if principal else None,
                                 name=principal.name if principal else None)

    async def _ping(self, request: dict[str, Any]) -> dict[str, Any]:
        return protocol.ok_reply(version=self.version, pid=os.getpid())

    async def _list_tools(self, request: dict[str, Any]) -> dict[str, Any]:
        return protocol.ok_reply(tools=self._schemas)

    async def _shutdown(self, request: dict[str, Any]) -> dict[str, Any]:
        """Stop the hub: the person's decision, confirmed like their terminal commands."""
        await self.confirm("stop the Tabsteward hub")
        self._loop.call_soon(self.stop, "a client asked the hub to shut down")
        return protocol.ok_reply()

    def _tool(self, name: str) -> Tool:
        tool = self.tools.get(name)
        if tool is None:
            raise protocol.unknown_tool(name, self.tools)
        return tool

    async def _run(self, tool: Tool, agent: str | None, cwd: str,
                   args: Mapping[str, Any], browser_name: str | None = None) -> Result:
        checked = protocol.check_args(tool, args)
        principal = context.principal.get()
        if principal is not None and tool.group == PERSON:
            raise AuthError(f"{tool.name} is the person's command, not an agent's; nothing was "
                            "run. The person runs it in their terminal (it asks them to "
                            "confirm with a code from the console or the tray)")
        agent = session_name(principal.id if principal else None, agent)
        if self.status.paused and tool.group != PERSON:
            await context.tell({"pending": {"id": "paused", "summary": f"{tool.name}: all "
                                            "agents are paused by the person; this request "
                                            "waits until they resume", "timeout": None}})
            await self.status.wait_resumed()
        started = self._loop.time()
        browser: Browser | None = None
        # a mutation is logged before it runs (so a crash mid-way still shows it was asked)
        # and again with its outcome; a read, once, with its outcome
        entry = self.record("request", agent=agent, tool=tool.name,
                            data=loggable(checked)) if tool.mutating else None
        work = self.status.begin(agent, tool.name)
        outcome = "failed"
        try:
            if tool.browser:
                browser_name = browser_name or self._profile_browser(principal, agent)
                browser = await self.pool.pick(agent, browser_name)
            session = (browser.session(agent, principal.id if principal else None)
                       if browser is not None else None)
            result = await tool.handler(Call(session, cwd, self), checked)
            outcome = "ok"
        except TabstewardError as err:
            err.message = printable(err.message, lines=True)  # it may quote page text
            log.info("%s (agent %s) failed after %.0f ms: %s", tool.name, agent,
                     (self._loop.time() - started) * 1000, REDACTOR.text(err.message))
            self.record("outcome" if entry else "request", agent=agent, tool=tool.name,
                        request_id=entry, outcome=f"error {err.code}: {err.message}",
                        data=None if entry else loggable(checked))
            outcome = f"error: {REDACTOR.text(err.message)}"
            raise
        finally:
            self.status.end(work, outcome)
            if browser is not None:
                browser.show_agents()
        if not isinstance(result, Result):
            raise TypeError(f"tool {tool.name} returned {type(result).__name__}, not a Result")
        log.info("%s (agent %s) done in %.0f ms", tool.name, agent,
                 (self._loop.time() - started) * 1000)
        self.record("outcome" if entry else "request", agent=agent, tool=tool.name,
                    request_id=entry, outcome="ok: " + result.text.partition("\n")[0][:300],
                    data=None if entry else loggable(checked))
        # obvious secrets (keys, tokens) do not reach the agent, and control characters a
        # page put in its text never reach a terminal or a model; what agents typed into
        # password fields is kept out of the records above (REDACTOR), not out of pages
        return Result(printable(PATTERNS.text(result.text), lines=True),
                      PATTERNS.data(result.data))

    def _profile_browser(self, principal: Agent | None, agent: str) -> str | None:
        """The browser the agent's policy profile names, if any (the person's choice)."""
        if self.policy is None:
            return None
        return self.policy.profile(principal.id if principal else agent).browser or None

    def record(self, kind: str, **fields: Any) -> str | None:
        """Append to the activity log (when this hub keeps one); the entry's id."""
        if self.activity is None:
            return None
        try:
            return str(self.activity.append(kind, **fields))
        except TabstewardError as err:
            log.error("the activity log refused an entry: %s", err.message)
            raise

    async def _answer(self, request: dict[str, Any]) -> dict[str, Any]:
        """`approve` and `deny`, which need no pairing: the answer proves itself with the
        question's code for that answer, sent in `code` (never on a command line)."""
        return await self._cli(request, mode="answer")

    async def _person(self, request: dict[str, Any]) -> dict[str, Any]:
        """The person's other commands (approvals, agents, unpair, activity, grants, revoke):
        run once the person confirms this very command on the console or in the tray."""
        return await self._cli(request, mode="person")

    async def _cli(self, request: dict[str, Any], mode: str = "agent") -> dict[str, Any]:
        """Run a CLI command line: the reply carries its exit code, stdout and stderr."""
        words: list[str] = request["argv"]
        as_json = argv.wants_json(words)
        what = "the command"
        try:
            if code_on_command_line(words):
                raise UsageError(CODE_NOT_ON_COMMAND_LINE)
            parsed = argv.parse(words, self.tools)
            if parsed.tool is None:
                return _cli_reply(0, argv.main_help(self.tools))
            tool = self.tools[parsed.tool]
            _check_mode(tool, mode)
            if parsed.options.help:
                return _cli_reply(0, argv.tool_help(tool))
            what = tool.name
            if mode == "answer":
                context.code.set(request.get("code") or "")
            elif mode == "person":
                await self.confirm("run: tabsteward " + shown(" ".join(words))[:300])
            label = "person" if mode != "agent" else (parsed.options.agent
                                                      or request.get("agent"))
            result = await self._run(tool, label,
                                     request["cwd"], parsed.args,
                                     parsed.options.browser or request.get("browser"))
            if as_json:
                # the person's commands print to the person's terminal: every character
                # beyond ASCII escaped, so no control, escape or bidi character gets there
                inert = tool.group == PERSON
                return _cli_reply(0, json.dumps(result.data, ensure_ascii=inert) + "\n")
        except TabstewardError as err:
            return _cli_error(err, as_json)
        except Exception:
            log.exception("internal error in %s", what)
            return _cli_error(protocol.internal_error(what, self.log_path), as_json)
        text = result.text
        return _cli_reply(0, text if not text or text.endswith("\n") else text + "\n")

    async def serve_extension(self, reader: asyncio.StreamReader,
                              writer: asyncio.StreamWriter, decoder: framing.Decoder,
                              early: list[Any]) -> None:
        """Serve one extension connection (the native host's socket) until it closes."""
        from ..cdp.extension_link import ExtensionLink
        link = ExtensionLink(reader, writer, decoder, early)
        try:
            await link.start()
        except (TabstewardError, TimeoutError, framing.FrameError, ConnectionError) as exc:
            log.warning("an extension connection was refused: %s",
                        getattr(exc, "message", None) or str(exc) or "no hello in time")
            link.close()
            return
        reading = asyncio.ensure_future(link.run())
        try:
            await self.pool.add_extension(link)
            link.notify("hub", version=self.version)
        except TabstewardError as exc:
            log.warning("an extension connected but could not be used: %s", exc.message)
            link.close()
        await reading

    # -- life cycle ----------------------------------------------------------------------
    def stop(self, reason: str, code: int = 0) -> None:
        """Ask `run` to stop (signals, the shutdown op, idleness)."""
        if not self._stop.done():
            log.info("stopping: %s", reason)
            self._stop.set_result(code)

    async def run(self, server: LocalServer) -> int:
        """Serve until stopped or the browser given at start is lost; then close the server
        and the browsers. The exit status: 0 when stopped, BrowserError's when it is lost."""
        idle = (asyncio.create_task(self._watch_idle(server)) if self.idle_timeout > 0
                else None)
        try:
            ends: list[asyncio.Future[Any]] = [self._stop, self.pool.lost]
            await asyncio.wait(ends, return_when=asyncio.FIRST_COMPLETED)
        finally:
            if idle is not None:
                idle.cancel()
        if self._stop.done():
            code = self._stop.result()
        else:
            code = BrowserError.exit_code
            log.error("lost the browser (%s); the hub stops", _reason(self.pool.lost))
        self.approvals.close_all("withdrawn: the hub stopped")
        await server.close(then=self._close_browsers)
        return code

    async def _close_browsers(self) -> None:
        try:
            await self.pool.close()
        except Exception:
            log.exception("closing the browsers failed; the hub exits anyway")

    async def _watch_idle(self, server: LocalServer) -> None:
        """Stop once no request came for idle_timeout and no client (an MCP server, an SDK
        session) keeps a connection open."""
        while True:
            left = self._last + self.idle_timeout - self._loop.time()
            if left <= 0 and self._inflight == 0 and not server.open_connections:
                self.stop(f"no request for {self.idle_timeout:g} s")
                return
            await asyncio.sleep(left if left > 0 else self.idle_timeout)


def _check_mode(tool: Tool, mode: str) -> None:
    """Which op may run the tool: `answer` only approve and deny (they carry a code),
    `person` only the person's other commands; `cli` the rest (`_run` refuses an agent the
    person's commands)."""
    if mode == "answer" and not tool.open:
        raise AuthError(f"op answer runs approve and deny only, not {tool.name}; nothing "
                        "was run", unpaired=tool.group != PERSON)
    if mode == "person" and (tool.group != PERSON or tool.open):
        raise AuthError(f"op person runs the person's commands, not {tool.name}; nothing "
                        "was run", unpaired=tool.group != PERSON)


def session_name(principal: str | None, label: str | None) -> str:
    """Whose tabs a call uses: a paired agent's own, or one of its named sessions."""
    if principal is None:
        return protocol.agent_name(label or protocol.DEFAULT_AGENT)
    if not label or label in (principal, protocol.DEFAULT_AGENT):
        return principal
    return protocol.agent_name(f"{principal}/{label}"[:protocol.MAX_NAME])




def _reason(closed: asyncio.Future[str]) -> str:
    if closed.cancelled():
        return "cancelled"
    exc = closed.exception()
    return str(exc) if exc is not None else str(closed.result())


def _cli_reply(code: int, stdout: str, stderr: str = "") -> dict[str, Any]:
    return {"ok": code == 0, "exit": code, "stdout": stdout, "stderr": stderr}


def _cli_error(err: TabstewardError, as_json: bool) -> dict[str, Any]:
    wire = err.to_wire()
    if as_json:
        reply = _cli_reply(err.exit_code, json.dumps({"ok": False, "error": wire},
                                                     ensure_ascii=False) + "\n")
    else:
        reply = _cli_reply(err.exit_code, "", f"error: {err.message}\n")
    reply["error"] = wire
    return reply
