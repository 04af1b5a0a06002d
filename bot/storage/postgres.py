"""The bot's PostgreSQL database (``DATABASE_URL``): shared by every process of one bot, through an asyncpg pool.

The same interface as the SQLite :class:`bot.storage.sqlite.Database`: ``transaction()`` (one per user
action), ``fetchone``/``fetchall``, ``get_meta``/``set_meta``, numbered migrations. SQL is written with
``?`` placeholders, bound parameters always; :func:`placeholders` turns them into asyncpg's ``$n`` here,
in one place. The schema version lives in the ``schema_version`` table; migrations run under an advisory
lock, so processes starting at the same moment migrate once, one after the other.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Sequence
from contextlib import asynccontextmanager
from typing import Any

import asyncpg

from bot.config import redact_database_url as redact_url
from bot.storage.base import MetaSettings, Migration, StorageError, bundled_migrations

log = logging.getLogger(__name__)

# Any fixed number works, as long as every process of the bot uses the same one: "cyclebot" in ASCII.
MIGRATION_LOCK = 0x6379636C65626F74
POOL_SIZE = 10
CONNECT_TIMEOUT = 10.0
CLOSE_TIMEOUT = 10.0
# A ? outside quotes is a placeholder; quoted strings and identifiers are skipped whole.
_TOKEN = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|\?")
_RETURNING = re.compile(r"\bRETURNING\b", re.IGNORECASE)
_ROWS_FIRST = ("SELECT", "WITH", "VALUES", "SHOW", "TABLE")


@functools.lru_cache(maxsize=512)
def placeholders(sql: str) -> str:
    """``sql`` with each ``?`` placeholder numbered for PostgreSQL (``$1``, ``$2``…)."""
    counter = 0

    def number(match: re.Match[str]) -> str:
        nonlocal counter
        if match.group(0) != "?":
            return match.group(0)
        counter += 1
        return f"${counter}"

    return _TOKEN.sub(number, sql)


# What connecting and migrating meet when the server can't be used: explained in one line at start.
_CONNECT_ERRORS = (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError)
# What a request meets when the server can't serve it: down or restarting, unreachable, out of connections.
_UNAVAILABLE = (
    OSError,
    TimeoutError,
    asyncpg.PostgresConnectionError,
    asyncpg.CannotConnectNowError,
    asyncpg.AdminShutdownError,
    asyncpg.CrashShutdownError,
    asyncpg.TooManyConnectionsError,
)


def server_unavailable(error: BaseException) -> bool:
    """Whether ``error`` says the server can't be reached or used now (rather than that the request was wrong)."""
    if isinstance(error, _UNAVAILABLE):
        return True
    return isinstance(error, asyncpg.InterfaceError) and ("closed" in str(error) or "closing" in str(error))


def _returns_rows(sql: str) -> bool:
    head = sql.lstrip().split(None, 1)[0].upper() if sql.strip() else ""
    return head in _ROWS_FIRST or _RETURNING.search(sql) is not None


def _rowcount(status: str) -> int:
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else -1


class Cursor:
    """The part of a DB-API cursor the bot uses: the rows of a query and how many rows a write changed."""

    def __init__(self, rows: list[asyncpg.Record], rowcount: int) -> None:
        self._rows = rows
        self.rowcount = rowcount

    async def fetchone(self) -> asyncpg.Record | None:
        return self._rows[0] if self._rows else None

    async def fetchall(self) -> list[asyncpg.Record]:
        return list(self._rows)

    async def close(self) -> None:
        return None


class _Pending:
    """``await conn.execute(…)`` and ``async with conn.execute(…) as cursor``, as with aiosqlite."""

    def __init__(self, work: Awaitable[Cursor]) -> None:
        self._work = work

    def __await__(self):
        return self._work.__await__()

    async def __aenter__(self) -> Cursor:
        return await self._work

    async def __aexit__(self, *exc: object) -> None:
        return None


class Connection:
    """One pooled connection inside a transaction, spoken to like an aiosqlite connection."""

    def __init__(self, raw: asyncpg.Connection) -> None:
        self.raw = raw

    def execute(self, sql: str, params: Sequence[Any] = ()) -> _Pending:
        return _Pending(self._execute(sql, tuple(params)))

    async def _execute(self, sql: str, params: tuple) -> Cursor:
        query = placeholders(sql)
        if _returns_rows(sql):
            rows = await self.raw.fetch(query, *params)
            return Cursor(rows, len(rows))
        if not params:
            # The simple protocol: several statements in one string are allowed (scripts, DDL).
            return Cursor([], _rowcount(await self.raw.execute(query)))
        return Cursor([], _rowcount(await self.raw.execute(query, *params)))

    async def execute_fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[asyncpg.Record]:
        return await self.raw.fetch(placeholders(sql), *params)

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        await self.raw.executemany(placeholders(sql), rows)


