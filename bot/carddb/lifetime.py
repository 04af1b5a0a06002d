"""A file read while a newer one may replace it: reads hold it (``with it:``), and a retired one closes once the
reads in flight are done. The card data's copy and its printed names each are one."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, Self, TypeVar


class Retiring:
    """``Retiring(path)``: the file at ``path`` (``closed`` raised when there is none). What a reader subclass gives:
    :meth:`_detach`, which hands over its connections to be closed; ``closed``, the exception a missing or closed one
    raises; ``what`` it holds, in words."""

    closed: type[Exception] = RuntimeError
    what = "data"

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        if not self.path.exists():
            raise self.closed(f"no {self.what} at {self.path.name}")
        self._file = identity(self.path)
        self._lock = threading.Lock()
        self._users = 0
        self._retired = False
        self._closed = False

    def _detach(self) -> list[Any]:
        raise NotImplementedError

    def _connect(self) -> sqlite3.Connection:
        """A read-only connection to the file this reader was opened on; ``closed`` raised when a newer file has
        replaced it at its path since (a connection opened now would read the newer file, whose rows this reader's
        indexes don't know: the refresh swapping it in is under way)."""
        # immutable: the file is never written in place, so readers need no locks.
        db = sqlite3.connect(f"file:{self.path}?mode=ro&immutable=1", uri=True, check_same_thread=False)
        if identity(self.path) != self._file:
            db.close()
            raise self.closed(f"the {self.what} at {self.path.name} was replaced by a newer one")
        return db

    def _meta(self, db: sqlite3.Connection, expected_format: str) -> dict[str, str]:
        """The file's ``meta`` table, its format the one expected; closed, and ``closed`` raised, when it is
        unreadable or of another format."""
        try:
            meta = dict(db.execute("SELECT key, value FROM meta"))
        except sqlite3.Error as error:
            self.close()
            raise self.closed(f"the {self.what} at {self.path.name}: unreadable ({error})") from error
        if meta.get("format") != expected_format:
            self.close()
            raise self.closed(f"the {self.what} at {self.path.name}: of format {meta.get('format')!r}")
        self.size_bytes = self.path.stat().st_size
        return meta

    def _check_open(self) -> None:
        """Raise ``closed`` when closed (call it holding ``_lock``)."""
        if self._closed:
            raise self.closed(f"the {self.what} was closed")

    def __enter__(self) -> Self:
        with self._lock:
            self._check_open()
            self._users += 1
        return self

    def __exit__(self, *exc: object) -> None:
        with self._lock:
            self._users -= 1
            close = self._retired and self._users == 0
        if close:
            self.close()

    def retire(self) -> None:
        """Close once the reads in flight (``with it:``) are done: a newer one replaced this one."""
        with self._lock:
            self._retired = True
            close = self._users == 0
        if close:
            self.close()

    def close(self) -> None:
        with self._lock:
            self._closed = True
            connections = self._detach()
        for connection in connections:
            connection.close()


def identity(path: Path) -> tuple[int, int] | None:
    """Which file stands at ``path`` (its device and inode; None for none): a file renamed over it is another."""
    try:
        found = os.stat(path)
    except FileNotFoundError:
        return None
    return found.st_dev, found.st_ino


R = TypeVar("R", bound=Retiring)

SWAP_WAIT = 2.0  # seconds a read waits for a refresh to swap in the file that replaced its own on disk


async def swapped(current: Callable[[], R | None], old: R, within: float = SWAP_WAIT) -> bool:
    """Whether ``current()`` is another reader than ``old`` (and not None), waiting up to ``within`` seconds for it."""
    waited = 0.0
    while current() is old and waited < within:
        await asyncio.sleep(0.02)
        waited += 0.02
    new = current()
    return new is not None and new is not old


async def replaced(current: R | None, open_new: Callable[[], R | None]) -> R | None:
    """What ``open_new()`` opens (in a worker thread), to stand in place of ``current``, which retires (it closes
    once its reads are done). Raises what opening raised, ``current`` kept then."""
    new = await asyncio.to_thread(open_new)
    if current is not None:
        current.retire()
    return new
