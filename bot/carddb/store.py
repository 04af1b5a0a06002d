"""Read-only queries on the local card database: names users trust, autocomplete, cycling, decklists.

A :class:`CardStore` reads one database file that the importer built and will never change in
place (a refresh renames a new file over it; open connections keep reading the old one). Its
methods block for well under a millisecond on an indexed query and may be called from any thread:
each thread gets its own connection, and a thread whose first connection would open the newer file
is refused (``CardDataError``) rather than read another copy than the store's.

Finding the card a name means is :class:`bot.carddb.finder.NameFinder`'s; the store hands it its connection.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
from collections.abc import Iterable, Sequence
from functools import cached_property
from pathlib import Path
from typing import Any

from bot.carddb.finder import MAX_CANDIDATES, NameFinder
from bot.carddb.importer import FORMAT
from bot.carddb.kinds import KINDS
from bot.carddb.lifetime import Retiring
from bot.carddb.query import PAGE_SIZE, SEARCH_SECONDS, install_regexp, prepare_search, run_search
from bot.carddb.records import COLUMNS, CardRecord, DataInfo, NameMatch, SearchPage

log = logging.getLogger(__name__)

MMAP_BYTES = 512 * 1024 * 1024


class CardDataError(Exception):
    """The local card data is missing, unreadable or of another format."""


class CardStore(Retiring):
    """``CardStore(path)``: the database at ``path``, opened read-only."""

    closed = CardDataError
    what = "card data"

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self._local = threading.local()
        self._connections: list[sqlite3.Connection] = []
        self._names = NameFinder(self._db, self._records)
        self.derived: dict[str, Any] = {}  # what features build once from this copy (CardData.derived)
        self.meta: dict[str, str] = self._meta(self._db(), FORMAT)

    # ------------------------------------------------------------------ lifetime (see Retiring)

    def _db(self) -> sqlite3.Connection:
        db = getattr(self._local, "db", None)
        if db is None:
            with self._lock:
                self._check_open()
                db = self._connect()
                install_regexp(db)
                # Searches scan the search tables whole: mapped, the pages are read in place, not copied per query.
                db.execute(f"PRAGMA mmap_size = {MMAP_BYTES}")
                self._connections.append(db)
            self._local.db = db
        return db

    def _detach(self) -> list[sqlite3.Connection]:
        connections, self._connections = self._connections, []
        return connections

    # ------------------------------------------------------------------ facts

    @property
    def count(self) -> int:
        return int(self.meta["count"])

    def info(self) -> DataInfo:
        return DataInfo(
            path=self.path,
            updated_at=self.meta["updated_at"],
            imported_at=self.meta["imported_at"],
            count=self.count,
            size_bytes=self.size_bytes,
            source=self.meta.get("source", ""),
        )

    # ------------------------------------------------------------------ rows

    def _records(self, rowids: Sequence[int]) -> list[CardRecord]:
        if not rowids:
            return []
        marks = ", ".join("?" * len(rowids))
        rows = self._db().execute(f"SELECT {COLUMNS} FROM cards WHERE rowid IN ({marks})", tuple(rowids))  # noqa: S608
        by_id = {row[0]: CardRecord.from_row(row, self.meta.get("prices_date")) for row in rows}
        return [by_id[rowid] for rowid in dict.fromkeys(rowids) if rowid in by_id]

    @property
    def has_rulings(self) -> bool:
        """Whether a rulings file was imported with this copy (a card may still have none)."""
        return bool(self.meta.get("rulings_updated_at"))

    def rulings(self, oracle_id: str | None) -> list[dict[str, str]]:
        """The card's rulings, oldest first, shaped like Scryfall's ruling objects."""
        if not oracle_id:
            return []
        try:
            rows = (
                self._db()
                .execute(
                    "SELECT source, published_at, comment FROM rulings WHERE oracle_id = ? "
                    "ORDER BY published_at, rowid",
                    (oracle_id,),
                )
                .fetchall()
            )
        except sqlite3.OperationalError:  # a copy imported before rulings were
            return []
        return [
            {
                "object": "ruling",
                "oracle_id": oracle_id,
                "source": source,
                "published_at": published,
                "comment": comment,
            }
            for source, published, comment in rows
        ]

    def name_rows(self) -> list[tuple[str, int, int]]:
        """Every name a real card answers to: (normalised name, card rowid, whether it is a face's name)."""
        return (
            self._db()
            .execute(
                "SELECT n.norm, n.card, n.is_face FROM names n JOIN cards c ON c.rowid = n.card WHERE c.extra IS NULL"
            )
            .fetchall()
        )

    def legend_rows(self) -> list[tuple[str, int]]:
        """Every real legendary card: (name, card rowid), for finding one by its first name."""
        return (
            self._db()
            .execute("SELECT name, rowid FROM cards WHERE extra IS NULL AND type_line LIKE 'Legendary%'")
            .fetchall()
        )

    def name_entries(self) -> list[tuple[int, str, int, list[str]]]:
        """Every real card for a name matcher: (rowid, name, whether it is digital only, its games), and
        ``name_rows`` for the names each answers to."""
        rows = self._db().execute(
            "SELECT rowid, name, digital_only, games FROM cards WHERE extra IS NULL ORDER BY rowid"
        )
        return [(rowid, name, digital_only, json.loads(games)) for rowid, name, digital_only, games in rows]

    def oracle_rowids(self) -> dict[str, int]:
        """Every real card's oracle id, with its rowid (the card a printed name names)."""
        rows = self._db().execute("SELECT oracle_id, rowid FROM cards WHERE extra IS NULL AND oracle_id IS NOT NULL")
        return dict(rows)

    def by_oracle(self, oracle_ids: Iterable[str]) -> dict[str, CardRecord]:
        """The card of each oracle id the copy holds (a real card before a token or other extra of the same id)."""
        wanted = list(dict.fromkeys(oracle_ids))
        if not wanted:
            return {}
        marks = ", ".join("?" * len(wanted))
        rows = self._db().execute(
            f"SELECT oracle_id, rowid FROM cards WHERE oracle_id IN ({marks}) ORDER BY extra IS NOT NULL, rowid",  # noqa: S608
            wanted,
        )
        first: dict[str, int] = {}
        for oracle, rowid in rows:
            first.setdefault(oracle, rowid)
        records = {record.rowid: record for record in self._records(list(first.values()))}
        return {oracle: records[rowid] for oracle, rowid in first.items() if rowid in records}

    def records(self, rowids: Sequence[int]) -> list[CardRecord]:
        return self._records(rowids)

    def by_id(self, scryfall_id: str) -> CardRecord | None:
        row = self._db().execute("SELECT rowid FROM cards WHERE id = ?", (scryfall_id,)).fetchone()
        return self._records([row[0]])[0] if row else None

    # ------------------------------------------------------------------ names

    def named(self, query: str, *, extras: bool = False, indexed_only: bool = False) -> NameMatch | None:
        """The card a user means by ``query`` (see :meth:`NameFinder.named`)."""
        return self._names.named(query, extras=extras, indexed_only=indexed_only)

    def autocomplete(self, prefix: str, limit: int = MAX_CANDIDATES) -> list[str]:
        """Card names for what has been typed (see :meth:`NameFinder.autocomplete`)."""
        return self._names.autocomplete(prefix, limit)

    # ------------------------------------------------------------------ lists

    def cycling(self, kind: str = "any") -> list[CardRecord]:
        """Every real card with ``kind`` of cycling (the kinds of /cycling), by name."""
        if kind not in KINDS:
            raise ValueError(f"unknown cycling kind {kind!r}; one of {', '.join(KINDS)}")
        rows = self._db().execute(
            "SELECT k.card FROM cycling_kinds k JOIN cards c ON c.rowid = k.card "
            "WHERE k.kind = ? AND c.extra IS NULL ORDER BY c.norm",
            (kind,),
        )
        return self._records([row[0] for row in rows])

    @cached_property
    def formats(self) -> dict[str, int]:
        """The formats the data has legalities for, each with its bit in ``search_cards``' legality masks."""
        return json.loads(self.meta.get("formats") or "{}")

    def search(
        self,
        query: str,
        *,
        page: int = 0,
        page_size: int = PAGE_SIZE,
        within: str | None = None,
        deadline: float | None = None,
        budget: float = SEARCH_SECONDS,
    ) -> SearchPage:
        """One page of the cards matching ``query`` in Scryfall's syntax (see ``bot.carddb.query``).

        ``within``: a query of our own that must hold too (a /cycling kind). ``deadline`` (``time.perf_counter()``,
        ``budget`` seconds from now when not given): when the search must be done. Raises ``QueryError``
        (with the reason) for a search that cannot run, ``QueryTooSlow`` past the deadline, ``NeedsScryfall``
        for one only Scryfall answers.
        """
        compiled = prepare_search(query, within=within, formats=self.formats)
        found = run_search(self._db(), compiled, page=page, page_size=page_size, deadline=deadline, budget=budget)
        return SearchPage(
            cards=self._records(found.rowids),
            total=found.total,
            page=found.page,
            page_size=found.page_size,
            warnings=tuple(found.warnings),
        )

    def search_all(
        self, query: str, *, within: str | None = None, limit: int = 5000, deadline: float | None = None
    ) -> SearchPage:
        """Every card matching ``query`` (at most ``limit``) in its order, as one page."""
        return self.search(query, page_size=limit, within=within, deadline=deadline)

    def collection(self, names: Iterable[str]) -> dict[str, CardRecord | None]:
        """Each name of a decklist with its card (exact name, then a face's name), or None."""
        found: dict[str, CardRecord | None] = {}
        for name in names:
            found[name] = self._names.exact(name)
        return found
