"""Reading the names index: the printed names a folded name is, and every name for the name matcher.

A :class:`PrintedIndex` reads one file that :mod:`bot.carddb.printed.build` wrote and will never change in place (a
refresh renames a new one over it; the old one stays open until its reads are done). Its queries take well under a
millisecond and may be called from any thread.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from bot.carddb.printed.build import FORMAT, stored_counts
from bot.carddb.printed.languages import language_name
from bot.text import fold

MAX_QUERY = 200
HIGH = "\uffff"
SCRYFALL_CARD = "https://scryfall.com/card"


class PrintedIndexError(Exception):
    """The stored printed names are missing, unreadable or of another format."""


@dataclass(frozen=True)
class PrintedName:
    """A card's name as printed in a language: ``name`` (a face's, when ``face``), the card (``oracle_id``) and the
    newest printing of it in that language (``set_code``, ``number``)."""

    lang: str
    name: str
    oracle_id: str
    set_code: str
    number: str
    face: bool = False

    @property
    def language(self) -> str:
        return language_name(self.lang)

    @property
    def url(self) -> str:
        """The printing on Scryfall, in its language."""
        return f"{SCRYFALL_CARD}/{quote(self.set_code, safe='')}/{quote(self.number, safe='')}/{self.lang}"


@dataclass(frozen=True)
class PrintedInfo:
    """Facts about the stored index, for ``cards info`` and /about."""

    languages: tuple[str, ...]
    counts: dict[str, int]
    updated_at: str
    size_bytes: int

    @property
    def total(self) -> int:
        return sum(self.counts.values())


COLUMNS = "p.lang, p.name, o.oracle_id, p.set_code, p.number, p.face"


class PrintedIndex:
    """``PrintedIndex(path)``: the index at ``path``, opened read-only."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        if not self.path.exists():
            raise PrintedIndexError(f"no printed names at {self.path.name}")
        self._lock = threading.Lock()
        self._users = 0
        self._retired = False
        try:
            self._db = sqlite3.connect(f"file:{self.path}?mode=ro&immutable=1", uri=True, check_same_thread=False)
            self.meta: dict[str, str] = dict(self._db.execute("SELECT key, value FROM meta"))
        except sqlite3.Error as error:
            raise PrintedIndexError(f"the printed names at {self.path.name} are unreadable: {error}") from error
        if self.meta.get("format") != FORMAT:
            self._db.close()
            raise PrintedIndexError(f"the printed names at {self.path.name} are of format {self.meta.get('format')!r}")
        self.languages = tuple(code for code in self.meta.get("languages", "").split(",") if code)
        self.counts = stored_counts(self.meta)
        self.size_bytes = self.path.stat().st_size

    def info(self) -> PrintedInfo:
        return PrintedInfo(self.languages, dict(self.counts), self.meta.get("updated_at", ""), self.size_bytes)

    # ------------------------------------------------------------------ lifetime

    def __enter__(self) -> PrintedIndex:
        with self._lock:
            if self._db is None:
                raise PrintedIndexError("the printed names were closed")
            self._users += 1
        return self

    def __exit__(self, *exc: object) -> None:
        with self._lock:
            self._users -= 1
            close = self._retired and self._users == 0
        if close:
            self.close()

    def retire(self) -> None:
        """Close once the reads in flight are done: a newer index replaced this one."""
        with self._lock:
            self._retired = True
            close = self._users == 0
        if close:
            self.close()

    def close(self) -> None:
        with self._lock:
            db, self._db = self._db, None
        if db is not None:
            db.close()

    def _rows(self, sql: str, params: tuple) -> list[tuple]:
        with self._lock:
            if self._db is None:
                raise PrintedIndexError("the printed names were closed")
            return self._db.execute(sql, params).fetchall()

    # ------------------------------------------------------------------ names

    def named(self, text: str) -> list[PrintedName]:
        """The printed names ``text`` is, case, accents and punctuation aside (several cards may share one)."""
        key = fold(text[:MAX_QUERY])
        if not key:
            return []
        sql = f"SELECT {COLUMNS} FROM printed p JOIN oracles o ON o.id = p.oracle WHERE p.fold = ? ORDER BY p.face"  # noqa: S608
        return [_name(row) for row in self._rows(sql, (key,))]

    def starting(self, text: str, limit: int = 25) -> list[PrintedName]:
        """Up to ``limit`` printed names starting with ``text`` (folded), shortest first."""
        key = fold(text[:MAX_QUERY])
        if not key:
            return []
        sql = (
            f"SELECT {COLUMNS} FROM printed p JOIN oracles o ON o.id = p.oracle "  # noqa: S608
            "WHERE p.fold >= ? AND p.fold < ? ORDER BY length(p.fold), p.fold LIMIT ?"
        )
        return [_name(row) for row in self._rows(sql, (key, key + HIGH, limit))]

    def of_card(self, oracle_id: str, lang: str) -> PrintedName | None:
        """The card's whole name as printed in ``lang`` (its newest printing), or None."""
        sql = (
            f"SELECT {COLUMNS} FROM printed p JOIN oracles o ON o.id = p.oracle "  # noqa: S608
            "WHERE o.oracle_id = ? AND p.lang = ? ORDER BY p.face, p.rowid LIMIT 1"
        )
        rows = self._rows(sql, (oracle_id, lang))
        return _name(rows[0]) if rows else None

    def name_rows(self, cards: dict[str, int]) -> list[tuple[str, int, int]]:
        """Every printed name of the cards ``cards`` holds (oracle id → the card's rowid in the local copy), shaped
        as ``CardStore.name_rows`` shapes English names: ``(folded name, rowid, whether it is a face's)``, for an
        index of names that should know printed ones too (the rules questions' card finder, a decklist's)."""
        sql = "SELECT p.fold, o.oracle_id, p.face FROM printed p JOIN oracles o ON o.id = p.oracle ORDER BY p.rowid"
        return [(key, cards[oracle], face) for key, oracle, face in self._rows(sql, ()) if oracle in cards]

    def entries(self) -> Iterator[tuple[str, str, str]]:
        """Every printed name for a name matcher: ``(lang, name, oracle_id)``."""
        sql = "SELECT p.lang, p.name, o.oracle_id FROM printed p JOIN oracles o ON o.id = p.oracle ORDER BY p.rowid"
        yield from self._rows(sql, ())


def _name(row: tuple) -> PrintedName:
    lang, name, oracle_id, set_code, number, face = row
    return PrintedName(lang, name, oracle_id, set_code, number, bool(face))
