"""Scryfall's rulings file into a card database being built, with the guard the cards have: a file that would
empty the store is refused, and the rulings stored before are kept.

A ruling is kept once: rulings are unique by (oracle id, date, text), however often the file repeats one. A file
is refused (:class:`RulingsRefused`, with the reason) when over half of the cards it names are not in the card
data, or when what it would keep falls below :data:`MIN_SHARE_OF_PREVIOUS` of the rulings stored now. A refused
file changes nothing: the stored rulings are carried over to the new copy, and the reason is recorded with it
(``rulings_refused`` in its ``meta``) and reported, so the same file is not fetched again until a newer one.
"""

from __future__ import annotations

import hashlib
import logging
import sqlite3
import threading
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from bot.carddb.bulk import BulkError, Cancelled

log = logging.getLogger(__name__)

BATCH = 1000
MIN_SHARE_OF_PREVIOUS = 0.9
MAX_UNKNOWN_CARDS_SHARE = 0.5
MAX_INVALID_SHARE = 0.01
INSERT = "INSERT INTO rulings VALUES (?, ?, ?, ?)"


class RulingsRefused(BulkError):
    """The rulings file would empty the store (or most of it); ``str(e)`` says why. The cards are imported, the
    stored rulings kept."""


class RulingsRejected(BulkError):
    """The rulings file is not rulings: the whole import is refused, and the stored copy stays as it was."""


def ruling_row(ruling: Mapping[str, Any]) -> tuple[str, str, str, str] | None:
    """The row of a well-formed ruling object, or None."""
    oracle_id, comment = ruling.get("oracle_id"), ruling.get("comment")
    if ruling.get("object", "ruling") != "ruling" or not isinstance(oracle_id, str) or not isinstance(comment, str):
        return None
    if not comment.strip():
        return None
    return oracle_id, str(ruling.get("source") or ""), str(ruling.get("published_at") or ""), comment.strip()


def _identity(row: tuple[str, str, str, str]) -> bytes:
    """What makes a ruling the same ruling: its card, its date and its text (a digest, to keep the set small)."""
    oracle_id, _, published, comment = row
    return hashlib.blake2b("\x00".join((oracle_id, published, comment)).encode(), digest_size=16).digest()


def stored_rulings(dest: Path) -> int:
    """How many distinct rulings the stored copy at ``dest`` holds (0 when none, or no copy)."""
    if not dest.exists():
        return 0
    try:
        db = sqlite3.connect(f"file:{dest}?mode=ro", uri=True)
        try:
            query = "SELECT count(*) FROM (SELECT DISTINCT oracle_id, published_at, comment FROM rulings)"
            return int(db.execute(query).fetchone()[0])
        finally:
            db.close()
    except sqlite3.Error:  # no rulings table (a copy from before rulings), or unreadable
        return 0


def import_rulings(
    db: sqlite3.Connection,
    rulings: Iterable[Mapping[str, Any]],
    updated_at: str,
    stop: threading.Event | None,
    *,
    previous: int,
) -> dict[str, str]:
    """Insert the rulings of the imported cards, each once, into the (empty) ``rulings`` table of the database
    being built; the ``meta`` entries to record. Raises :class:`RulingsRefused` (nothing inserted) past the
    guard, given ``previous`` (the rulings stored now), or :class:`RulingsRejected` for a file that is not
    rulings."""
    known = {row[0] for row in db.execute("SELECT oracle_id FROM cards WHERE oracle_id IS NOT NULL")}
    seen: set[bytes] = set()
    named: set[str] = set()
    unknown_cards: set[str] = set()
    rows: list[tuple[str, str, str, str]] = []
    count = invalid = unknown = repeated = 0
    try:
        for ruling in rulings:
            row = ruling_row(ruling)
            if row is None:
                invalid += 1
                continue
            named.add(row[0])
            if row[0] not in known:
                unknown += 1
                unknown_cards.add(row[0])
                continue
            identity = _identity(row)
            if identity in seen:
                repeated += 1
                continue
            seen.add(identity)
            rows.append(row)
            if len(rows) >= BATCH:
                if stop is not None and stop.is_set():
                    raise Cancelled("import stopped")
                db.executemany(INSERT, rows)
                count += len(rows)
                rows = []
        db.executemany(INSERT, rows)
        count += len(rows)
        total = count + invalid + unknown + repeated
        if invalid > MAX_INVALID_SHARE * max(1, total):
            raise RulingsRejected(f"{invalid} of {total} rulings are not ruling objects")
        if named and len(unknown_cards) > MAX_UNKNOWN_CARDS_SHARE * len(named):
            raise RulingsRefused(
                f"the rulings file names {len(named)} cards and {len(unknown_cards)} of them are not in the card data"
            )
        if count < MIN_SHARE_OF_PREVIOUS * previous:
            raise RulingsRefused(f"the rulings file would keep {count} rulings, under 90 % of the {previous} stored")
    except RulingsRefused:
        # The database being built has no journal to roll back: the table was empty before, so it is emptied.
        db.execute("DELETE FROM rulings")
        raise
    if unknown:
        log.info("Left out %d rulings of cards the card data does not hold", unknown)
    if repeated:
        log.info("Left out %d rulings the file repeats", repeated)
    return {
        "rulings_count": str(count),
        "rulings_updated_at": updated_at,
        "rulings_unknown": str(unknown),
        "rulings_invalid": str(invalid),
        "rulings_repeated": str(repeated),
    }


def carry_rulings(db: sqlite3.Connection, dest: Path, old: Mapping[str, str]) -> dict[str, str]:
    """The stored copy's rulings (``dest``, whose ``meta`` is ``old``), each once, for cards still imported: when no
    new rulings file came with the cards, or it was refused."""
    if not old.get("rulings_count"):
        return {}
    db.execute("COMMIT")  # a database is attached outside a transaction
    try:
        db.execute("ATTACH DATABASE ? AS previous", (str(dest),))
        try:
            db.execute(
                "INSERT INTO rulings SELECT DISTINCT r.oracle_id, r.source, r.published_at, r.comment "
                "FROM previous.rulings r "
                "WHERE r.oracle_id IN (SELECT oracle_id FROM cards WHERE oracle_id IS NOT NULL)"
            )
        finally:
            db.execute("DETACH DATABASE previous")
        count = db.execute("SELECT count(*) FROM rulings").fetchone()[0]
    except sqlite3.Error:
        log.warning("The stored rulings could not be carried over; they come back with the next rulings file")
        return {}
    finally:
        db.execute("BEGIN")
    return {"rulings_count": str(count), "rulings_updated_at": old.get("rulings_updated_at", "")}


def rulings_meta(
    db: sqlite3.Connection,
    dest: Path,
    rulings: Iterable[Mapping[str, Any]] | None,
    updated_at: str,
    stop: threading.Event | None,
    old: Mapping[str, str],
) -> dict[str, str]:
    """Import ``rulings`` (or carry the stored ones when None or refused) into the database being built, ``dest``
    being the stored copy and ``old`` its ``meta``; the ``meta`` entries to record, ``rulings_refused`` with the
    reason when the file was refused."""
    if rulings is None:
        return carry_rulings(db, dest, old)
    try:
        return import_rulings(db, rulings, updated_at, stop, previous=stored_rulings(dest))
    except RulingsRefused as refusal:
        log.warning("Refused Scryfall's rulings file of %s: %s; the stored rulings are kept", updated_at, refusal)
        kept = carry_rulings(db, dest, old)
        return {**kept, "rulings_refused": str(refusal), "rulings_refused_updated_at": updated_at}
