"""``cyclebot db copy --to postgresql://…``: move a SQLite database into PostgreSQL, every row of it.

The copy refuses a target that already holds data (nothing there is overwritten or merged), runs in one
PostgreSQL transaction (a failure leaves the target as empty as it was) and counts the rows on both sides
before it commits.
"""

from __future__ import annotations

import logging
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from bot.storage.base import StorageError
from bot.storage.files import describe_database
from bot.storage.postgres import PostgresDatabase, redact_url
from bot.storage.sqlite import Database

log = logging.getLogger(__name__)

# Bookkeeping of each dialect, not data: the schema version is kept by each side's own migrations.
NOT_COPIED = frozenset({"schema_version", "scryfall_budget", "schema_migrations"})
# Tables the target may already have rows in without holding anyone's data: the migration fills them.
MIGRATION_ROWS = frozenset({"scryfall_budget", "schema_version"})


@dataclass(frozen=True)
class CopyReport:
    schema_version: int
    rows: dict[str, int]


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _read_tables(path: Path) -> dict[str, tuple[list[str], list[tuple]]]:
    """Every table of the SQLite file: its columns and rows, read from one snapshot."""
    connection = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        connection.execute("BEGIN")  # one read transaction: every table from the same moment
        names = [
            row[0]
            for row in connection.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
            )
        ]
        tables = {}
        for name in names:
            if name in NOT_COPIED:
                continue
            cursor = connection.execute(f"SELECT * FROM {_quote(name)}")  # noqa: S608 (a name from sqlite_master)
            columns = [description[0] for description in cursor.description]
            tables[name] = (columns, cursor.fetchall())
        return tables
    finally:
        connection.close()


async def copy_to_postgres(source: Path, url: str) -> CopyReport:
    """Copy the Cyclebot SQLite database at ``source`` into the (empty) PostgreSQL database at ``url``."""
    version = describe_database(source)
    # Brings the file to this bot's schema first, so both sides have the same tables.
    await (await Database.open(source)).close()
    tables = _read_tables(source)
    target = await PostgresDatabase.open(url, setting="--to")
    where = redact_url(url)
    try:
        version = await target.schema_version()
        present = {
            row["table_name"]
            for row in await target.fetchall(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
            )
        }
        missing = sorted(set(tables) - present)
        if missing:
            raise StorageError(
                f"PostgreSQL at {where} has no table for {', '.join(missing)}: the copy would lose them. "
                "Use a bot version whose migrations create them."
            )
        busy = []
        for name in sorted(present - MIGRATION_ROWS):
            count = (await target.fetchone(f"SELECT count(*) AS n FROM {_quote(name)}"))["n"]  # noqa: S608
            if count:
                busy.append(f"{name} ({count} rows)")
        if busy:
            raise StorageError(
                f"PostgreSQL at {where} already holds data ({', '.join(busy)}); nothing was copied. Copy into an "
                "empty database (createdb a new one), or drop these rows first if they are not needed."
            )
        copied: dict[str, int] = {}
        async with target.transaction() as conn:
            for name, (columns, rows) in tables.items():
                if rows:
                    await conn.raw.copy_records_to_table(name, records=rows, columns=columns)
                counted = (await (await conn.execute(f"SELECT count(*) AS n FROM {_quote(name)}")).fetchone())["n"]  # noqa: S608
                if counted != len(rows):
                    raise StorageError(f"copying {name} gave {counted} rows instead of {len(rows)}; nothing was copied")
                copied[name] = counted
        log.info("Copied %s into PostgreSQL at %s", ", ".join(f"{n} ({c})" for n, c in copied.items()), where)
        return CopyReport(version, copied)
    finally:
        await target.close()
