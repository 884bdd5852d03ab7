"""Where an agent's files go: its own folder unless it names another place, never Tabsteward's
own folders or a dotfile, never over a file it did not ask to replace; written so that no
symlink or race sends the bytes elsewhere."""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import BinaryIO

from .. import paths
from ..errors import PolicyError, UsageError
from ..policy.files import within

NOTHING = "nothing was written"


@dataclass(frozen=True)
class Output:
    """A place an agent asked to write: its real path (a folder for a download into one), the
    agent's own folder (real path), and whether it may replace a file already there."""

    path: str
    folder: str
    overwrite: bool = False
    into: bool = False  # a folder to save into, under the name the page suggests

    @property
    def inside(self) -> bool:
        return within(self.path, self.folder)


def output(raw: str | None, agent: str, default_name: str, *, cwd: str | None = None,
           overwrite: bool = False) -> Output:
    """Resolve where to write: nothing given is the agent's folder and `default_name`; a
    relative path is taken from the agent's folder (or from `cwd`, for the person's own
    commands); `~` is the home folder. Symlinks and `..` are resolved now, before anything
    is asked or written."""
    folder = os.path.realpath(paths.agent_files_dir(agent))
    base = cwd or folder
    given = os.path.expanduser(raw) if raw else default_name
    path = os.path.realpath(os.path.join(base, given))
    into = not given or given.endswith(("/", os.sep)) or os.path.isdir(path)
    return Output(path, folder, overwrite, into)


def at(path: str, folder: str, overwrite: bool = False) -> Output:
    """An Output for a path the caller already chose (tests, the engine's own callers)."""
    real = os.path.realpath(path)
    return Output(real, os.path.realpath(folder), overwrite, os.path.isdir(real))


def named(dest: Output, suggested: str) -> Output:
    """Where a download into a folder goes: the page's suggested name made safe, and
    numbered when a file of that name is there already."""
    name = free_name(dest.path, file_name(suggested))
    return Output(os.path.join(dest.path, name), dest.folder, False)


def prepare(dest: Output, extra: Iterable[str] = ()) -> dict[str, str]:
    """Check a place before anything is asked: PolicyError where no agent may write,
    UsageError for a file there that may not be replaced. The facts policy rates it by."""
    check(dest, extra)
    exists = not dest.into and os.path.lexists(dest.path)
    if exists and os.path.isdir(dest.path):
        raise UsageError(f"{dest.path} is a folder; {NOTHING}")
    if exists and not dest.overwrite:
        raise UsageError(f"{dest.path} already exists; {NOTHING} (name a new file, or pass "
                         "--overwrite to replace it)")
    return {"folder": dest.folder, "replaces": "yes" if exists else ""}


# -- the rules (pure) --

def refusal(path: str, *, folder: str, home: str, own: Iterable[str]) -> str | None:
    """Why no agent may ever write `path` (a real absolute path), or None: it is inside one
    of Tabsteward's own folders (`own`), or it is a dotfile or inside a dot-folder (counted
    from the agent's folder, else from home, else from the root)."""
    for root in own:
        if within(path, root):
            return f"{path} is inside Tabsteward's own folder {root}"
    base = next((b for b in (folder, home) if b and within(path, b)), os.sep)
    rest = os.path.relpath(path, base) if path != base else ""
    dotted = next((part for part in rest.split(os.sep) if part.startswith(".")), None)
    if dotted is not None:
        return (f"{path} is a dotfile or inside a dot-folder ({dotted!r}), where settings "
                "and keys live")
    return None


def own_folders(extra: Iterable[str] = ()) -> list[str]:
    """Tabsteward's config, state, cache, data and runtime folders, the environment it runs
    from, and `extra` (the policy file in use): real paths."""
    from ..records.locate import runtime_dir, socket_path, token_path  # imports only os
    beside = os.path.dirname(socket_path())  # TABSTEWARD_SOCKET may name any folder
    roots = [paths.config_dir(), paths.state_dir(), paths.cache_dir(), paths.data_dir(),
             runtime_dir(), socket_path(), token_path(), os.path.join(beside, "hub.lock"),
             sys.prefix, os.path.dirname(os.path.dirname(os.path.abspath(__file__))), *extra]
    return list(dict.fromkeys(os.path.realpath(str(r)) for r in roots))


