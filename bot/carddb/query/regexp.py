"""Regular expressions in SQLite, matched in linear time, under the deadline of the search they are part of.

SQLite has no REGEXP of its own: :func:`install` adds ``scry_regexp(pattern, text)`` to a connection, matched
by RE2 (``google-re2``), the engine code-search services use for patterns strangers type. RE2 never
backtracks: a match takes time in proportion to the text's length times the compiled pattern's size, so
``/(a+)+$/`` is as quick as ``/a+$/``, and it lets other threads run while it matches. What it cannot match in
linear time (back-references, lookaround) is refused with one sentence, and so is a pattern whose compiled
program passes :data:`MAX_PROGRAM` (or RE2's memory budget): that size bounds the time of one match on a card's
text to a few tens of milliseconds.

:func:`time_limit` gives a search its deadline: no match starts after it, and SQLite's progress handler stops
the query between steps once it has passed, so a search holds its thread at most one match past its budget.
Deadlines are ``time.perf_counter()`` readings: wall-clock time, the same in every thread.
:func:`literal_filters` finds strings every match must contain, so a query looks for those first and runs the
expression on far fewer rows. Case does not matter, and ``^`` and ``$`` match at each line: each face's text
and each ability.
"""

from __future__ import annotations

import contextlib
import functools
import sqlite3
import threading
import time
from collections.abc import Iterator

from re2 import _re2

from bot.carddb.query.grammar import QueryError

try:  # the standard library's own regular expression parser, used only to read a pattern's structure
    from re import _parser as sre_parse
except ImportError:  # pragma: no cover - Python < 3.11
    import sre_parse  # type: ignore[no-redef]

MAX_PATTERN = 200
# Instructions of the compiled pattern: one match costs at most about this times the text's length in steps
# (3 ns each on this project's benchmark machine: under 60 ms on the longest card text).
MAX_PROGRAM = 10_000
# RE2's own budget for one pattern, its program and its matching machine: compiling stops as soon as a pattern
# passes it, so a huge pattern is refused in milliseconds (RE2 compiles holding the GIL: at its default 8 MB, a
# pattern of 144,000 instructions held every thread for 0.75 s before being refused).
MEMORY_BYTES = 1 << 20
PROGRESS_STEPS = 5000
MIN_LITERAL = 3
MAX_FILTERS = 3
_ANYWHERE = _re2.RE2.Anchor.UNANCHORED
_NO_MATCH = (-1, -1)
_state = threading.local()

LINEAR_ONLY = (
    "Back-references (\\1), lookaround ((?=…), (?!…), (?<=…), (?<!…)), atomic groups and possessive repeats can't "
    "be used in a search's regular expressions: I only run patterns that match in linear time."
)
TOO_LARGE = (
    "That regular expression is too large to match quickly (its repeats add up to too much): use smaller counts "
    "than {0,999}, or fewer of them."
)


class QueryTooSlow(QueryError):
    pass


# What Python's parser names the parts RE2 cannot match: back-references and lookaround.
_NOT_LINEAR = frozenset({"GROUPREF", "GROUPREF_EXISTS", "ASSERT", "ASSERT_NOT", "ATOMIC_GROUP", "POSSESSIVE_REPEAT"})


def _operations(items) -> Iterator[str]:
    """The names of every operation in a pattern parsed by Python's parser, nested ones included."""
    for op, arg in items:
        yield str(op)
        for part in arg if isinstance(arg, tuple) else (arg,):
            if isinstance(part, sre_parse.SubPattern):
                yield from _operations(part)
            elif isinstance(part, list) and part and isinstance(part[0], sre_parse.SubPattern):
                for branch in part:
                    yield from _operations(branch)


def _options() -> _re2.RE2.Options:
    options = _re2.RE2.Options()
    options.case_sensitive = False
    options.never_capture = True  # a yes or no is all a search asks: no groups to track
    options.log_errors = False
    options.max_mem = MEMORY_BYTES
    return options


_OPTIONS = _options()


@functools.lru_cache(maxsize=256)
def compiled(pattern: str) -> _re2.RE2:
    """``pattern`` compiled for searches (case-insensitive, ``^``/``$`` at each line); raises :class:`QueryError`
    with one sentence for a pattern that is too long, unreadable, not linear-time or too large."""
    if len(pattern) > MAX_PATTERN:
        raise QueryError(f"That regular expression is {len(pattern)} characters long; keep it under {MAX_PATTERN}.")
    try:
        backtracks = not _NOT_LINEAR.isdisjoint(_operations(sre_parse.parse(pattern)))
    except Exception:  # RE2's own syntax, or nonsense: RE2 says which
        backtracks = False
    if backtracks:
        raise QueryError(LINEAR_ONLY)
    machine = _re2.RE2(("(?m)" + pattern).encode("utf-8"), _OPTIONS)
    if not machine.ok():
        error = machine.error().decode("utf-8", "replace")
        if "too large" in error or "bad repetition" in error or "repetition size" in error:
            raise QueryError(TOO_LARGE)
        if "Perl syntax" in error and "(?" in error or "escape sequence: \\1" in error:
            raise QueryError(LINEAR_ONLY)
        error = error.replace("(?m)", "", 1)  # the flag is ours, not the user's
        raise QueryError(f"/{pattern}/ isn't a regular expression I can read: {error}.")
    if machine.ProgramSize() > MAX_PROGRAM:
        raise QueryError(TOO_LARGE)
    return machine


def check(pattern: str) -> None:
    """Raise :class:`QueryError` for a pattern a search cannot run (see :func:`compiled`)."""
    compiled(pattern)


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
    except Exception:  # RE2's own syntax: no shortcut, the expression runs on every row
        return []
    sets = [group for group in _required(list(parsed)) if all(len(text) >= MIN_LITERAL for text in group)]
    sets.sort(key=lambda group: -min(map(len, group)))
    return sets[:MAX_FILTERS]


def matches(pattern: str, text: str) -> bool:
    """Whether ``pattern`` (checked by :func:`compiled`) matches somewhere in ``text``."""
    data = text.encode("utf-8")
    return compiled(pattern).Match(_ANYWHERE, data, 0, len(data))[0] != _NO_MATCH


def _regexp(pattern: str, text: str | None) -> bool:
    if text is None:
        return False
    if time.perf_counter() > getattr(_state, "deadline", float("inf")):
        _state.timed_out = True
        raise QueryTooSlow("past the search's deadline")  # SQLite stops the query
    return matches(pattern, text)


def install(db: sqlite3.Connection) -> None:
    db.create_function("scry_regexp", 2, _regexp, deterministic=True)


def too_slow(seconds: float) -> QueryTooSlow:
    return QueryTooSlow(
        f"That search took over {seconds:g} s and was stopped: narrow it down (a type, a colour, a word it must "
        "contain) or make its regular expressions simpler."
    )


@contextlib.contextmanager
def time_limit(db: sqlite3.Connection, deadline: float, budget: float) -> Iterator[None]:
    """Run the query inside before ``deadline`` (``time.perf_counter()``), or raise :class:`QueryTooSlow` (which
    names ``budget``, the seconds the search was given)."""
    if time.perf_counter() >= deadline:
        raise too_slow(budget)
    _state.deadline = deadline
    _state.timed_out = False
    db.set_progress_handler(lambda: time.perf_counter() > deadline, PROGRESS_STEPS)
    try:
        yield
    except sqlite3.OperationalError as error:
        if _state.timed_out or "interrupted" in str(error):
            raise too_slow(budget) from None
        raise
    finally:
        db.set_progress_handler(None, 0)
        _state.deadline = float("inf")
