"""What runs on this machine, read from /proc: a process's descendants, and whether one still runs (a zombie, dead
but not yet reaped by whoever adopted it, counts as ended). Linux only: the tests using it skip elsewhere."""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

import pytest

PROC = Path("/proc")
linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


def _stat(pid: int) -> tuple[str, int] | None:
    """(state, parent id) of ``pid``, or None when there is no such process."""
    try:
        text = (PROC / str(pid) / "stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    fields = text[text.rindex(")") + 2 :].split()  # the name, in parentheses, may hold spaces
    return fields[0], int(fields[1])


def running(pid: int) -> bool:
    stat = _stat(pid)
    return stat is not None and stat[0] not in ("Z", "X")


def descendants(pid: int) -> set[int]:
    """Every running process below ``pid``: its children, theirs, and so on."""
    parents: dict[int, int] = {}
    for entry in PROC.iterdir():
        if entry.name.isdigit() and (stat := _stat(int(entry.name))) is not None and stat[0] not in ("Z", "X"):
            parents[int(entry.name)] = stat[1]
    found, frontier = set(), {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def command_line(pid: int) -> str:
    try:
        return (PROC / str(pid) / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


async def wait_until_ended(pids: set[int], ceiling: float) -> float:
    """Seconds until none of ``pids`` runs; fails past ``ceiling``, naming those left."""
    started = time.monotonic()
    while any(running(pid) for pid in pids):
        if time.monotonic() - started > ceiling:
            left = {pid: command_line(pid) for pid in pids if running(pid)}
            raise AssertionError(f"still running after {ceiling:g} s: {left}")
        await asyncio.sleep(0.05)
    return time.monotonic() - started
