"""The `tabsteward` command: argv goes to the hub (started if none runs), its reply printed."""

# Kept lean: a tool command imports only this module, clients/client.py, records/locate.py
# and tools/names.py; anything heavier is imported inside the function that needs it.

from __future__ import annotations

import os
import sys

from .clients import client
from .secrets import credentials

TYPE_CHECKING = False  # not typing's: importing typing costs a CLI call milliseconds
if TYPE_CHECKING:
    from typing import TextIO

# exit status by the wire error code, for errors the hub reports outside a command's run
EXIT_BY_CODE = {2: 2, 3: 3, 4: 4}
AUTH_FAILED = 3
# the person's commands, which need no pairing (a test keeps these lists equal to the tool
# table's): approve and deny (open=True) go as op "answer" with the code typed or read from
# stdin; the others as op "person", which waits until the person confirms them
ANSWERS = ("approve", "deny")
CONFIRMED = ("approvals", "agents", "unpair", "grants", "revoke", "activity")
HUB_UNAVAILABLE = 4
# the commands this module runs itself, without the hub
LOCAL = ("serve", "desktop", "install", "uninstall", "extension", "setup", "doctor", "mcp",
         "demo", "skill")

USAGE = """usage: tabsteward [--json] [--agent NAME] [--tab ID] [--browser NAME] TOOL [ARGS...]
       tabsteward [--json] [--agent NAME] [--tab ID] [--browser NAME] batch COMMAND...
       tabsteward serve [--help] | desktop [--help] | mcp | demo | skill | --version
       tabsteward setup [--no-autostart] [--no-open] | extension pack [--out FILE]
       tabsteward install | uninstall | doctor [--browser NAME]... [--user-data-dir DIR] [--json]
"""
SHORT_HELP = USAGE + """
No hub is running and the tool list could not be loaded here; run any tool command
(e.g. `tabsteward tabs`) to start a hub, then `tabsteward --help` lists the tools.
"""


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else list(argv)
    first = args[0] if args else ""
    if first == "--version":
        from . import version
        return _write(sys.stdout, f"tabsteward {version()}\n", 0)
    if first == "demo":
        from .demo import main as demo
        return demo()
    if first == "skill":
        from importlib.resources import files
        return _write(sys.stdout, files(__package__).joinpath("SKILL.md").read_text("utf-8"), 0)
    if first == "serve":
        lock = _claim_hub()  # before the hub's slow imports: a command meanwhile waits
        from .hub.main import main as serve
        return serve(args[1:], lock)
    if first == "desktop":
        return _desktop(args[1:])
    if first in ("install", "uninstall"):
        from .setup.install_cli import main as setup
        return setup(first, args[1:])
    if first == "extension":
        from .setup.extension_pack import main as pack
        return pack(args[1:])
    if first == "setup":
        from .setup.setup_cli import main as setup_all
        return setup_all(args[1:])
    if first == "doctor":
        from .setup.doctor import main as doctor
        return doctor(args[1:])
    if first == "mcp":
        from .mcp.server import main as mcp
        code = mcp()
        return code if isinstance(code, int) else 0
    if not args:
        return _write(sys.stderr, USAGE + "error: no tool given; `tabsteward --help` lists "
                      "the tools\n", 2)
    code = _batch(args) if command_word(args) == "batch" else _tool(args)
    if argv is None:  # the console script
        _exit_now(code)
    return code


def _batch(args: list[str]) -> int:
    """`batch`: its commands one by one through _tool (clients/batch.py)."""
    from .clients import batch
    at = batch.word_at(args, command_word)

    def refused(command: str) -> str | None:
        if command == "batch":
            return "a batch cannot hold another"
        if command in LOCAL or command in ANSWERS or command in CONFIRMED:
            return "a batch runs agents' tool commands only"
        return _unknown(command)

    def write(text: str, to_stderr: bool) -> None:
        _write(sys.stderr if to_stderr else sys.stdout, text, 0)
    return batch.run(args[:at], args[at + 1:], _tool, refused, command_word, write)


def _exit_now(code: int) -> None:
    """End a tool command's process without the interpreter's teardown of its modules
    (about 2 ms of CPU, a tenth of the process): it holds nothing but its two output
    buffers, flushed here, and no thread or file of its own."""
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except OSError:  # the reader went away, as Python's own exit would report it
        code = code or 120
    os._exit(code)


