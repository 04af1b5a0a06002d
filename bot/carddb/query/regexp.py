"""Regular expressions in SQLite, with a time limit a whole search shares.

SQLite has no REGEXP of its own: :func:`install` adds ``scry_regexp(pattern, text)`` to a
connection, run by the ``regex`` package, which can stop a match after a timeout (Python's ``re``
cannot) and releases the GIL while matching. :func:`time_limit` gives one search a deadline: each
match gets the time left, and SQLite's progress handler stops the query itself once it is past.
"""

from __future__ import annotations

import contextlib
import functools
import sqlite3
import threading
import time
from collections.abc import Iterator

import regex

from bot.carddb.query.grammar import QueryError

MAX_PATTERN = 200
PROGRESS_STEPS = 5000
_state = threading.local()


class QueryTooSlow(QueryError):
    pass


def check(pattern: str) -> None:
    """Raise :class:`QueryError` for a pattern too long or that does not compile."""
    if len(pattern) > MAX_PATTERN:
        raise QueryError(f"That regular expression is {len(pattern)} characters long; keep it under {MAX_PATTERN}.")
    try:
        _compiled(pattern)
    except regex.error as error:
        raise QueryError(f"/{pattern}/ isn't a regular expression I can read: {error}.") from None


@functools.lru_cache(maxsize=256)
def _compiled(pattern: str) -> regex.Pattern:
    return regex.compile(pattern, regex.IGNORECASE | regex.V0)


def _regexp(pattern: str, text: str | None) -> bool:
    if text is None:
        return False
    deadline = getattr(_state, "deadline", None)
    remaining = None if deadline is None else deadline - time.monotonic()
    if remaining is not None and remaining <= 0:
        _state.timed_out = True
        raise TimeoutError("search time limit")
    try:
        return _compiled(pattern).search(text, timeout=remaining, concurrent=True) is not None
    except TimeoutError:
        _state.timed_out = True
        raise


def install(db: sqlite3.Connection) -> None:
    db.create_function("scry_regexp", 2, _regexp, deterministic=True)


@contextlib.contextmanager
def time_limit(db: sqlite3.Connection, seconds: float) -> Iterator[None]:
    """Run the query inside within ``seconds``, or raise :class:`QueryTooSlow`."""
    deadline = time.monotonic() + seconds
    _state.deadline = deadline
    _state.timed_out = False
    db.set_progress_handler(lambda: time.monotonic() > deadline, PROGRESS_STEPS)
    try:
        yield
    except sqlite3.OperationalError as error:
        if _state.timed_out or "interrupted" in str(error):
            raise QueryTooSlow(
                f"That search took over {seconds:g} s and was stopped. A regular expression such as /(a+)+$/ can "
                "take forever to match: make it simpler."
            ) from None
        raise
    finally:
        _state.deadline = None
        db.set_progress_handler(None, 0)