def explain_connect_error(url: str, error: BaseException, setting: str = "DATABASE_URL") -> StorageError:
    """One line naming the server (never the password) and what to do; ``setting`` is where the URL came from."""
    where = redact_url(url)
    if isinstance(error, asyncpg.InvalidPasswordError | asyncpg.InvalidAuthorizationSpecificationError):
        return StorageError(f"PostgreSQL at {where} refused the user or password ({error}): check {setting}.")
    if isinstance(error, asyncpg.InvalidCatalogNameError):
        return StorageError(f"PostgreSQL at {where}: {error}. Create the database (createdb) or fix {setting}.")
    if isinstance(error, OSError | TimeoutError | asyncio.TimeoutError):
        return StorageError(
            f"cannot reach PostgreSQL at {where} ({error or type(error).__name__}): is the server running, "
            f"and are the host and port in {setting} right?"
        )
    return StorageError(f"cannot use PostgreSQL at {where}: {error}")


async def _keep_session(connection: asyncpg.Connection) -> None:
    """What a connection needs on its way back to the pool: nothing. The bot sets no session state (no SET, no
    LISTEN, advisory locks released where taken), and asyncpg's default reset costs a round trip per use."""


class PostgresDatabase(MetaSettings):
    """An asyncpg pool: each transaction and each read takes its own connection, so reads never wait for writers,
    and concurrent writes are kept apart by PostgreSQL's row locks (a versioned UPDATE that lost a race
    changes no row)."""

    dialect = "postgresql"
    integrity_errors: tuple[type[BaseException], ...] = (asyncpg.IntegrityConstraintViolationError,)
    reader = None  # the pool serves reads; nothing separate to open
    is_unavailable = staticmethod(server_unavailable)

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        self.pool = pool
        self.url = url
        self.path = redact_url(url)

    @classmethod
    async def open(
        cls,
        url: str,
        migrations: list[Migration] | None = None,
        *,
        pool_size: int = POOL_SIZE,
        setting: str = "DATABASE_URL",
    ) -> PostgresDatabase:
        """Connect and migrate; StorageError (one line, no password, naming ``setting``, where the URL came from)
        when the server can't be used."""
        try:
            pool = await asyncpg.create_pool(
                url,
                # No floor of idle connections: during an outage asyncpg would keep trying to restore it in the
                # background, a traceback each time; connections are opened when requests need them.
                min_size=0,
                max_size=pool_size,
                timeout=CONNECT_TIMEOUT,
                command_timeout=60,
                reset=_keep_session,
            )
        except _CONNECT_ERRORS as error:
            raise explain_connect_error(url, error, setting) from None
        db = cls(pool, url)
        try:
            # The first connection is opened here: an unreachable server or a refused password shows up now.
            await db.migrate(bundled_migrations("postgresql") if migrations is None else migrations)
        except _CONNECT_ERRORS as error:
            await db.close()
            raise explain_connect_error(url, error, setting) from None
        except BaseException:
            await db.close()
            raise
        return db

    def describe(self) -> str:
        return f"PostgreSQL {self.path}"

    async def close(self) -> None:
        try:
            await asyncio.wait_for(self.pool.close(), CLOSE_TIMEOUT)
        except TimeoutError:
            log.warning("PostgreSQL connections did not close in time; dropping them")
            self.pool.terminate()

    async def checkpoint(self) -> None:
        """Nothing to fold: PostgreSQL manages its own write-ahead log."""

    async def schema_version(self) -> int:
        async with self.pool.acquire() as conn:
            return await self._version(conn)

    @staticmethod
    async def _version(conn: asyncpg.Connection) -> int:
        exists = await conn.fetchval("SELECT to_regclass('schema_version') IS NOT NULL")
        if not exists:
            return 0
        value = await conn.fetchval("SELECT version FROM schema_version WHERE id = 1")
        return int(value or 0)

    async def migrate(self, migrations: list[Migration]) -> None:
        newest = migrations[-1].version if migrations else 0
        async with self.pool.acquire() as conn:
            # Held for the whole migration: a second process starting now waits here, then finds nothing to do.
            await conn.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
            try:
                current = await self._version(conn)
                if current > newest:
                    raise StorageError(
                        f"the database is at schema version {current}, newer than this bot knows ({newest}); "
                        "run a newer version of the bot"
                    )
                for migration in migrations:
                    if migration.version <= current:
                        continue
                    log.info("Applying database migration %s", migration.name)
                    async with conn.transaction():
                        await conn.execute(
                            "CREATE TABLE IF NOT EXISTS schema_version "
                            "(id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL)"
                        )
                        await conn.execute(migration.sql)
                        await conn.execute(
                            "INSERT INTO schema_version (id, version) VALUES (1, $1) "
                            "ON CONFLICT (id) DO UPDATE SET version = excluded.version",
                            migration.version,
                        )
            finally:
                await conn.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        """One transaction on its own pooled connection: committed at the end, rolled back on any error
        (and by the server when the process dies half-way)."""
        async with self.answering(), self.pool.acquire() as raw, raw.transaction():
            yield Connection(raw)

    async def fetchone(self, sql: str, params: tuple = (), *, reader: bool = False) -> asyncpg.Record | None:
        async with self.answering():
            return await self.pool.fetchrow(placeholders(sql), *params)

    async def fetchall(self, sql: str, params: tuple = (), *, reader: bool = False) -> list[asyncpg.Record]:
        async with self.answering():
            return await self.pool.fetch(placeholders(sql), *params)
