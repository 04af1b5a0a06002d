"""A file read while a newer one may replace it: reads hold it (``with it:``), and a retired one closes once the
reads in flight are done. The card data's copy and its printed names each are one."""

from __future__ import annotations

import asyncio
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
        self._lock = threading.Lock()
        self._users = 0
        self._retired = False
        self._closed = False

    def _detach(self) -> list[Any]:
        raise NotImplementedError

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


R = TypeVar("R", bound=Retiring)


async def replaced(current: R | None, open_new: Callable[[], R | None]) -> R | None:
    """What ``open_new()`` opens (in a worker thread), to stand in place of ``current``, which retires (it closes
    once its reads are done). Raises what opening raised, ``current`` kept then."""
    new = await asyncio.to_thread(open_new)
    if current is not None:
        current.retire()
    return new
