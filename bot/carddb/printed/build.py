"""The names index built from Scryfall's All Cards file: the printed names of the languages chosen, one row for each
language, name and card, written beside the live index and swapped in atomically.

A card object gives its ``printed_name`` and each face's (a split card printed in Japanese has only its faces':
``火`` and ``氷``, and answers to ``火 // 氷`` as well), with its ``oracle_id`` (the card of the local copy it
names), the set and collector number of the printing and its release date: of several printings of one name, the
newest is kept, for the link to it. Everything here blocks; the bot runs it in a worker thread.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bot.carddb.bulk import BulkError, Cancelled
from bot.carddb.importer import stored_meta as card_data_meta
from bot.text import fold

log = logging.getLogger(__name__)

FORMAT = "1"
BATCH = 5000
MAX_NAME = 200  # characters: the longest printed name is well under it
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
SHORT = re.compile(r"[0-9A-Za-z★†\-_.]{1,16}")  # a set code or a collector number
MIN_SHARE_OF_PREVIOUS = 0.9
SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE oracles (id INTEGER PRIMARY KEY, oracle_id TEXT NOT NULL UNIQUE);
-- One row for each language, printed name and card: the card's whole name (face 0) or a face's (face 1), folded
-- for lookups (bot.text.fold), and the newest printing of it (its set and collector number, for a link).
CREATE TABLE printed (
    lang     TEXT NOT NULL,
    name     TEXT NOT NULL,
    fold     TEXT NOT NULL,
    oracle   INTEGER NOT NULL REFERENCES oracles(id),
    face     INTEGER NOT NULL,
    set_code TEXT NOT NULL,
    number   TEXT NOT NULL
);
"""
STAGING = "CREATE TEMP TABLE staging (lang, name, oracle_id, face, set_code, number, released)"
FINISH = (
    "INSERT INTO oracles (oracle_id) SELECT DISTINCT oracle_id FROM staging ORDER BY oracle_id",
    """
    INSERT INTO printed (lang, name, fold, oracle, face, set_code, number)
    SELECT s.lang, s.name, fold(s.name), o.id, s.face, s.set_code, s.number
    FROM (
        SELECT *, row_number() OVER (
            PARTITION BY lang, name, oracle_id ORDER BY face, released DESC, set_code, number
        ) AS newest FROM staging
    ) AS s JOIN oracles AS o ON o.oracle_id = s.oracle_id
    WHERE s.newest = 1
    ORDER BY s.lang, s.oracle_id, s.face, s.name
    """,
    "CREATE INDEX printed_fold ON printed (fold)",
    "DROP TABLE staging",
)


class PrintedRejected(BulkError):
    """The All Cards file failed a check; the stored names stay as they were."""


@dataclass(frozen=True)
class PrintedResult:
    counts: dict[str, int]  # names kept, by language
    cards: int  # card objects read (of every language)
    updated_at: str
    seconds: float
    path: Path

    @property
    def total(self) -> int:
        return sum(self.counts.values())


def _text(value: Any, pattern: re.Pattern[str] | None = None) -> str | None:
    if not isinstance(value, str):
        return None
    value = value.strip()
    if not value or len(value) > MAX_NAME or (pattern is not None and not pattern.fullmatch(value)):
        return None
    return value


def printed_rows(card: Mapping[str, Any], languages: frozenset[str]) -> list[tuple]:
    """The staging rows of one card object: ``(lang, name, oracle_id, face, set, number, released)`` for its printed
    name and each face's, when it is printed in one of ``languages``; none for anything else."""
    lang = card.get("lang")
    if lang not in languages:
        return []
    faces = [face for face in card.get("card_faces") or () if isinstance(face, dict)]
    oracle = _text(card.get("oracle_id"), UUID) or next(
        (found for face in faces if (found := _text(face.get("oracle_id"), UUID))), None
    )
    set_code, number = _text(card.get("set"), SHORT), _text(card.get("collector_number"), SHORT)
    if oracle is None or set_code is None or number is None:
        return []
    released = _text(card.get("released_at")) or ""
    whole = _text(card.get("printed_name"))
    parts = [name for face in faces if (name := _text(face.get("printed_name")))]
    names = [(whole, 0)] if whole else [(" // ".join(parts), 0)] if len(parts) > 1 else []
    names += [(part, 1) for part in dict.fromkeys(parts) if part != whole]
    return [(lang, name, oracle, face, set_code.lower(), number, released) for name, face in names]


def stored_meta(path: Path) -> dict[str, str]:
    """The ``meta`` table of the index at ``path`` (empty when there is none or it is unreadable)."""
    return card_data_meta(path, "printed names")


def stored_counts(meta: Mapping[str, str]) -> dict[str, int]:
    try:
        counts = json.loads(meta.get("counts") or "{}")
    except ValueError:
        return {}
    return {str(lang): int(count) for lang, count in counts.items()} if isinstance(counts, dict) else {}