def _tool(args: list[str]) -> int:
    """A tool command (or the person's): argv to the hub, its reply printed; exit status."""
    word = command_word(args)
    unknown = _unknown(word)
    if unknown:
        return _fail(unknown, 2)
    op = "answer" if word in ANSWERS else "person" if word in CONFIRMED else "cli"
    if op == "answer" and "--code" in " ".join(args):
        from .errors import CODE_NOT_ON_COMMAND_LINE, code_on_command_line
        if code_on_command_line(args):
            return _fail(CODE_NOT_ON_COMMAND_LINE, 2)
    request: dict[str, object] = {"op": op, "argv": args, "cwd": _cwd(), "id": 1}
    agent = os.environ.get("TABSTEWARD_AGENT")
    if agent and op == "cli":  # the person's commands name no agent session
        request["agent"] = agent
    browser = os.environ.get("TABSTEWARD_BROWSER")
    if browser and op == "cli":
        request["browser"] = browser
    asks_help = _asks_help(args)
    if op == "answer" and not asks_help:
        typed = _code(args)
        if isinstance(typed, int):
            return typed
        request["code"] = typed
    name = credentials.identity(str(request["cwd"]))
    token = None
    try:
        if op == "cli":  # the person's commands carry no token: agents' tokens never run them
            token = credentials.load(name)
    except credentials.TokenStoreError as exc:
        return _fail(f"{exc}; nothing was run", AUTH_FAILED)
    try:
        try:
            reply = _send(request, token, op, asks_help)
        except client.NoHub:
            if asks_help:
                return _local_help(args)
            if os.environ.get("TABSTEWARD_NO_AUTOSTART", "") not in ("", "0"):
                return _fail("no hub is running and TABSTEWARD_NO_AUTOSTART is set; nothing "
                             "was run (start one with `tabsteward serve`)", HUB_UNAVAILABLE)
            problem = _start_hub()
            if problem:
                return _fail(problem, HUB_UNAVAILABLE)
            reply = _send(request, token, op, asks_help)
        if _unpaired(reply) and asks_help:
            return _local_help(args)  # help needs no pairing
        if _unpaired(reply) and op == "cli":
            paired = _pair(name, had_token=token is not None)
            if isinstance(paired, int):
                return paired
            reply = client.request(request, token=paired)
    except client.NoHub as exc:
        return _fail(f"{exc}, even after starting one; nothing was run", HUB_UNAVAILABLE)
    except KeyboardInterrupt:
        return _fail("interrupted; nothing was answered", 130)
    except client.HubLost as exc:
        return _fail(str(exc), HUB_UNAVAILABLE)
    except OSError as exc:
        return _fail(f"cannot reach the hub: {exc.strerror or exc}; nothing was run",
                     HUB_UNAVAILABLE)
    return _show(reply)


def _send(request: dict[str, object], token: str | None, op: str,
          asks_help: bool) -> dict[str, object]:
    """The request sent the way its op needs; the hub's reply."""
    if op != "person" or asks_help:
        return client.request(request, token=token or "")
    from .clients import person_cli
    return person_cli.confirmed(request)


def _code(args: list[str]) -> str | int:
    """approve or deny: the code, typed without echo or read from stdin; else an exit
    status (nothing was answered)."""
    from .clients import person_cli
    verb = command_word(args)
    rest = args[args.index(verb) + 1:]
    qid = next((w for w in rest if not w.startswith("-")), "?")
    if verb == "approve" and "--always" in rest:
        verb = "approve always"  # its own code: the console shows it on its own line
    try:
        return person_cli.read_code(f"code to {verb} {qid} (from the hub's console or the "
                                    "tray): ")
    except person_cli.NoCode as exc:
        return _fail(str(exc), 2)
    except KeyboardInterrupt:
        return _fail("interrupted; nothing was answered", 130)


def _desktop(args: list[str]) -> int:
    """The tray app, when PySide6 is installed."""
    try:
        from tabsteward.desktop.app import main as desktop
    except ImportError as exc:
        return _fail(f"the tray app needs PySide6 and qasync ({exc}); install them with "
                     "`pip install 'tabsteward[desktop]'`. Nothing was started", 2)
    return desktop(args)


def command_word(args: list[str]) -> str:
    """The command word: the first word that is not a global option or its value."""
    skip = False
    for word in args:
        if skip:
            skip = False
        elif word in ("--agent", "--tab", "--browser"):
            skip = True
        elif not word.startswith("-"):
            return word
    return ""


