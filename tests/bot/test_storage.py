"""Storage: numbered migrations, schema version and atomic transactions on SQLite and PostgreSQL alike (the ``db``
fixture runs those once per dialect); SQLite's start-up failures, backups and restores."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.storage import Database, Migration, StorageError, backup, bundled_migrations, describe_database, restore
from bot.storage.postgres import PostgresDatabase

DIALECTS = ["sqlite", "postgresql"]


def wal_size(database: Path) -> int | None:
    """The size of the -wal file beside ``database``, None if there is none."""
    wal = Path(f"{database}-wal")
    return wal.stat().st_size if wal.exists() else None


async def tables(db) -> set[str]:
    if db.dialect == "postgresql":
        sql = "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
    else:
        sql = "SELECT name FROM sqlite_master WHERE type = 'table'"
    return {row[0] for row in await db.fetchall(sql)}


@pytest.fixture(params=DIALECTS)
def target(request, tmp_path):
    """Where a test opens (and reopens) a database of each dialect: ``(open, migrations)``."""
    if request.param == "sqlite":
        path = tmp_path / "db.sqlite3"

        async def open_sqlite(migrations=None):
            return await Database.open(path, migrations)

        return open_sqlite, bundled_migrations("sqlite")
    url = request.getfixturevalue("postgres_url")

    async def open_postgres(migrations=None):
        return await PostgresDatabase.open(url, migrations)

    return open_postgres, bundled_migrations("postgresql")


@pytest.mark.parametrize("dialect", DIALECTS)
def test_bundled_migrations_are_numbered_without_gaps(dialect):
    migrations = bundled_migrations(dialect)
    assert [m.version for m in migrations] == list(range(1, len(migrations) + 1))
    assert migrations[0].name == "0001_core.sql"


def test_both_dialects_have_the_same_numbered_migrations():
    sqlite, postgresql = bundled_migrations("sqlite"), bundled_migrations("postgresql")
    assert [m.name for m in sqlite] == [m.name for m in postgresql]


async def test_migrations_apply_once_and_record_the_version_in_user_version_alone(tmp_path):
    path = tmp_path / "db.sqlite3"
    db = await Database.open(path)
    version = await db.schema_version()
    assert version == len(bundled_migrations())
    assert "meta" in await tables(db) and "schema_migrations" not in await tables(db)
    await db.set_meta("kept", "yes")
    await db.close()

    # A second open applies nothing again: a re-run migration 1 would fail or reset nothing, so prove it by a
    # migration that could only run once.
    once = Migration(version + 1, f"{version + 1:04d}_once.sql", "CREATE TABLE once (x);")
    again = await Database.open(path, bundled_migrations() + [once])
    assert await again.schema_version() == version + 1
    await again.close()
    third = await Database.open(path, bundled_migrations() + [once])
    assert await third.schema_version() == version + 1 and await third.get_meta("kept") == "yes"
    await third.close()


async def test_migrations_apply_once_in_either_dialect(target):
    open_db, migrations = target
    db = await open_db()
    version = await db.schema_version()
    assert version == len(migrations)
    assert {"meta", "goldfish_games", "goldfish_stats"} <= await tables(db)
    await db.set_meta("kept", "yes")
    await db.close()

    once = Migration(version + 1, f"{version + 1:04d}_once.sql", "CREATE TABLE once (x INTEGER);")
    again = await open_db(migrations + [once])
    assert await again.schema_version() == version + 1
    await again.close()
    third = await open_db(migrations + [once])
    assert await third.schema_version() == version + 1 and await third.get_meta("kept") == "yes"
    await third.close()


async def test_a_failing_migration_leaves_nothing_behind_in_either_dialect(target):
    open_db, good = target
    broken = Migration(len(good) + 1, f"{len(good) + 1:04d}_broken.sql", "CREATE TABLE half (x INTEGER);\nNOT SQL;")
    with pytest.raises(Exception, match="syntax error"):
        await open_db(good + [broken])
    db = await open_db(good)
    assert await db.schema_version() == len(good)
    assert "half" not in await tables(db)
    await db.close()


async def test_a_newer_postgresql_database_is_refused(postgres_url):
    db = await PostgresDatabase.open(postgres_url)
    async with db.transaction() as conn:
        await conn.execute("UPDATE schema_version SET version = 999")
    await db.close()
    with pytest.raises(StorageError, match="newer"):
        await PostgresDatabase.open(postgres_url)


async def test_a_database_that_also_lists_migrations_in_schema_migrations_still_opens(tmp_path):
    path = tmp_path / "db.sqlite3"
    db = await Database.open(path)
    version = await db.schema_version()
    await db.set_meta("command_sync:1:global", "abc")
    # What earlier versions of the bot wrote next to user_version.
    await db.connection.executescript(
        "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT);"
        + "".join(f"INSERT INTO schema_migrations VALUES ({m.version}, '{m.name}', 'x');" for m in bundled_migrations())
    )
    await db.close()

    reopened = await Database.open(path)
    assert await reopened.schema_version() == version
    assert await reopened.get_meta("command_sync:1:global") == "abc"
    assert "schema_migrations" not in await tables(reopened)
    await reopened.close()


async def test_a_failing_migration_leaves_nothing_behind(tmp_path):
    path = tmp_path / "db.sqlite3"
    good = bundled_migrations()
    broken = Migration(len(good) + 1, f"{len(good) + 1:04d}_broken.sql", "CREATE TABLE half (x);\nNOT SQL;")
    with pytest.raises(Exception, match="syntax error"):
        await Database.open(path, good + [broken])
    db = await Database.open(path, good)
    assert await db.schema_version() == len(good)
    assert await db.fetchone("SELECT name FROM sqlite_master WHERE name = 'half'") is None
    await db.close()


async def test_a_newer_database_is_refused(tmp_path):
    path = tmp_path / "db.sqlite3"
    db = await Database.open(path)
    await (await db.connection.execute("PRAGMA user_version = 999")).close()
    await db.close()
    with pytest.raises(RuntimeError, match="newer"):
        await Database.open(path)


# -- start-up failures: one line naming the file and the remedy --------------------------------------------


async def test_a_damaged_database_file_is_named_with_the_remedy(tmp_path):
    path = tmp_path / "bot.sqlite3"
    path.write_bytes(b"this is not a database, it is a shopping list" * 100)
    with pytest.raises(StorageError) as caught:
        await Database.open(path)
    message = str(caught.value)
    assert str(path) in message and "damaged" in message and "cyclebot restore" in message
    assert "\n" not in message


async def test_a_full_disk_is_named_with_the_remedy(tmp_path):
    path = tmp_path / "bot.sqlite3"
    path.symlink_to("/dev/full")  # every write fails with ENOSPC
    with pytest.raises(StorageError, match="is full: free some space") as caught:
        await Database.open(path)
    assert str(path) in str(caught.value)


# -- backups and restores -----------------------------------------------------------------------------------


async def test_a_backup_taken_while_writes_are_in_flight_restores_every_committed_row(tmp_path):
    live = tmp_path / "data" / "bot.sqlite3"
    db = await Database.open(live)
    for n in range(200):
        await db.set_meta(f"before:{n}", "x" * 500)
    # The data is in the -wal file, not the main file, while the bot runs.
    assert wal_size(live) > 0
    stop = asyncio.Event()

    async def keep_writing() -> int:
        n = 0
        while not stop.is_set():
            async with db.transaction() as conn:
                await conn.execute("INSERT INTO meta (key, value) VALUES (?, ?)", (f"during:{n}", "y"))
                await conn.execute("INSERT INTO meta (key, value) VALUES (?, ?)", (f"pair:{n}", "z"))
            n += 1
            await asyncio.sleep(0)
        return n

    writer = asyncio.create_task(keep_writing())
    await asyncio.sleep(0.05)
    copy = tmp_path / "backups" / "bot-backup.sqlite3"
    version = await asyncio.to_thread(backup, live, copy)
    stop.set()
    written = await writer
    await db.close()
    assert written > 0 and version == len(bundled_migrations())
    assert wal_size(copy) is None, "a backup is one self-contained file"

    with sqlite3.connect(copy) as snapshot:
        keys = {row[0] for row in snapshot.execute("SELECT key FROM meta")}
    assert {f"before:{n}" for n in range(200)} <= keys
    during = {k.split(":")[1] for k in keys if k.startswith("during:")}
    pairs = {k.split(":")[1] for k in keys if k.startswith("pair:")}
    assert during == pairs, "each transaction is in the backup whole or not at all"

    # Restoring over a database that has moved on brings back exactly the snapshot.
    db = await Database.open(live)
    await db.set_meta("after", "lost on restore")
    await db.close()
    assert restore(copy, live) == version
    assert wal_size(live) is None and not Path(f"{live}-shm").exists()  # noqa: ASYNC240
    restored = await Database.open(live)
    assert await restored.get_meta("before:199") == "x" * 500
    assert await restored.get_meta("after") is None
    assert len(await restored.fetchall("SELECT key FROM meta WHERE key LIKE 'during:%'")) == len(during)
    await restored.close()
    kept = live.with_name("bot.sqlite3.before-restore")
    with sqlite3.connect(kept) as previous:
        assert previous.execute("SELECT value FROM meta WHERE key = 'after'").fetchone() == ("lost on restore",)


@pytest.mark.parametrize(
    "content",
    [b"", b"garbage " * 1000, b"SQLite format 3\x00" + b"\xff" * 4000],
    ids=["empty", "text", "damaged-header"],
)
async def test_restore_refuses_a_file_that_is_not_a_database_and_leaves_the_live_one_alone(tmp_path, content):
    live = tmp_path / "bot.sqlite3"
    db = await Database.open(live)
    await db.set_meta("precious", "1")
    await db.close()
    bad = tmp_path / "bad.sqlite3"
    bad.write_bytes(content)

    with pytest.raises(StorageError, match="not"):
        restore(bad, live)
    check = await Database.open(live)
    assert await check.get_meta("precious") == "1"
    await check.close()


def test_restore_refuses_a_sqlite_database_of_another_application(tmp_path):
    other = tmp_path / "other.sqlite3"
    with sqlite3.connect(other) as connection:
        connection.execute("CREATE TABLE recipes (name TEXT)")
    with pytest.raises(StorageError, match="not a Cyclebot database"):
        describe_database(other)
    with pytest.raises(StorageError, match="does not exist"):
        describe_database(tmp_path / "missing.sqlite3")


async def test_postgresql_transactions_roll_back_on_error_and_locked_rows_keep_writers_apart(postgres_url):
    db = await PostgresDatabase.open(postgres_url)
    with pytest.raises(ValueError):
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO meta (key, value) VALUES ('a', '1')")
            raise ValueError
    assert await db.get_meta("a") is None
    await db.set_meta("n", "0")

    async def bump(n: int) -> None:
        # Each transaction has its own connection: a read-modify-write locks the row it will change.
        async with db.transaction() as conn:
            row = await (await conn.execute("SELECT value FROM meta WHERE key = 'n' FOR UPDATE")).fetchone()
            await asyncio.sleep(0)
            await conn.execute("UPDATE meta SET value = ? WHERE key = 'n'", (str(int(row[0]) + 1),))

    await asyncio.gather(*(bump(i) for i in range(50)))
    assert await db.get_meta("n") == "50"
    await db.close()


async def test_transaction_rolls_back_on_error_and_concurrent_writers_do_not_interleave(tmp_path):
    db = await Database.open(tmp_path / "db.sqlite3")
    with pytest.raises(ValueError):
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO meta (key, value) VALUES ('a', '1')")
            raise ValueError
    assert await db.get_meta("a") is None

    async def bump(n: int) -> None:
        async with db.transaction() as conn:
            row = await (await conn.execute("SELECT value FROM meta WHERE key = 'n'")).fetchone()
            await asyncio.sleep(0)
            value = int(row[0]) + 1 if row else 1
            await conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('n', ?)", (str(value),))

    await asyncio.gather(*(bump(i) for i in range(50)))
    assert await db.get_meta("n") == "50"
    await db.close()
