"""The bot's SQLite database: WAL mode, numbered migrations, one transaction per action, online backups.

The schema version lives in one place, ``PRAGMA user_version``: migration N sets it to N in the same
transaction as its tables.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import os
import re
import sqlite3
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import aiosqlite

log = logging.getLogger(__name__)

MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")
# Databases made before the version lived only in ``user_version`` also listed migrations in this table.
LEGACY_MIGRATIONS_TABLE = "schema_migrations"
# Tables every Cyclebot database has from migration 1 on: how ``restore`` recognises one.
CORE_TABLES = frozenset({"meta"})


class StorageError(RuntimeError):
    """The database cannot be used; the message names the file and what to do about it."""


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
    """The bot's aiosqlite connections: one writer shared by the bot, and a read-only reader.

    aiosqlite runs every statement on one thread, so two tasks writing at once would
    interleave inside one transaction; ``transaction()`` serialises writers with a lock.
    The reader (a file database only) answers read-only views without waiting for a writer:
    WAL mode lets it read the last committed state while a write is in progress.
    """

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


# -- start-up failures, backups and restores ----------------------------------------------------------------


def explain_open_error(path: Path | str, error: BaseException) -> StorageError | None:
    """A one-line explanation of why ``path`` could not be opened, or None for an error nobody can fix by hand."""
    text = str(error).lower()
    where = Path(path)
    if isinstance(error, sqlite3.DatabaseError) and ("not a database" in text or "malformed" in text):
        return StorageError(
            f"the database {where} is damaged ({error}). Restore a backup with 'python -m bot restore FILE', "
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


def _connect_sync(path: Path) -> sqlite3.Connection:
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("PRAGMA busy_timeout=5000")
    return connection


def describe_database(path: Path) -> int:
    """The schema version of the Cyclebot database at ``path``; StorageError if it is not one this bot can use."""
    if not path.is_file():
        raise StorageError(f"{path} does not exist or is not a file.")
    newest = bundled_migrations()[-1].version
    try:
        connection = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            if connection.execute("PRAGMA quick_check").fetchone()[0] != "ok":
                raise sqlite3.DatabaseError("database disk image is malformed")
            version = int(connection.execute("PRAGMA user_version").fetchone()[0])
            tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        finally:
            connection.close()
    except sqlite3.DatabaseError as error:
        raise StorageError(f"{path} is not a usable SQLite database ({error}).") from None
    if not CORE_TABLES <= tables or not 1 <= version <= newest:
        raise StorageError(
            f"{path} is not a Cyclebot database this version knows (schema version {version}, tables "
            f"{', '.join(sorted(tables)) or 'none'}; this bot knows versions 1 to {newest})."
        )
    return version


def backup(source: Path, target: Path) -> int:
    """Copy the database at ``source`` to ``target`` as one self-contained file, consistent even while the bot
    writes (SQLite's online backup API reads one snapshot, the -wal file included). Returns its schema version."""
    if not source.is_file():
        raise StorageError(f"there is no database at {source} (check BOT_DATA_DIR).")
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    try:
        reader, writer = _connect_sync(source), sqlite3.connect(partial, isolation_level=None)
        try:
            reader.backup(writer)
            # A backup is one file: no -wal beside it that could be forgotten.
            writer.execute("PRAGMA journal_mode=DELETE").fetchone()
        finally:
            writer.close()
            reader.close()
        version = describe_database(partial)
        os.replace(partial, target)
    except (OSError, sqlite3.Error) as error:
        partial.unlink(missing_ok=True)
        raise explain_open_error(source, error) or StorageError(f"the backup failed: {error}") from None
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    return version


def restore(source: Path, database: Path) -> int:
    """Replace ``database`` with the backup ``source`` (the bot must be stopped): check the backup, keep the current
    database beside it as ``.before-restore``, drop its stale -wal/-shm and swap the file in atomically."""
    version = describe_database(source)
    database.parent.mkdir(parents=True, exist_ok=True)
    with data_dir_lock(database.parent, purpose="restore"):
        if database.exists():
            # Through the backup API, so what the -wal file held is kept too.
            try:
                backup(database, database.with_name(database.name + ".before-restore"))
            except StorageError as error:
                log.warning("Could not keep a copy of the current database: %s", error)
        incoming = database.with_name(database.name + ".restoring")
        backup(source, incoming)
        # A -wal left beside the new file would be replayed into it: remove the old one first.
        for suffix in ("-wal", "-shm"):
            Path(f"{database}{suffix}").unlink(missing_ok=True)
        os.replace(incoming, database)
    return version


LOCK_NAME = "bot.lock"


@contextmanager
def data_dir_lock(data_dir: Path, *, purpose: str) -> Iterator[None]:
    """Hold ``data_dir/bot.lock`` exclusively: one running bot per data directory, no restore under a live bot."""
    try:
        import fcntl
    except ImportError:  # Windows: no advisory locks; the README says to stop the bot first
        yield
        return
    path = data_dir / LOCK_NAME
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
        handle = path.open("a")
    except OSError as error:
        raise explain_open_error(data_dir / "bot.sqlite3", error) or StorageError(str(error)) from None
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise StorageError(
                f"another Cyclebot is using {data_dir}; stop it before the {purpose}"
                + (" (python -m bot backup works while it runs)." if purpose == "restore" else ".")
            ) from None
        yield
    finally:
        handle.close()