def build_index(
    cards: Iterable[Mapping[str, Any]],
    dest: Path,
    *,
    languages: Iterable[str],
    updated_at: str,
    source: str,
    stop: threading.Event | None = None,
    seen: Callable[[], int] | None = None,
) -> PrintedResult:
    """Write the index of ``cards``' printed names in ``languages`` beside ``dest`` and swap it in. ``seen()``: how
    many card objects the file held (those ``cards`` skipped unread included). Raises :class:`PrintedRejected` for
    a file without cards, or with far fewer names than the stored index has in the same languages, or the
    :class:`BulkError` ``cards`` raised; ``dest`` is untouched then."""
    started = time.perf_counter()
    wanted = frozenset(languages)
    previous = stored_counts(stored_meta(dest))
    read = 0
    with rebuilt(dest) as db:
        db.create_function("fold", 1, fold, deterministic=True)
        db.executescript("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -16000;")
        db.executescript("PRAGMA temp_store = FILE;" + SCHEMA + STAGING)
        db.execute("BEGIN")
        batch: list[tuple] = []
        for card in cards:
            read += 1
            batch += printed_rows(card, wanted)
            if len(batch) >= BATCH:
                if stop is not None and stop.is_set():
                    raise Cancelled("import stopped")
                db.executemany("INSERT INTO staging VALUES (?, ?, ?, ?, ?, ?, ?)", batch)
                batch = []
        db.executemany("INSERT INTO staging VALUES (?, ?, ?, ?, ?, ?, ?)", batch)
        cards_read = max(seen(), read) if seen is not None else read
        if not cards_read:
            raise PrintedRejected("Scryfall's All Cards file holds no cards")
        for statement in FINISH:
            db.execute(statement)
        counts = dict(db.execute("SELECT lang, count(*) FROM printed GROUP BY lang ORDER BY lang"))
        _check(counts, previous)
        meta = {
            "format": FORMAT,
            "updated_at": updated_at,
            "imported_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "languages": ",".join(sorted(wanted)),
            "counts": json.dumps(counts, sort_keys=True),
            "cards": str(cards_read),
            "source": source,
        }
        db.executemany("INSERT INTO meta VALUES (?, ?)", meta.items())
        db.execute("COMMIT")
        db.execute("VACUUM")
    seconds = time.perf_counter() - started
    log.info("Imported %d printed names of %d cards into %s in %.1f s", sum(counts.values()), read, dest.name, seconds)
    return PrintedResult(counts, cards_read, updated_at, seconds, dest)


@contextlib.contextmanager
def rebuilt(dest: Path) -> Iterator[sqlite3.Connection]:
    """A new database written beside ``dest`` in the block, swapped in over it when the block ends, removed when it
    fails (``dest`` untouched then)."""
    temp = dest.with_name(dest.name + ".importing")
    temp.unlink(missing_ok=True)
    db = sqlite3.connect(temp, isolation_level=None)
    try:
        yield db
    except BaseException:
        db.close()
        temp.unlink(missing_ok=True)
        raise
    db.close()
    swap(temp, dest)


def _check(counts: Mapping[str, int], previous: Mapping[str, int]) -> None:
    """Refuse far fewer names than the stored index holds in the same languages (a file cut short, or not All
    Cards)."""
    common = set(counts) & set(previous) or set(previous)
    before = sum(previous.get(lang, 0) for lang in common)
    now = sum(counts.get(lang, 0) for lang in common)
    if before and now < MIN_SHARE_OF_PREVIOUS * before:
        raise PrintedRejected(f"the file holds {now} printed names, under 90 % of the {before} stored")


def swap(temp: Path, dest: Path) -> None:
    """``temp`` flushed to disk, then renamed over ``dest`` (a reader has one or the other, never half of one)."""
    fd = os.open(temp, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(temp, dest)
    fd = os.open(dest.parent, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def keep_only(dest: Path, languages: Iterable[str]) -> dict[str, int]:
    """Drop from the index at ``dest`` the names of the languages not in ``languages`` (no download: what is kept
    is as it was), swapped in atomically; the counts kept, by language."""
    wanted = sorted(set(languages))
    with rebuilt(dest) as db:
        db.executescript("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;")
        db.execute("ATTACH DATABASE ? AS old", (str(dest),))
        db.executescript(SCHEMA)
        marks = ", ".join("?" * len(wanted))
        db.execute("BEGIN")
        db.execute(f"INSERT INTO printed SELECT * FROM old.printed WHERE lang IN ({marks})", wanted)  # noqa: S608
        db.execute("INSERT INTO oracles SELECT * FROM old.oracles WHERE id IN (SELECT oracle FROM printed)")
        db.execute("INSERT INTO meta SELECT * FROM old.meta")
        counts = dict(db.execute("SELECT lang, count(*) FROM printed GROUP BY lang ORDER BY lang"))
        db.execute("UPDATE meta SET value = ? WHERE key = 'languages'", (",".join(wanted),))
        db.execute("UPDATE meta SET value = ? WHERE key = 'counts'", (json.dumps(counts, sort_keys=True),))
        db.execute("COMMIT")
        db.execute("DETACH DATABASE old")
        db.execute("CREATE INDEX printed_fold ON printed (fold)")
        db.execute("VACUUM")
    log.info("Kept the printed names of %s; dropped the others", ", ".join(wanted) or "no language")
    return counts
