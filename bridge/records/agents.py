"""The paired agents: who may use the hub, each with its own token (only its hash is kept
here; the agent keeps the token in the OS keyring)."""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import re
import secrets
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from .. import paths
from ..errors import UsageError

MAX_PAIR_NAME = 80

log = logging.getLogger("tabsteward.hub")

_SLUG = re.compile(r"[^a-z0-9]+")


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class Agent:
    """One paired agent. `id` is short and stable; `name` is what the person approved."""

    id: str
    name: str
    token_sha256: str
    created: float
    last_used: float = 0.0

    def public(self) -> dict[str, object]:
        return {"id": self.id, "name": self.name, "created": round(self.created, 3),
                "last_used": round(self.last_used, 3)}


class Agents:
    """Paired agents in `state_dir()/agents.json` (0600); tokens are checked by hash."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or paths.state_dir() / "agents.json"
        self._by_hash: dict[str, Agent] = {}
        self._seen: tuple[int, int, int] | None = None  # the file's stamp when read
        self._session: dict[str, Agent] = {}  # accepted for this process only
        self._retired: set[str] = set()  # ids of unpaired agents: never given again
        self._load()

    def _stamp(self) -> tuple[int, int, int] | None:
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            return None
        return st.st_ino, st.st_mtime_ns, st.st_size  # each save replaces the file

    def _fresh(self) -> None:
        """Read the file again when another process (or instance) changed it."""
        if self._stamp() != self._seen:
            self._load()

    def _load(self) -> None:
        """Read the file; a broken one leaves no agent accepted (and is not overwritten:
        every later call reads it again and refuses)."""
        stamp = self._stamp()
        self._by_hash = {}
        self._retired = set()
        try:
            raw = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            self._seen = stamp
            return
        except UnicodeDecodeError as exc:
            raise UsageError(f"{self.path} is not a paired-agents file ({exc}); no agent is "
                             "accepted. Move it away to pair agents afresh") from None
        try:
            body = json.loads(raw)
            rows = body["agents"]
            retired = {str(x) for x in body.get("retired", [])}
            agents = [Agent(str(r["id"]), str(r["name"]), str(r["token_sha256"]),
                            float(r["created"]), float(r.get("last_used", 0.0)))
                      for r in rows]
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise UsageError(f"{self.path} is not a paired-agents file ({exc}); no agent is "
                             "accepted. Move it away to pair agents afresh") from None
        self._by_hash = {a.token_sha256: a for a in agents}
        self._retired = retired
        self._seen = stamp

    def _save(self) -> None:
        paths.ensure_private_dir(self.path.parent)
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        body = json.dumps({"agents": [asdict(a) for a in self._by_hash.values()],
                           "retired": sorted(self._retired)}, indent=1)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
        try:
            os.write(fd, body.encode("utf-8"))
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, self.path)
        self._seen = self._stamp()

    def verify(self, token: str) -> Agent | None:
        """The agent this token belongs to, or None."""
        self._fresh()
        key = digest(token)
        agent = self._by_hash.get(key)
        if agent is None:
            return self._session.get(key)
        if agent is not None and time.time() - agent.last_used > 60:
            agent = self._by_hash[agent.token_sha256] = Agent(
                agent.id, agent.name, agent.token_sha256, agent.created, time.time())
            with contextlib.suppress(OSError):  # a usage time is not worth failing for
                self._save()
        return agent

    def add(self, name: str) -> tuple[Agent, str]:
        """Pair a new agent: its record and its token (returned once, never stored)."""
        name = pairing_name(name)
        self._fresh()
        token = secrets.token_urlsafe(32)
        base = _SLUG.sub("-", name.lower())[:24].strip("-") or "agent"
        # an id is never given twice: a new agent must not inherit an unpaired one's tabs,
        # grants or profile
        taken = ({a.id for a in self._by_hash.values()} | self._retired
                 | {a.id for a in self._session.values()})
        agent_id, n = base, 2
        while agent_id in taken:
            agent_id, n = f"{base}-{n}", n + 1
        agent = Agent(agent_id, name, digest(token), time.time())
        self._by_hash[agent.token_sha256] = agent
        self._save()
        log.info("paired agent %s (%r)", agent.id, agent.name)
        return agent, token

    def accept(self, token: str, name: str) -> Agent:
        """Accept `token` as a paired agent for this process's life only (never saved): the
        token the person gave `serve` in its environment, where nobody can pair (CI)."""
        agent = Agent(_SLUG.sub("-", name.lower()).strip("-") or "agent", name,
                      digest(token), time.time())
        self._session[agent.token_sha256] = agent
        return agent

    def revoke(self, agent_id: str) -> Agent:
        self._fresh()
        for key, agent in list(self._by_hash.items()):
            if agent.id == agent_id:
                del self._by_hash[key]
                self._retired.add(agent.id)
                self._save()
                log.info("unpaired agent %s (%r)", agent.id, agent.name)
                return agent
        raise UsageError(f"no paired agent {agent_id!r}; nothing was revoked "
                         "(`tabsteward agents` lists them)")

    def list(self) -> list[Agent]:
        self._fresh()
        return sorted([*self._by_hash.values(), *self._session.values()],
                      key=lambda a: a.created)


def pairing_name(given: Any) -> str:
    """The name an agent asks to be paired under, as the person will read it."""
    if not isinstance(given, str) or not given.strip():
        raise UsageError("pair needs a name: 1-80 printable characters; nothing was asked")
    name = " ".join(given.split())
    if len(name) > MAX_PAIR_NAME or not name.isprintable():
        raise UsageError(f"a pairing name is 1-{MAX_PAIR_NAME} printable characters; "
                         "nothing was asked")
    return name
