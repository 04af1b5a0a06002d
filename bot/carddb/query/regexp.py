"""Regular expressions in SQLite, with a time limit a whole search shares.

SQLite has no REGEXP of its own: :func:`install` adds ``scry_regexp(pattern, text)`` to a
connection, run by the ``regex`` package, which can stop a match after a timeout (Python's ``re``
cannot) and releases the GIL while matching. :func:`time_limit` gives one search a deadline: no
match may take longer than the whole budget, and SQLite's progress handler stops the query between
rows once the deadline is past. :func:`literal_filters` finds strings every match must contain, so
a query looks for those first and runs the expression on far fewer rows.
Case does not matter, and ``^`` and ``$`` match at each line: each face's text and each ability.
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

try:  # the standard library's own regular expression parser, used only to read a pattern's literals
    from re import _parser as sre_parse
except ImportError:  # pragma: no cover - Python < 3.11
    import sre_parse  # type: ignore[no-redef]

MAX_PATTERN = 200
PROGRESS_STEPS = 5000
MIN_LITERAL = 3
MAX_FILTERS = 3
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


UNBOUNDED = sre_parse.MAXREPEAT
REPEATS = ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT")


def _risk(items, inside_repeat: bool = False) -> tuple[bool, int]:
    """Whether a parsed pattern can backtrack without bound, and how many unbounded repeats it holds."""
    unbounded = 0
    for op, arg in items:
        name = str(op)
        if name in ("GROUPREF", "GROUPREF_EXISTS"):
            return True, unbounded
        if name in REPEATS:
            low, high, body = arg
            if high > 1 and inside_repeat:
                return True, unbounded
            unbounded += high == UNBOUNDED
            risky, inner = _risk(body, inside_repeat or high > 1)
            if risky:
                return True, unbounded
            unbounded += inner
        elif name == "SUBPATTERN":
            risky, inner = _risk(arg[-1], inside_repeat)
            if risky:
                return True, unbounded
            unbounded += inner
        elif name == "BRANCH":
            if inside_repeat:
                return True, unbounded
            for branch in arg[1]:
                risky, inner = _risk(branch, inside_repeat)
                if risky:
                    return True, unbounded
                unbounded += inner
        elif name in ("ASSERT", "ASSERT_NOT"):
            risky, inner = _risk(arg[1], inside_repeat)
            if risky or inner:
                return True, unbounded
    return False, unbounded


def risky(pattern: str) -> bool:
    """Whether ``pattern`` may take exponential (or high polynomial) time: nested or alternating repeats,
    backreferences, or three unbounded repeats. Such a pattern is matched with a timeout on each row;
    the others, whose time on one card's text is small and bounded, only under the search's deadline."""
    try:
        found, unbounded = _risk(list(sre_parse.parse(pattern)))
    except Exception:  # regex's own syntax: assume the worst
        return True
    return found or unbounded >= 3


@functools.lru_cache(maxsize=256)
def _compiled(pattern: str) -> tuple[regex.Pattern, bool]:
    return regex.compile(pattern, regex.IGNORECASE | regex.MULTILINE | regex.V0), risky(pattern)


def _required(items) -> list[frozenset[str]]:
    """Sets of literals, each set holding one string every match must contain (one of the set), longest first."""
    found: list[frozenset[str]] = []
    run = ""

    def close() -> None:
        nonlocal run
        if len(run) >= MIN_LITERAL:
            found.append(frozenset({run}))
        run = ""

    for op, arg in items:
        name = str(op)
        if name == "LITERAL":
            run += chr(arg).lower()
            continue
        close()
        if name == "SUBPATTERN":
            found.extend(_required(arg[-1]))
        elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT") and arg[0] >= 1:
            found.extend(_required(arg[2]))
        elif name == "BRANCH":
            alternatives = [_required(branch) for branch in arg[1]]
            if all(alternatives):
                best = (max(alternative, key=lambda group: min(map(len, group))) for alternative in alternatives)
                found.append(frozenset().union(*best))
    close()
    return found


def literal_filters(pattern: str) -> list[frozenset[str]]:
    """Strings, lower case, that every match of ``pattern`` must contain (one of each set): a query checks
    them with ``instr`` first, so the expression runs only on the rows that can match."""
    try:
        parsed = sre_parse.parse(pattern)
    except Exception:  # regex's own syntax: no shortcut, the expression runs on every row
        return []
    sets = [group for group in _required(list(parsed)) if all(len(text) >= MIN_LITERAL for text in group)]
    sets.sort(key=lambda group: -min(map(len, group)))
    return sets[:MAX_FILTERS]


def _regexp(pattern: str, text: str | None) -> bool:
    if text is None:
        return False
    compiled, slow = _compiled(pattern)
    if not slow:  # bounded on one text; between rows SQLite's progress handler keeps the deadline
        return compiled.search(text) is not None
    try:
        return compiled.search(text, timeout=_state.budget, concurrent=True) is not None
    except TimeoutError:
        _state.timed_out = True
        raise


def install(db: sqlite3.Connection) -> None:
    db.create_function("scry_regexp", 2, _regexp, deterministic=True)


@contextlib.contextmanager
def time_limit(db: sqlite3.Connection, seconds: float) -> Iterator[None]:
    """Run the query inside within ``seconds``, or raise :class:`QueryTooSlow`."""
    deadline = time.monotonic() + seconds
    _state.budget = seconds
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
        db.set_progress_handler(None, 0)
