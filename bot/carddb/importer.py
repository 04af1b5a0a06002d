"""Build a new card database file from a stream of Scryfall card objects, then swap it in.

The new file is written next to the live one under another name, checked (required fields, enough
cards), flushed to disk and only then renamed over the live file with ``os.replace``: a reader has
the old file or the new one open, never a half-written one, and a failed import leaves the last
good copy in place. Everything here blocks; the bot runs it in a worker thread.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import threading
import time
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Any

from bot.carddb.bulk import BulkError, Cancelled
from bot.carddb.kinds import cycling_kinds, keyword_set
from bot.carddb.names import extra_kind, face_names, is_digital_only
from bot.carddb.query import search_rows
from bot.carddb.rulings_import import rulings_meta
from bot.cycling import CyclingAbility, cycling_abilities
from bot.text import normalise

log = logging.getLogger(__name__)

FORMAT = "3"
BATCH = 1000
MIN_SHARE_OF_PREVIOUS = 0.9
MAX_INVALID_SHARE = 0.01
SQL_VALUES = (str, int, float, bytes, type(None))
# The fields stored as JSON and read back as objects or lists when a card is shown: any other shape is refused at
# import, not found by a reader later.
SHAPES = {"legalities": dict, "prices": dict, "image_uris": dict, "card_faces": list, "keywords": list}
SHAPES |= {"colors": list, "color_identity": list, "games": list}
REQUIRED = ("id", "name", "layout", "set", "legalities")
FACE_FIELDS = ("name", "mana_cost", "type_line", "oracle_text", "power", "toughness", "loyalty", "colors", "image_uris")


class ImportRejected(BulkError):
    """The new data failed validation; the stored copy stays as it was."""


@dataclass(frozen=True)
class ImportResult:
    count: int
    skipped: int
    updated_at: str
    seconds: float
    path: Path
    rulings_refused: str | None = None  # why a rulings file was refused (the stored rulings were kept)


def _sql(name: str) -> str:
    return resources.files("bot.carddb").joinpath(name).read_text(encoding="utf-8")


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _joined(card: Mapping[str, Any], field: str, faces: list[Mapping[str, Any]]) -> str | None:
    if card.get(field) is not None or not faces:
        return card.get(field)
    parts = [face.get(field) for face in faces if face.get(field) is not None]
    return " // ".join(parts) if parts else None


def ability_dict(ability: CyclingAbility) -> dict[str, Any]:
    """``dataclasses.asdict`` of a parsed ability, without its cost of a deep copy per field."""
    cost = ability.cost
    return {
        "keyword": ability.keyword,
        "cost": {"text": cost.text, "mana": list(cost.mana), "life": cost.life, "sacrifice": cost.sacrifice},
        "search": ability.search,
        "face": ability.face,
    }


def card_row(card: Mapping[str, Any], raw: str) -> tuple[tuple, list[CyclingAbility]]:
    """The ``cards`` columns of one Scryfall card object (without the rowid), and its cycling abilities.

    The raw object is stored zlib-compressed: it is most of the file and read only when shown.
    """
    faces = list(card.get("card_faces") or ())
    colors = card.get("colors")
    if colors is None:
        colors = sorted({colour for face in faces for colour in face.get("colors") or ()})
    image_uris = card.get("image_uris") or next((f["image_uris"] for f in faces if f.get("image_uris")), None)
    abilities = cycling_abilities(card)
    return (
        card["id"],
        card.get("oracle_id") or next((f.get("oracle_id") for f in faces if f.get("oracle_id")), None),
        card["name"],
        normalise(card["name"]),
        card["layout"],
        extra_kind(card),
        _joined(card, "mana_cost", faces),
        _joined(card, "type_line", faces),
        card.get("oracle_text") if card.get("oracle_text") is not None else _joined(card, "oracle_text", faces),
        _json(card.get("keywords") or []),
        card.get("power"),
        card.get("toughness"),
        card.get("loyalty"),
        _json(colors),
        _json(card.get("color_identity") or []),
        _json(card["legalities"]),
        _json(card.get("prices") or {}),
        _json(image_uris) if image_uris else None,
        _json([{key: face.get(key) for key in FACE_FIELDS if face.get(key) is not None} for face in faces]),
        card["set"],
        card.get("set_name"),
        card.get("collector_number"),
        card.get("rarity"),
        card.get("scryfall_uri"),
        card.get("released_at"),
        _json([ability_dict(ability) for ability in abilities]),
        zlib.compress(raw.encode("utf-8"), 1),
        *printing_columns(card),
    ), abilities


def printing_columns(card: Mapping[str, Any]) -> tuple[str, int, int]:
    """``games``, ``digital`` and ``digital_only`` of a card object (the columns format 3 added)."""
    return _json(list(card.get("games") or [])), int(bool(card.get("digital"))), int(is_digital_only(card))


def _valid(card: Mapping[str, Any]) -> bool:
    return (
        card.get("object", "card") == "card"
        and all(card.get(field) for field in REQUIRED)
        and isinstance(card["name"], str)
        and isinstance(card["legalities"], dict)
    )


def _tails(norm: str) -> list[str]:
    words = norm.split()
    return [" ".join(words[i:]) for i in range(1, len(words))]


def _placeholders(count: int) -> str:
    return ", ".join("?" * count)


# Each table a batch of cards adds rows to, and how many values a row holds, in the order they are filled.
TABLES = {
    "cards": 31,
    "names": 3,
    "name_tails": 2,
    "cycling_kinds": 2,
    "search_cards": 28,
    "search_faces": 7,
    "search_oracle": 2,
    "search_tilde": 2,
    "search_full": 2,
}
TEXT_TABLES = ("search_oracle", "search_tilde", "search_full")
# What a batch of cards adds to each table.
Rows = dict[str, list[tuple]]


def _card_rows(card: Mapping[str, Any], rowid: int, formats: dict[str, int], rows: Rows) -> None:
    """Add one card's rows to ``rows``; raises TypeError, AttributeError, ValueError or KeyError when a field has the
    wrong shape (before anything is added)."""
    for name, shape in SHAPES.items():
        if card.get(name) is not None and not isinstance(card[name], shape):
            raise TypeError(f"{name} is not a {shape.__name__}")
    for face in card.get("card_faces") or ():
        if not isinstance(face, dict) or not isinstance(face.get("image_uris") or {}, dict):
            raise TypeError("a face is not an object with images")
    row, abilities = card_row(card, json.dumps(card))
    if not all(isinstance(value, SQL_VALUES) for value in row):
        raise TypeError("a field SQLite cannot store as it is (an object where a text or number belongs)")
    facts = search_rows(card, rowid, row[5], keyword_set(card.get("keywords") or (), abilities), formats)
    names = [(row[3], rowid, 0)]
    for face in face_names(card):
        norm = normalise(face)
        if norm and all(norm != known for known, _, _ in names):
            names.append((norm, rowid, 1))
    tails = [(tail, rowid) for norm, _, _ in names for tail in _tails(norm)]
    kinds = [(kind, rowid) for kind in cycling_kinds(card.get("keywords") or (), abilities)]
    rows["cards"].append((rowid, *row))
    rows["names"] += names
    rows["name_tails"] += tails
    rows["cycling_kinds"] += kinds
    rows["search_cards"].append(facts.card)
    rows["search_faces"] += facts.faces
    for table, text in zip(TEXT_TABLES, facts.texts, strict=True):
        if text:
            rows[table].append((rowid, text))


def _insert(db: sqlite3.Connection, batch: list[Mapping[str, Any]], first_rowid: int, formats: dict[str, int]) -> int:
    """Insert the cards of ``batch`` from ``first_rowid`` on; the number inserted. A card whose fields have the
    wrong shape (a list where Scryfall sends an object, a number for a text) is left out, as one lacking a field."""
    rows: Rows = {table: [] for table in TABLES}
    for card in batch:
        try:
            _card_rows(card, first_rowid + len(rows["cards"]), formats, rows)
        except (TypeError, AttributeError, ValueError, KeyError, RecursionError):
            continue
    for table, values in TABLES.items():
        db.executemany(f"INSERT INTO {table} VALUES ({_placeholders(values)})", rows[table])  # noqa: S608 - ours
    return len(rows["cards"])


def stored_meta(path: Path, what: str = "card data") -> dict[str, str]:
    """The ``meta`` table of the database at ``path`` (empty when there is none or it is unreadable); ``what`` names
    the database in the log."""
    if not path.exists():
        return {}
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            return dict(db.execute("SELECT key, value FROM meta"))
        finally:
            db.close()
    except sqlite3.Error:
        log.warning("The stored %s at %s is unreadable; it will be replaced", what, path.name)
        return {}


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def import_cards(
    cards: Iterable[Mapping[str, Any]],
    dest: Path,
    *,
    updated_at: str,
    source: str,
    stop: threading.Event | None = None,
    rulings: Iterable[Mapping[str, Any]] | None = None,
    rulings_updated_at: str | None = None,
) -> ImportResult:
    """Import ``cards`` (and ``rulings``) into a new database and atomically replace ``dest`` with it.

    Without ``rulings`` the stored copy's rulings are carried over. Raises :class:`ImportRejected`
    (too few cards, too many without required fields, malformed rulings) or the :class:`BulkError`
    either stream raised; ``dest`` is untouched then.
    """
    started = time.perf_counter()
    previous = int(stored_meta(dest).get("count", "0"))
    temp = dest.with_name(dest.name + ".importing")
    temp.unlink(missing_ok=True)
    db = sqlite3.connect(temp, isolation_level=None)
    try:
        # A crash mid-import leaves only the temporary file, so the build needs no journal.
        # Large pages: most rows are a few kilobytes and would spill into overflow pages of 4 KB ones.
        db.executescript(
            "PRAGMA page_size = 16384; PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -16000;"
        )
        db.executescript(_sql("schema.sql"))
        db.execute("BEGIN")
        count = skipped = 0
        formats: dict[str, int] = {}  # each format's bit in search_cards' legality masks
        batch: list[Mapping[str, Any]] = []
        for card in cards:
            if not _valid(card):
                skipped += 1
                continue
            batch.append(card)
            if len(batch) >= BATCH:
                if stop is not None and stop.is_set():
                    raise Cancelled("import stopped")
                inserted = _insert(db, batch, count + 1, formats)
                count += inserted
                skipped += len(batch) - inserted
                batch = []
        inserted = _insert(db, batch, count + 1, formats)
        count += inserted
        skipped += len(batch) - inserted
        _validate(count, skipped, previous)
        ruling_meta = rulings_meta(db, dest, rulings, rulings_updated_at or updated_at, stop, stored_meta(dest))
        meta = {
            "format": FORMAT,
            "updated_at": updated_at,
            "prices_date": updated_at[:10],
            "imported_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "count": str(count),
            "source": source,
            "formats": _json(formats),
            **ruling_meta,
        }
        db.executemany("INSERT INTO meta VALUES (?, ?)", meta.items())
        db.execute("COMMIT")
        db.executescript(_sql("indexes.sql"))
    except BaseException:
        db.close()
        temp.unlink(missing_ok=True)
        raise
    db.close()
    _fsync(temp)
    os.replace(temp, dest)
    _fsync(dest.parent)
    seconds = time.perf_counter() - started
    log.info("Imported %d cards (%d skipped) into %s in %.1f s", count, skipped, dest.name, seconds)
    refused = meta.get("rulings_refused")
    return ImportResult(count, skipped, updated_at, seconds, dest, rulings_refused=refused)


def _validate(count: int, skipped: int, previous: int) -> None:
    if count == 0:
        raise ImportRejected("the bulk data holds no valid cards")
    if skipped > MAX_INVALID_SHARE * (count + skipped):
        raise ImportRejected(f"{skipped} of {count + skipped} card objects lack required fields")
    if count < MIN_SHARE_OF_PREVIOUS * previous:
        raise ImportRejected(f"the bulk data holds {count} cards, under 90 % of the {previous} stored")


def remove_leftovers(dest: Path) -> list[str]:
    """Remove what an import killed part-way (``kill -9``, a power cut) left beside ``dest``: the database it was
    building and the files it was downloading. Only at start-up, before any import runs; the names removed."""
    removed = []
    for suffix in (".importing", ".upgrading", ".download", ".rulings"):
        leftover = dest.with_name(dest.name + suffix)
        try:
            leftover.unlink()
        except FileNotFoundError:
            continue
        except OSError as error:
            log.warning("Could not remove %s left by an unfinished import: %s", leftover.name, error)
            continue
        removed.append(leftover.name)
    if removed:
        log.info("Removed what an unfinished import left: %s", ", ".join(removed))
    return removed
