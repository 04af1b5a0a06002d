"""Reading the names index: the printed names a folded name is, and every name for the name matcher.

A :class:`PrintedIndex` reads one file that :mod:`bot.carddb.printed.build` wrote and will never change in place (a
refresh renames a new one over it; the old one stays open until its reads are done). Its queries take well under a
millisecond and may be called from any thread.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from bot.carddb.lifetime import Retiring
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


class PrintedIndex(Retiring):
    """``PrintedIndex(path)``: the index at ``path``, opened read-only (its reads hold it: ``with index:``, and a
    retired one closes once they are done, as the card data's copy does)."""

    closed = PrintedIndexError
    what = "printed names"

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self._db: sqlite3.Connection | None = self._connect()
        self.meta = self._meta(self._db, FORMAT)
        self.languages = tuple(code for code in self.meta.get("languages", "").split(",") if code)
        self.counts = stored_counts(self.meta)

    def info(self) -> PrintedInfo:
        return PrintedInfo(self.languages, dict(self.counts), self.meta.get("updated_at", ""), self.size_bytes)

    def _detach(self) -> list[sqlite3.Connection]:
        db, self._db = self._db, None
        return [db] if db is not None else []

    def _rows(self, sql: str, params: tuple) -> list[tuple]:
        with self._lock:
            self._check_open()
            assert self._db is not None
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
