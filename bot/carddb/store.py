"""Read-only queries on the local card database: names users trust, autocomplete, cycling, decklists.

A :class:`CardStore` reads one database file that the importer built and will never change in
place (a refresh renames a new file over it; open connections keep reading the old one). Its
methods block for well under a millisecond on an indexed query and may be called from any thread:
each thread gets its own connection.

The name-trust order of :meth:`CardStore.named`: the exact name, then the exact name of any face
(split, adventure, modal and transforming double-faced cards), then a whole-word prefix, then a
prefix, then a fuzzy match, then whole words inside a name. Paper first: a partial or misspelt name that finds
only digital-only cards (Alchemy's "Gitrog, Horror of Zhava" for "gitrog") goes on to the later steps, and the
digital card is the answer only when no step finds a paper one. Within a step real cards always come
first; tokens, emblems, art series, memorabilia, playtest and digital rebalanced ``A-`` cards are
considered only when the caller asks for them (``extras=True``, or a name starting with ``A-``), or, when no step
finds a real card, the one token or emblem named in full ("The Monarch"). When several cards fit
equally well, the answer is their list, for a picker, not a guess.
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

from rapidfuzz import fuzz, process

from bot.carddb.importer import FORMAT
from bot.carddb.kinds import KINDS
from bot.carddb.names import asks_for_rebalanced, normalise
from bot.carddb.query import PAGE_SIZE, SEARCH_SECONDS, install_regexp, prepare_search, run_search
from bot.carddb.records import COLUMNS, CardRecord, DataInfo, NameMatch, SearchPage

log = logging.getLogger(__name__)

MAX_QUERY = 200
MMAP_BYTES = 512 * 1024 * 1024
MAX_CANDIDATES = 25
PREFIX_ROWS = 200
FUZZY_CUTOFF = 75.0
FUZZY_CLOSE = 3.0
FUZZY_WORD_BUCKET = 2000
# Steps that find the name as typed: there a digital-only card is what was asked for.
EXACT_STEPS = frozenset({"exact", "face"})
# Sorts after every character a normalised name holds.
HIGH = "\uffff"


class _FuzzyIndex:
    """Every name, bucketed so a misspelling is compared with a few hundred names, not all of them.

    A name is a candidate when it starts with the query's first two letters or shares a whole word
    with it: a misspelling that gets every word and the first two letters wrong is not looked for.
    """

    def __init__(self, rows: Iterable[tuple[str, int, int]]) -> None:
        self.norms: list[str] = []
        self.cards: list[int] = []
        self.real: list[bool] = []
        self.by_start: dict[str, list[int]] = {}
        self.by_word: dict[str, list[int]] = {}
        for index, (norm, card, is_real) in enumerate(rows):
            self.norms.append(norm)
            self.cards.append(card)
            self.real.append(bool(is_real))
            self.by_start.setdefault(norm[:2], []).append(index)
            for word in set(norm.split()):
                self.by_word.setdefault(word, []).append(index)

    def candidates(self, norm: str) -> dict[int, str]:
        found = set(self.by_start.get(norm[:2], ()))
        for word in set(norm.split()):
            bucket = self.by_word.get(word, ())
            if len(bucket) <= FUZZY_WORD_BUCKET:  # "of", "the": too common to narrow anything
                found.update(bucket)
        return {index: self.norms[index] for index in found}


class CardDataError(Exception):
    """The local card data is missing, unreadable or of another format."""


class CardStore:
    """``CardStore(path)``: the database at ``path``, opened read-only."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        if not self.path.exists():
            raise CardDataError(f"no card data at {self.path.name}")
        self._local = threading.local()
        self._lock = threading.Lock()
        self._connections: list[sqlite3.Connection] = []
        self._users = 0
        self._retired = False
        self._closed = False
        self._fuzzy: _FuzzyIndex | None = None
        self.derived: dict[str, Any] = {}  # what features build once from this copy (CardData.derived)
        try:
            self.meta: dict[str, str] = dict(self._db().execute("SELECT key, value FROM meta"))
        except sqlite3.Error as error:
            self.close()
            raise CardDataError(f"the card data at {self.path.name} is unreadable: {error}") from error
        if self.meta.get("format") != FORMAT:
            self.close()
            raise CardDataError(f"the card data at {self.path.name} is of format {self.meta.get('format')!r}")
        self.size_bytes = self.path.stat().st_size

    # ------------------------------------------------------------------ lifetime

    def _db(self) -> sqlite3.Connection:
        db = getattr(self._local, "db", None)
        if db is None:
            with self._lock:
                if self._closed:
                    raise CardDataError("the card data was closed")
                # immutable: the file is never written in place, so readers need no locks.
                db = sqlite3.connect(f"file:{self.path}?mode=ro&immutable=1", uri=True, check_same_thread=False)
                install_regexp(db)
                # Searches scan the search tables whole: mapped, the pages are read in place, not copied per query.
                db.execute(f"PRAGMA mmap_size = {MMAP_BYTES}")
                self._connections.append(db)
            self._local.db = db
        return db

    def __enter__(self) -> CardStore:
        with self._lock:
            if self._closed:
                raise CardDataError("the card data was closed")
            self._users += 1
        return self

    def __exit__(self, *exc: object) -> None:
        with self._lock:
            self._users -= 1
            close = self._retired and self._users == 0
        if close:
            self.close()

    def retire(self) -> None:
        """Close once the reads in flight (``with store:``) are done: a newer copy replaced this one."""
        with self._lock:
            self._retired = True
            close = self._users == 0
        if close:
            self.close()

    def close(self) -> None:
        with self._lock:
            self._closed = True
            connections, self._connections = self._connections, []
        for db in connections:
            db.close()

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

    def name_entries(self) -> list[tuple[int, str, int, list[str]]]:
        """Every real card for a name matcher: (rowid, name, whether it is digital only, its games), and
        ``name_rows`` for the names each answers to."""
        rows = self._db().execute(
            "SELECT rowid, name, digital_only, games FROM cards WHERE extra IS NULL ORDER BY rowid"
        )
        return [(rowid, name, digital_only, json.loads(games)) for rowid, name, digital_only, games in rows]

    def records(self, rowids: Sequence[int]) -> list[CardRecord]:
        return self._records(rowids)

    def by_id(self, scryfall_id: str) -> CardRecord | None:
        row = self._db().execute("SELECT rowid FROM cards WHERE id = ?", (scryfall_id,)).fetchone()
        return self._records([row[0]])[0] if row else None

    # ------------------------------------------------------------------ names

    def _choose(self, rowids: Sequence[int], how: str, allow_extras: bool) -> NameMatch | None:
        """Pick among cards found by one step; whole records are read only for the answer."""
        if not rowids:
            return None
        marks = ", ".join("?" * len(rowids))
        light = self._db().execute(
            f"SELECT rowid, name, extra, digital_only FROM cards WHERE rowid IN ({marks})",  # noqa: S608
            tuple(rowids),
        )
        found = light.fetchall()
        real = [row for row in found if row[2] is None]
        pool = real or (found if allow_extras else [])
        if how not in EXACT_STEPS:
            # Paper first: a partial or misspelt name means a paper card when one fits.
            pool = [row for row in pool if not row[3]] or pool
        if not pool:
            return None
        if len(pool) == 1:
            return NameMatch(self._records([pool[0][0]])[0], how=how)
        ranked = sorted(pool, key=lambda row: (row[3], len(row[1]), row[1]))[:MAX_CANDIDATES]
        return NameMatch(None, tuple(self._records([row[0] for row in ranked])), how=how)

    def _exact(self, norm: str, is_face: int) -> list[int]:
        rows = self._db().execute("SELECT card FROM names WHERE norm = ? AND is_face = ?", (norm, is_face))
        return [row[0] for row in rows]

    def _range(self, low: str, high: str, allow_extras: bool, limit: int = PREFIX_ROWS) -> list[int]:
        rows = self._db().execute(
            "SELECT n.card FROM names n JOIN cards c ON c.rowid = n.card "
            "WHERE n.norm >= ? AND n.norm < ? AND (c.extra IS NULL OR ?) "
            "ORDER BY c.extra IS NOT NULL, length(n.norm), n.norm LIMIT ?",
            (low, high, allow_extras, limit),
        )
        return list(dict.fromkeys(row[0] for row in rows))

    def _words(self, norm: str, allow_extras: bool) -> list[int]:
        rows = self._db().execute(
            "SELECT t.card FROM name_tails t JOIN cards c ON c.rowid = t.card "
            "WHERE (t.tail = ? OR (t.tail >= ? AND t.tail < ?)) AND (c.extra IS NULL OR ?) "
            "ORDER BY c.extra IS NOT NULL, length(c.norm), c.norm LIMIT ?",
            (norm, norm + " ", norm + "!", allow_extras, PREFIX_ROWS),
        )
        return list(dict.fromkeys(row[0] for row in rows))

    def named(self, query: str, *, extras: bool = False, indexed_only: bool = False) -> NameMatch | None:
        """The card a user means by ``query``, or the candidates when it is a close call.

        ``indexed_only``: only the steps read straight off an index (exact, face, prefixes), which
        take well under a millisecond; None when the slower fuzzy and word steps would be needed.
        """
        norm = normalise(query[:MAX_QUERY])
        if not norm:
            return NameMatch(None)
        allow = extras or asks_for_rebalanced(query)
        steps = (
            ("exact", lambda: self._exact(norm, 0)),
            ("face", lambda: self._exact(norm, 1)),
            # "lightning" → "Lightning Bolt", but not "Lightningform"
            ("word_prefix", lambda: self._range(norm + " ", norm + "!", allow)),
            ("prefix", lambda: self._range(norm, norm + HIGH, allow)),
            ("fuzzy", lambda: self._fuzzy_ids(norm, allow)),
            # Last, whole words inside a name: "phoenix" → "Chandra's Phoenix" (never "nix" → "Phoenix").
            ("word", lambda: self._words(norm, allow)),
        )
        digital: NameMatch | None = None  # a digital-only answer, kept until no later step finds a paper card
        for how, find in steps:
            if indexed_only and how == "fuzzy":
                return None
            match = self._choose(find(), how, allow)
            if match is None:
                continue
            if how in EXACT_STEPS or not match.digital_only:
                return match
            digital = digital or match
        return digital or self._named_extra(norm) or NameMatch(None)

    def _named_extra(self, norm: str) -> NameMatch | None:
        """The one token or emblem with exactly this name (or a face's), when no real card answered: "The Monarch"
        means that token, and a miss or some other card's name would not help. Art series cards stay out (their
        name is the real card's, twice), and so do names many tokens share ("Soldier")."""
        rows = (
            self._db()
            .execute(
                "SELECT DISTINCT n.card, n.is_face FROM names n JOIN cards c ON c.rowid = n.card "
                "WHERE n.norm = ? AND c.extra IS NOT NULL AND c.layout != 'art_series' ORDER BY n.is_face",
                (norm,),
            )
            .fetchall()
        )
        if len({card for card, _ in rows}) != 1:
            return None
        return NameMatch(self._records([rows[0][0]])[0], how="face" if rows[0][1] else "exact")

    def _fuzzy_index(self) -> _FuzzyIndex:
        if self._fuzzy is None:
            rows = self._db().execute(
                "SELECT n.norm, n.card, c.extra IS NULL FROM names n JOIN cards c ON c.rowid = n.card"
            )
            self._fuzzy = _FuzzyIndex(rows)
        return self._fuzzy

    def _fuzzy_ids(self, norm: str, allow_extras: bool) -> list[int]:
        index = self._fuzzy_index()
        hits = process.extract(norm, index.candidates(norm), scorer=fuzz.ratio, limit=20, score_cutoff=FUZZY_CUTOFF)
        hits = [hit for hit in hits if allow_extras or index.real[hit[2]]]
        if not hits:
            return []
        best = hits[0][1]
        # Only the matches about as good as the best: a clear winner is returned, a tie is a picker.
        return list(dict.fromkeys(index.cards[key] for _, score, key in hits if score >= best - FUZZY_CLOSE))

    def autocomplete(self, prefix: str, limit: int = MAX_CANDIDATES) -> list[str]:
        """Up to ``limit`` real card names starting with ``prefix`` (a face's name counts), then names
        with a later word starting with it; each group in alphabetical order, read straight off an index.
        A prefix starting with ``A-`` asks for Alchemy's rebalanced cards: theirs come first, as the lookup finds
        them. When no real name starts so, the one token or emblem named in full is the answer ("The Monarch")."""
        norm = normalise(prefix[:MAX_QUERY])
        if not norm or limit <= 0:
            return []
        rebalanced = []
        if asks_for_rebalanced(prefix):
            rebalanced = [
                row[0]
                for row in self._db().execute(
                    "SELECT c.name FROM names n JOIN cards c ON c.rowid = n.card "
                    "WHERE n.norm >= ? AND n.norm < ? AND c.extra = 'rebalanced' ORDER BY n.norm LIMIT ?",
                    (norm, norm + HIGH, limit),
                )
            ]
        names = [
            row[0]
            for row in self._db().execute(
                "SELECT c.name FROM names n JOIN cards c ON c.rowid = n.card "
                "WHERE n.norm >= ? AND n.norm < ? AND c.extra IS NULL ORDER BY n.norm LIMIT ?",
                (norm, norm + HIGH, limit),
            )
        ]
        if len(names) < limit:
            names += [
                row[0]
                for row in self._db().execute(
                    "SELECT c.name FROM name_tails t JOIN cards c ON c.rowid = t.card "
                    "WHERE t.tail >= ? AND t.tail < ? AND c.extra IS NULL ORDER BY t.tail LIMIT ?",
                    (norm, norm + HIGH, limit),
                )
            ]
        if not names and not rebalanced:
            # No real name starts so: the one token or emblem named in full, as the lookup finds it ("The Monarch").
            extra = self._named_extra(norm)
            names = [extra.card.name] if extra is not None and extra.card is not None else []
        return list(dict.fromkeys(rebalanced + names))[:limit]

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
            norm = normalise(name[:MAX_QUERY])
            match = None
            for is_face in (0, 1):
                match = self._choose(self._exact(norm, is_face), "exact", False) if norm else None
                if match is not None:
                    break
            found[name] = match.card if match is not None else None
        return found
