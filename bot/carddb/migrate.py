"""Bring a stored copy of the card data up to the current format without downloading it again.

A copy is built whole by the importer and then only read, so a new format is normally a new import. Format 3
added three columns that every stored card object already holds (``games``, ``digital`` and whether the card is
digital only): they are filled from each card's stored object instead. The work is done on a copy of the file,
which then replaces the stored one atomically, like an import; a failure leaves the stored copy as it was.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import sqlite3
import time
import zlib
from pathlib import Path

from bot.carddb.importer import FORMAT, printing_columns, stored_meta

log = logging.getLogger(__name__)

UPGRADABLE = ("2",)
_ADD_COLUMNS = (
    "ALTER TABLE cards ADD COLUMN games TEXT NOT NULL DEFAULT '[]'",
    "ALTER TABLE cards ADD COLUMN digital INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE cards ADD COLUMN digital_only INTEGER NOT NULL DEFAULT 0",
)


def upgrade(path: Path) -> bool:
    """Upgrade the copy at ``path`` to the current format in place (atomically); True when it was upgraded.

    A copy already current, missing, unreadable or of a format this cannot upgrade is left alone (the store
    refuses what it can't read, and the next refresh imports a new copy).
    """
    path = Path(path)
    if stored_meta(path).get("format") not in UPGRADABLE:
        return False
    started = time.perf_counter()
    temp = path.with_name(path.name + ".upgrading")
    temp.unlink(missing_ok=True)
    try:
        shutil.copyfile(path, temp)
        db = sqlite3.connect(temp, isolation_level=None)
        try:
            db.execute("PRAGMA journal_mode = OFF")
            db.execute("BEGIN")
            for statement in _ADD_COLUMNS:
                db.execute(statement)
            rows = db.execute("SELECT rowid, raw FROM cards").fetchall()
            db.executemany(
                "UPDATE cards SET games = ?, digital = ?, digital_only = ? WHERE rowid = ?",
                [(*printing_columns(json.loads(zlib.decompress(raw))), rowid) for rowid, raw in rows],
            )
            db.execute("UPDATE meta SET value = ? WHERE key = 'format'", (FORMAT,))
            db.execute("COMMIT")
        finally:
            db.close()
        with open(temp, "rb") as handle:
            os.fsync(handle.fileno())
        os.replace(temp, path)
    except (OSError, sqlite3.Error, ValueError) as error:
        temp.unlink(missing_ok=True)
        log.warning("Could not upgrade the stored card data (%s); the next refresh replaces it", error)
        return False
    log.info(
        "Upgraded the stored card data to format %s (%d cards) in %.1f s",
        FORMAT,
        len(rows),
        time.perf_counter() - started,
    )
    return True