def _unknown(word: str) -> str | None:
    """Why `word` is no command, with the closest names; None when it is one (or missing:
    the hub says what a bare option means)."""
    from .tools.names import NAMES
    if not word or word in NAMES:
        return None
    import difflib  # only on this path: known commands do not pay for it
    close = difflib.get_close_matches(word, [*NAMES, *LOCAL], n=3, cutoff=0.6)
    hint = f" (did you mean {' or '.join(close)}?)" if close else ""
    return (f"unknown command {word!r}{hint}; nothing was run and no hub was asked; "
            "`tabsteward --help` lists the commands")


def _unpaired(reply: dict[str, object]) -> bool:
    error = reply.get("error")
    details = error.get("details") if isinstance(error, dict) else None
    return isinstance(details, dict) and details.get("unpaired") is True


def _pair(name: str, had_token: bool) -> str | int:
    """Ask the hub to pair this agent (the person approves); its token, or an exit status."""
    if os.environ.get(credentials.ENV_TOKEN, "").strip():
        return _fail(f"the hub does not accept the token in {credentials.ENV_TOKEN} (revoked, "
                     "or from another hub); nothing was run", AUTH_FAILED)
    if had_token:
        credentials.forget(name)  # revoked, or from another hub: pair afresh
    _write(sys.stderr, f"tabsteward: this agent is not paired; asking the person to pair "
           f"{name!r} (answer in the Tabsteward tray, or at the hub's console)\n", 0)
    reply = client.request({"op": "pair", "name": name, "id": 1}, token="")
    token = reply.get("token")
    if reply.get("ok") is not True or not isinstance(token, str):
        return _show(reply)
    try:
        credentials.save(name, token)
    except credentials.TokenStoreError as exc:
        _write(sys.stderr, f"tabsteward: paired, but {exc}. This agent's token, to give its "
               f"commands in {credentials.ENV_TOKEN}: {token}\n", 0)
    return token


def _claim_hub() -> int | None:
    """The hub lock for `serve`, taken at once; None when it cannot be (a hub holds it):
    serve then tries again and says why in its log, as before."""
    from .errors import TabstewardError
    from .records import locate, lock
    try:
        return lock.claim(locate.socket_path())
    except (TabstewardError, OSError):
        return None


def _start_hub() -> str | None:
    """Start a hub (the slow path, so imports are fine here); what went wrong, if anything."""
    from .clients import autostart
    from .errors import HubUnavailable
    try:
        autostart.ensure_hub()
    except HubUnavailable as exc:
        return exc.message
    return None


def _show(reply: dict[str, object]) -> int:
    """Print what the hub says the command printed; its exit status."""
    code = reply.get("exit")
    if isinstance(code, int):
        out, err = reply.get("stdout"), reply.get("stderr")
        if isinstance(out, str) and out:
            _write(sys.stdout, out, 0)
        if isinstance(err, str) and err:
            _write(sys.stderr, err, 0)
        return code
    error = reply.get("error")
    if reply.get("ok") is False and isinstance(error, dict):
        wire_code = error.get("code")
        status = EXIT_BY_CODE.get(wire_code, 1) if isinstance(wire_code, int) else 1
        return _fail(str(error.get("message") or "the hub refused the request"), status)
    return _fail("the hub's reply has no exit status; the command may or may not have run", 1)


def _write(stream: TextIO, text: str, code: int) -> int:
    """Write text as UTF-8 whatever the locale says; the exit status passes through."""
    try:
        buffer = getattr(stream, "buffer", None)
        if buffer is None:
            stream.write(text)
            stream.flush()
        else:
            buffer.write(text.encode("utf-8", "replace"))
            buffer.flush()
    except BrokenPipeError:
        # the reader went away (`| head`): quietly stop writing to it
        os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())
    return code


def _fail(message: str, code: int) -> int:
    return _write(sys.stderr, f"error: {message}\n", code)


def _cwd() -> str:
    try:
        return os.getcwd()
    except OSError:
        return os.path.expanduser("~")


def _asks_help(args: list[str]) -> bool:
    for item in args:
        if item == "--":
            return False
        if item in ("-h", "--help"):
            return True
    return False


def _local_help(args: list[str]) -> int:
    """Help without a hub: from the tool table when it loads, else a short text."""
    try:
        from .errors import UsageError
        from .hub import argv as grammar
        from .tools.registry import table
        tools = table()
    except ImportError:
        return _write(sys.stdout, SHORT_HELP, 0)
    try:
        parsed = grammar.parse(args, tools)
    except UsageError as exc:
        return _fail(exc.message, 2)
    if parsed.tool is None:
        return _write(sys.stdout, grammar.main_help(tools), 0)
    return _write(sys.stdout, grammar.tool_help(tools[parsed.tool]), 0)
