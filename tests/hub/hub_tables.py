"""A tiny tool table for hub tests: a few tools built from the real registry types."""

from __future__ import annotations

from typing import Any

from tabsteward.bridge.errors import TargetError
from tabsteward.bridge.tools.registry import Call, Param, Result, Tool

SECRET = "s3cret-internal-detail"


async def _echo(call: Call, args: dict[str, Any]) -> Result:
    agent = getattr(call.session, "agent", None)
    data = {"args": args, "agent": agent, "cwd": call.cwd}
    return Result(f"echo {args['text']}", data)


async def _snapshot(call: Call, args: dict[str, Any]) -> Result:
    text = "- button \"OK\" @1"
    return Result(text, {"text": text, "refs": {"1": {"role": "button", "name": "OK"}}})


async def _miss(call: Call, args: dict[str, Any]) -> Result:
    raise TargetError("no element matches @9; nothing was clicked")


async def _boom(call: Call, args: dict[str, Any]) -> Result:
    raise RuntimeError(SECRET)


def make_table() -> dict[str, Tool]:
    tools = [
        Tool("echo", "Say the text back", (
            Param("text", required=True, positional=True, help="what to say"),
            Param("times", "int", help="how often", default=1, short="n"),
            Param("ratio", "float", help="a number"),
            Param("loud", "bool", help="shout", short="l"),
            Param("mode", choices=("plain", "fancy"), help="how"),
            Param("tags", "list", help="labels (repeatable)"),
        ), mutating=False, handler=_echo),
        Tool("type", "Type words", (
            Param("target", required=True, positional=True, help="where"),
            Param("words", "list", positional=True, help="what"),
        ), mutating=True, handler=_echo),
        Tool("snapshot", "The page as text", (
            Param("interactive", "bool", short="i", help="only refs"),
        ), mutating=False, handler=_snapshot),
        Tool("miss", "Fails as a tool may", (), mutating=True, handler=_miss),
        Tool("boom", "Fails as a bug would", (), mutating=True, handler=_boom),
    ]
    return {t.name: t for t in tools}
