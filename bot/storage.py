"""The bot's SQLite database: WAL mode, numbered migrations, one transaction per action."""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import aiosqlite

log = logging.getLogger(__name__)

MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


def bundled_migrations() -> list[Migration]:
    """The numbered ``bot/migrations/NNNN_name.sql`` files, in order."""
    found = []
    for entry in resources.files("bot.migrations").iterdir():
        match = MIGRATION_NAME.match(entry.name)
        if match:
            found.append(Migration(int(match.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    versions = [m.version for m in found]
    if versions != list(range(1, len(found) + 1)):
        raise RuntimeError(f"migrations must be numbered 1..N without gaps, found {versions}")
    return found


class Database:
    """One aiosqlite connection shared by the bot.

    aiosqlite runs every statement on one thread, so two tasks writing at once would
    interleave inside one transaction; ``transaction()`` serialises writers with a lock.
    """

    def __init__(self, connection: aiosqlite.Connection, path: Path | str) -> None:
        self.connection = connection
        self.path = path
        self._write_lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: Path | str, migrations: list[Migration] | None = None) -> Database:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        connection = await aiosqlite.connect(path, isolation_level=None)
        connection.row_factory = aiosqlite.Row
        try:
            for pragma in (
                "PRAGMA journal_mode=WAL",
                "PRAGMA synchronous=NORMAL",
                "PRAGMA foreign_keys=ON",
                "PRAGMA busy_timeout=5000",
                # Deleted rows are overwritten with zeros, so a deletion request leaves no copy behind.
                "PRAGMA secure_delete=ON",
            ):
                # Some pragmas answer with a row: close each cursor so no statement stays open.
                await (await connection.execute(pragma)).close()
            db = cls(connection, path)
            await db.migrate(bundled_migrations() if migrations is None else migrations)
        except BaseException:
            await connection.close()
            raise
        return db

    async def close(self) -> None:
        await self.connection.close()

    async def checkpoint(self) -> None:
        """Copy the WAL into the database file and empty it (after a deletion, so no old copy stays in -wal)."""
        async with self._write_lock:
            await (await self.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")).close()

    async def schema_version(self) -> int:
        async with self.connection.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        return int(row[0])

    async def migrate(self, migrations: list[Migration]) -> None:
        current = await self.schema_version()
        newest = migrations[-1].version if migrations else 0
        if current > newest:
            raise RuntimeError(
                f"the database is at schema version {current}, newer than this bot knows ({newest}); "
                "run a newer version of the bot"
            )
        for migration in migrations:
            if migration.version <= current:
                continue
            log.info("Applying database migration %s", migration.name)
            # executescript() commits any open transaction before it runs, so the
            # transaction is part of the script itself; the name matched MIGRATION_NAME.
            script = (
                f"BEGIN IMMEDIATE;\n{migration.sql}\n;"  # noqa: S608 (bundled file; version and name validated)
                f"PRAGMA user_version = {int(migration.version)};"
                f"INSERT INTO schema_migrations (version, name) "
                f"VALUES ({int(migration.version)}, '{migration.name}');"
                "COMMIT;"
            )
            async with self._write_lock:
                try:
                    await self.connection.executescript(script)
                except BaseException:
                    if self.connection.in_transaction:
                        await self.connection.execute("ROLLBACK")
                    raise

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """``BEGIN IMMEDIATE`` … ``COMMIT``, rolled back on any error."""
        async with self._write_lock:
            await self.connection.execute("BEGIN IMMEDIATE")
            try:
                yield self.connection
            except BaseException:
                await self.connection.execute("ROLLBACK")
                raise
            else:
                await self.connection.execute("COMMIT")

    async def fetchone(self, sql: str, params: tuple = ()) -> aiosqlite.Row | None:
        async with self.connection.execute(sql, params) as cursor:
            return await cursor.fetchone()

    async def fetchall(self, sql: str, params: tuple = ()) -> list[aiosqlite.Row]:
        async with self.connection.execute(sql, params) as cursor:
            return list(await cursor.fetchall())

    async def get_meta(self, key: str) -> str | None:
        row = await self.fetchone("SELECT value FROM meta WHERE key = ?", (key,))
        return None if row is None else row["value"]

    async def set_meta(self, key: str, value: str) -> None:
        async with self.transaction() as conn:
            await conn.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (key, value),
            )