def check(dest: Output, extra: Iterable[str] = ()) -> None:
    """PolicyError when the place is one no agent may write, whatever its profile says."""
    why = refusal(dest.path, folder=dest.folder, home=os.path.realpath(os.path.expanduser("~")),
                  own=own_folders(extra))
    if why:
        raise PolicyError(f"{why}; agents never write there, whatever the policy profile "
                          f"says. {NOTHING.capitalize()}", path=dest.path)


def file_name(suggested: str, fallback: str = "download") -> str:
    """A page's suggested file name made safe: its last part only, no leading dots, no
    control characters, at most 120 characters."""
    name = re.split(r"[\\/]", suggested)[-1]
    name = re.sub(r"[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]", "_", name)
    name = name.lstrip(". ").strip()[:120]
    return name or fallback


def free_name(folder: str, name: str) -> str:
    """`name` in `folder`, or `name (2)`, `name (3)`, ... when it is taken."""
    stem, ext = os.path.splitext(name)
    candidate, n = name, 2
    while os.path.lexists(os.path.join(folder, candidate)):
        candidate, n = f"{stem} ({n}){ext}", n + 1
    return candidate


# -- writing --

def save(dest: Output, fill: Callable[[BinaryIO], object]) -> None:
    """Write a new file at dest.path through `fill`: into a temporary file made in the same
    folder (O_EXCL, O_NOFOLLOW), then given its name, never replacing a file unless
    dest.overwrite. The folder is checked again once open, so a folder swapped for a symlink
    meanwhile is caught. UsageError when nothing was written."""
    folder, name = os.path.split(dest.path)
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        dfd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError as exc:
        raise UsageError(f"cannot write in {folder} ({exc.strerror}); {NOTHING}") from None
    try:
        opened = _path_of(dfd) or folder
        if opened != folder:  # a part of the path was swapped since it was resolved
            raise UsageError(f"the folder {folder} changed while it was being written to (it "
                             f"is now {opened}); {NOTHING}")
        tmp = f".{name[:100]}.{secrets.token_hex(4)}.tmp"
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600,
                         dir_fd=dfd)
        except OSError as exc:
            raise UsageError(f"cannot write in {folder} ({exc.strerror}); {NOTHING}") from None
        try:
            with open(fd, "wb") as fp:
                fill(fp)
                fp.flush()
                os.fsync(fp.fileno())
            _publish(dfd, tmp, name, dest)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp, dir_fd=dfd)
            raise
    finally:
        os.close(dfd)


def _publish(dfd: int, tmp: str, name: str, dest: Output) -> None:
    exists = UsageError(f"{dest.path} already exists; {NOTHING} (name a new file, or pass "
                        "--overwrite to replace it)")
    if dest.overwrite:
        try:  # replaces a symlink itself, never the file it points at
            os.rename(tmp, name, src_dir_fd=dfd, dst_dir_fd=dfd)
        except IsADirectoryError:
            raise UsageError(f"{dest.path} is a folder; {NOTHING}") from None
        return
    try:
        os.link(tmp, name, src_dir_fd=dfd, dst_dir_fd=dfd, follow_symlinks=False)
    except FileExistsError:
        raise exists from None
    except OSError:  # a filesystem without hard links
        with contextlib.suppress(OSError):
            os.stat(name, dir_fd=dfd, follow_symlinks=False)
            raise exists from None
        os.rename(tmp, name, src_dir_fd=dfd, dst_dir_fd=dfd)
        return
    os.unlink(tmp, dir_fd=dfd)


def _path_of(fd: int) -> str | None:
    """The real path of an open folder, where the OS tells."""
    try:
        return os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return None


def real_file(path: str) -> str:
    """The real path of a file an agent hands over (symlinks followed); UsageError when it is
    not a regular file."""
    real = os.path.realpath(path)
    if not os.path.isfile(real):
        shown = path if real == path else f"{path} (which is {real})"
        raise UsageError(f"no such file: {shown}; nothing was uploaded")
    return real
