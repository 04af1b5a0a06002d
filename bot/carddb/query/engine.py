"""Run a search on the local card database: one query for a page of results and their count."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass, field

from bot.carddb.query.compile import Compiled, compile_query
from bot.carddb.query.grammar import parse
from bot.carddb.query.regexp import time_limit

SEARCH_SECONDS = 1.0
PAGE_SIZE = 15


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
    compiled = compile_query(parse(text), formats)
    if within is not None:
        inner = compile_query(parse(within), formats)
        compiled.where = f"({inner.where}) AND ({compiled.where})"
        compiled.params = [*inner.params, *compiled.params]
        compiled.joins |= inner.joins
    return compiled


def run(
    db: sqlite3.Connection,
    compiled: Compiled,
    *,
    page: int = 0,
    page_size: int = PAGE_SIZE,
    seconds: float = SEARCH_SECONDS,
) -> Found:
    """The ``page``-th page (0-based, clamped to the last) of ``compiled``'s results, within ``seconds``."""
    page = max(0, page)
    sql = (
        f"SELECT s.rowid, count(*) OVER () FROM {compiled.source} WHERE {compiled.where} "  # noqa: S608
        f"ORDER BY {compiled.order} LIMIT ? OFFSET ?"
    )
    with time_limit(db, seconds):
        rows = db.execute(sql, (*compiled.params, page_size, page * page_size)).fetchall()
        if not rows and page > 0:
            count_sql = f"SELECT count(*) FROM {compiled.source} WHERE {compiled.where}"  # noqa: S608
            total = db.execute(count_sql, compiled.params).fetchone()[0]
            if total:
                last = (total - 1) // page_size
                return run(db, compiled, page=last, page_size=page_size, seconds=seconds)
            return Found([], 0, 0, page_size, compiled.warnings)
    total = rows[0][1] if rows else 0
    return Found([row[0] for row in rows], total, page, page_size, compiled.warnings)
