"""The bot's SQLite database (the default): WAL mode, numbered migrations, one transaction per action.

The schema version lives in one place, ``PRAGMA user_version``: migration N sets it to N in the same
transaction as its tables.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import sqlite3
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.storage.base import MetaSettings, Migration, StorageError, bundled_migrations

log = logging.getLogger(__name__)

T = TypeVar("T")
Statement = tuple[str, Sequence[Any]]

# Databases made before the version lived only in ``user_version`` also listed migrations in this table.
LEGACY_MIGRATIONS_TABLE = "schema_migrations"


class Database(MetaSettings):
    """The bot's aiosqlite connections: one writer shared by the bot, and a read-only reader.

    aiosqlite runs every statement on one thread, so two tasks writing at once would
    interleave inside one transaction; ``transaction()`` serialises writers with a lock.
    The reader (a file database only) answers read-only views without waiting for a writer:
    WAL mode lets it read the last committed state while a write is in progress.
    """

    dialect = "sqlite"
    # What a write that breaks a UNIQUE or PRIMARY KEY constraint raises.
    integrity_errors: tuple[type[BaseException], ...] = (sqlite3.IntegrityError,)

    @staticmethod
    def is_unavailable(error: BaseException) -> bool:
        """Locked longer than the busy timeout (a backup, a restore or another program holds it), a full disk, or a
        disk that fails: the request can't be served now, and nothing of it was written."""
        text = str(error).lower()
        return isinstance(error, sqlite3.OperationalError) and any(
            reason in text for reason in ("locked", "busy", "disk i/o", "full")
        )

    def __init__(self, connection: aiosqlite.Connection, path: Path | str) -> None:
        self.connection = connection
        self.reader: aiosqlite.Connection | None = None
        self.path = path
        self._write_lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: Path | str, migrations: list[Migration] | None = None) -> Database:
        """Open and migrate the database; StorageError (one line: the file and the remedy) if it is damaged,
        not writable or on a full disk."""
        try:
            return await cls._open(path, migrations)
        except (OSError, sqlite3.Error) as error:
            explained = explain_open_error(path, error)
            if explained is None:
                raise
            raise explained from error

    @classmethod
    async def _open(cls, path: Path | str, migrations: list[Migration] | None) -> Database:
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
            await db._open_reader()
        except BaseException:
            await connection.close()
            raise
        return db

    async def _open_reader(self) -> None:
        if str(self.path) == ":memory:":
            return  # an in-memory database is private to its connection: reads share the writer's
        uri = await asyncio.to_thread(lambda: Path(self.path).resolve().as_uri() + "?mode=ro")
        self.reader = await aiosqlite.connect(uri, uri=True, isolation_level=None)
        self.reader.row_factory = aiosqlite.Row

    def describe(self) -> str:
        """Where the data lives, for logs (no secrets in it)."""
        return f"SQLite {self.path}"

    async def close(self) -> None:
        try:
            if self.reader is not None:
                await self.reader.close()
                self.reader = None
        finally:
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
            raise StorageError(
                f"the database is at schema version {current}, newer than this bot knows ({newest}); "
                "run a newer version of the bot"
            )
        if await self.fetchone(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (LEGACY_MIGRATIONS_TABLE,)
        ):
            # It only repeated user_version; one record of the schema version is enough.
            async with self.transaction() as conn:
                await conn.execute(f"DROP TABLE {LEGACY_MIGRATIONS_TABLE}")
        for migration in migrations:
            if migration.version <= current:
                continue
            log.info("Applying database migration %s", migration.name)
            # executescript() commits any open transaction before it runs, so the
            # transaction is part of the script itself; the name matched MIGRATION_NAME.
            script = (
                f"BEGIN IMMEDIATE;\n{migration.sql}\n;"  # noqa: S608 (bundled file; version and name validated)
                f"PRAGMA user_version = {int(migration.version)};"
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
        async with self.answering(), self._write_lock:
            await self.connection.execute("BEGIN IMMEDIATE")
            try:
                yield self.connection
            except BaseException:
                await self.connection.execute("ROLLBACK")
                raise
            else:
                try:
                    await self.connection.execute("COMMIT")
                except BaseException:
                    # A commit that failed (a full or failing disk) leaves the transaction open: end it, or every
                    # later BEGIN would fail too.
                    if self.connection.in_transaction:
                        await self.connection.execute("ROLLBACK")
                    raise

    async def write_fetchall(self, sql: str, params: tuple = ()) -> list[aiosqlite.Row]:
        """One statement as a transaction of its own (autocommit: SQLite commits it when it finishes), in one
        round trip to the database thread; under the write lock, so it never lands inside another
        coroutine's open transaction. The rows its ``RETURNING`` clause gives."""
        async with self.answering(), self._write_lock:
            return list(await self.connection.execute_fetchall(sql, params))

    async def write_if(self, guard: Statement, then: Sequence[Statement]) -> int:
        """``guard``, and ``then`` only if the guard changed exactly one row, as one transaction in one round
        trip to the database thread (instead of one per statement). How many rows the guard changed."""

        def work(conn: sqlite3.Connection) -> int:
            conn.execute("BEGIN IMMEDIATE")
            try:
                changed = conn.execute(*guard).rowcount
                if changed == 1:
                    for sql, params in then:
                        conn.execute(sql, params)
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
            return changed

        async with self.answering(), self._write_lock:
            return await self._on_thread(work)

    async def _on_thread(self, work: Callable[[sqlite3.Connection], T]) -> T:
        # aiosqlite's own primitive (every one of its methods is built on it): run a function with the
        # sqlite3 connection on the connection's thread, in order with everything else sent to it.
        connection = self.connection
        return await connection._execute(lambda: work(connection._conn))  # noqa: SLF001

    async def fetchone(self, sql: str, params: tuple = (), *, reader: bool = False) -> aiosqlite.Row | None:
        """The first row of a query; with ``reader``, from the read-only connection (never waits for a writer)."""
        rows = await self.fetchall(sql, params, reader=reader)
        return next(iter(rows), None)

    async def fetchall(self, sql: str, params: tuple = (), *, reader: bool = False) -> list[aiosqlite.Row]:
        # One round trip to the database thread (execute, fetch and close together).
        conn = (self.reader or self.connection) if reader else self.connection
        async with self.answering():
            return list(await conn.execute_fetchall(sql, params))


# -- start-up failures --------------------------------------------------------------------------------------


def explain_open_error(path: Path | str, error: BaseException) -> StorageError | None:
    """A one-line explanation of why ``path`` could not be opened, or None for an error nobody can fix by hand."""
    text = str(error).lower()
    where = Path(path)
    if isinstance(error, sqlite3.DatabaseError) and ("not a database" in text or "malformed" in text):
        return StorageError(
            f"the database {where} is damaged ({error}). Restore a backup with 'cyclebot restore FILE', "
            "or move the file (and any -wal/-shm beside it) away to start with an empty database."
        )
    full = "disk is full" in text or getattr(error, "errno", None) == errno.ENOSPC
    if full:
        return StorageError(f"the disk holding {where} is full: free some space there, then start the bot again.")
    denied = isinstance(error, PermissionError) or getattr(error, "errno", None) in (errno.EACCES, errno.EROFS)
    if denied or "readonly" in text or "unable to open" in text or "read-only" in text:
        return StorageError(
            f"cannot write the database {where} ({error}): make {where.parent} writable by the user running "
            "the bot, or point BOT_DATA_DIR at a directory that is."
        )
    return None
