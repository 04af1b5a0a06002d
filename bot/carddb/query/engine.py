"""Run a search on the local card database: one query for a page of results and their count, before a deadline.

A search the limits of the grammar let through can still be more than Python's recursion or SQLite's parser
take (a deep nesting compiled to deep SQL): that is the user's search being too complex, answered as a
:class:`QueryError`, with one WARNING line a minute at most, so a stranger cannot fill the log.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Mapping
from dataclasses import dataclass, field

from bot.carddb.query.compile import Compiled, compile_query
from bot.carddb.query.grammar import QueryError, parse
from bot.carddb.query.regexp import time_limit
from bot.serving import RateLimitedLog

log = logging.getLogger(__name__)
complaints = RateLimitedLog(log)

SEARCH_SECONDS = 1.0  # a search's budget, from the moment it is asked for (the one figure the service uses too)
PAGE_SIZE = 15
TOO_COMPLEX = "That search is too complex for me to run: use fewer nested terms, or fewer terms."


def too_complex(error: BaseException, stage: str) -> QueryError:
    """The user's answer for a search that overflowed Python's recursion or SQLite's limits while ``stage``."""
    complaints.warning("A search was too complex to %s: %s", stage, type(error).__name__)
    return QueryError(TOO_COMPLEX)


@dataclass(frozen=True)
class Found:
    """One page of a search: the rowids shown, how many cards match in all, and the warnings."""

    rowids: list[int]
    total: int
    page: int
    page_size: int
    warnings: list[str] = field(default_factory=list)

    @property
    def page_count(self) -> int:
        return max(1, -(-self.total // self.page_size))


def prepare(text: str, *, formats: Mapping[str, int], within: str | None = None) -> Compiled:
    """``text`` parsed and compiled; ``within`` (a query of our own, e.g. a /cycling kind) must hold too."""
    try:
        compiled = compile_query(parse(text), formats)
        if within is not None:
            inner = compile_query(parse(within), formats)
            compiled.where = f"({inner.where}) AND ({compiled.where})"
            compiled.params = [*inner.params, *compiled.params]
            compiled.joins |= inner.joins
    except RecursionError as error:
        raise too_complex(error, "compile") from None
    return compiled


def run(
    db: sqlite3.Connection,
    compiled: Compiled,
    *,
    page: int = 0,
    page_size: int = PAGE_SIZE,
    deadline: float | None = None,
    budget: float = SEARCH_SECONDS,
) -> Found:
    """The ``page``-th page (0-based, clamped to the last) of ``compiled``'s results, before ``deadline``
    (``time.perf_counter()``; ``budget`` seconds from now when not given): past it, :class:`QueryTooSlow`."""
    if deadline is None:
        deadline = time.perf_counter() + budget
    page = max(0, page)
    sql = (
        f"SELECT s.rowid, count(*) OVER () FROM {compiled.source} WHERE {compiled.where} "  # noqa: S608
        f"ORDER BY {compiled.order} LIMIT ? OFFSET ?"
    )
    try:
        with time_limit(db, deadline, budget):
            rows = db.execute(sql, (*compiled.params, page_size, page * page_size)).fetchall()
            if not rows and page > 0:
                count_sql = f"SELECT count(*) FROM {compiled.source} WHERE {compiled.where}"  # noqa: S608
                total = db.execute(count_sql, compiled.params).fetchone()[0]
                if total:
                    last = (total - 1) // page_size
                    return run(db, compiled, page=last, page_size=page_size, deadline=deadline, budget=budget)
                return Found([], 0, 0, page_size, compiled.warnings)
    except (sqlite3.OperationalError, RecursionError) as error:  # SQLite's parser stack, its expression depth
        raise too_complex(error, "run") from None
    total = rows[0][1] if rows else 0
    return Found([row[0] for row in rows], total, page, page_size, compiled.warnings)
