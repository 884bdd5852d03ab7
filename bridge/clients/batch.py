"""`tabsteward batch`: several tool commands in one process, in order, stopping at the first
that fails (an agent's form: fill, fill, click, without a process start for each)."""

from __future__ import annotations

import shlex
import sys
from collections.abc import Callable

from ..errors import UsageError

MAX_COMMANDS = 100
HELP = """usage: tabsteward [GLOBAL OPTIONS] batch COMMAND...
       tabsteward [GLOBAL OPTIONS] batch < FILE

Run tool commands one after the other in one process, each as its own `tabsteward COMMAND`
would (policy and the person's confirmations apply to each), and stop at the first that
fails: the ones after it are not run. Each COMMAND is one argument, quoted as a shell
quotes (`"fill @3 'Ada Lovelace'"`); without any, one command per line of stdin (blank
lines and lines starting with # are skipped). Global options given before `batch` apply to
every command. Each command's output comes after a line `[N/M] WORD @REF` (its target's
ref, if it names one first; none of these lines with --json: one reply per command, in
order). Exit status: the failing command's, else 0.

example:
  tabsteward batch "fill @3 ada" "fill @4 \"$PASSWORD\"" "click @5"
"""


def parse(lines: list[str], refused: Callable[[str], str | None],
          word_of: Callable[[list[str]], str]) -> list[list[str]]:
    """Each command's words; UsageError (naming the command) for any that cannot run, before
    any runs. `refused(word)`: why a command word cannot run in a batch, or None;
    `word_of(words)`: the command word of a command's words (the CLI's)."""
    commands = []
    for number, line in enumerate(lines, 1):
        try:
            words = shlex.split(line)
        except ValueError as exc:
            raise UsageError(f"command {number} ({line.strip()[:60]!r}) cannot be read: "
                             f"{exc}") from None
        if not words or words[0].startswith("#"):
            continue
        word = word_of(words)
        why = refused(word) if word else "no command word"
        if why:
            raise UsageError(f"command {number} ({word or line.strip()[:60]!r}): {why}")
        commands.append(words)
    if not commands:
        raise UsageError("no command given (as arguments, or one per line of stdin)")
    if len(commands) > MAX_COMMANDS:
        raise UsageError(f"{len(commands)} commands; a batch runs at most {MAX_COMMANDS}")
    return commands


def word_at(words: list[str], word_of: Callable[[list[str]], str]) -> int:
    """Where the command word stands (a global option's value before it may be the same
    word); `word_of` finds it as the CLI does."""
    return next(i for i in range(len(words)) if word_of(words[:i + 1]) == words[i])


def heading(words: list[str], at: int, number: int, total: int) -> str:
    """The line before a command's output: its number, word (at `at`) and target's ref when
    its first argument is one (no later word: a fill's text may look like a ref)."""
    ref = [w for w in words[at + 1:at + 2] if w.startswith("@") and w[1:].isdigit()]
    return f"[{number}/{total}] {' '.join([words[at], *ref])}\n"


def run(options: list[str], args: list[str], tool: Callable[[list[str]], int],
        refused: Callable[[str], str | None], word_of: Callable[[list[str]], str],
        write: Callable[[str, bool], None]) -> int:
    """Run the batch `args` (after the word `batch`) with the global `options` before it:
    each command through `tool` (which prints its reply), in order; its exit status.
    `write(text, to_stderr)` prints the batch's own lines."""
    if args[:1] in (["-h"], ["--help"]):
        write(HELP, False)
        return 0
    lines = args if args else ([] if sys.stdin is None or sys.stdin.isatty()
                               else sys.stdin.read().splitlines())
    try:
        commands = parse(lines, refused, word_of)
    except UsageError as exc:
        said = exc.message
        write(f"error: batch: {said}" + ("" if "nothing was run" in said else
                                         "; nothing was run") + "\n", True)
        return 2
    quiet = "--json" in options
    for number, words in enumerate(commands, 1):
        if not quiet:
            write(heading(words, word_at(words, word_of), number, len(commands)), False)
        code = tool([*options, *words])
        if code != 0:
            left = len(commands) - number
            rest = ("it was the last" if not left else "the one after it was not run"
                    if left == 1 else f"the {left} after it were not run")
            write(f"error: batch stopped at command {number} of {len(commands)} "
                  f"({word_of(words)}), which failed; {rest}\n", True)
            return code
    return 0
