"""Helpers for the tests of questions for the person (bridge/hub/approvals.py): the open
questions once the asking tasks have run, an ask as a task, and where a code must not show."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from tabsteward.bridge.hub.approvals import Answer, Approvals, Question


async def open_questions(approvals: Approvals, n: int = 1) -> list[Question]:
    """The open questions, once at least `n` are open (the asking tasks have run)."""
    for _ in range(200):
        found = approvals.open()
        if len(found) >= n:
            return found
        await asyncio.sleep(0)
    raise AssertionError(f"{n} questions were never asked; open: {approvals.open()}")


def asking(approvals: Approvals, timeout: float = 30.0, **kwargs: Any) -> asyncio.Task[Answer]:
    return asyncio.create_task(approvals.ask("ask", "agent-a", "click Buy", timeout, **kwargs))


async def cancel(task: asyncio.Task[Answer]) -> None:
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


def values(data: Any) -> list[Any]:
    """Every leaf value of a nested dict/list structure."""
    if isinstance(data, dict):
        return [leaf for v in data.values() for leaf in values(v)]
    if isinstance(data, list | tuple):
        return [leaf for v in data for leaf in values(v)]
    return [data]


def no_code_in(data: Any, code: str) -> bool:
    raw = code.replace("-", "")
    return all(code not in str(v) and raw not in str(v) for v in values(data))
