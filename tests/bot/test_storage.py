"""SQLite storage: numbered migrations, schema version, atomic transactions."""

from __future__ import annotations

import asyncio

import pytest

from bot.storage import Database, Migration, bundled_migrations


def test_bundled_migrations_are_numbered_without_gaps():
    migrations = bundled_migrations()
    assert [m.version for m in migrations] == list(range(1, len(migrations) + 1))
    assert migrations[0].name == "0001_core.sql"


async def test_migrations_apply_once_and_record_the_version(tmp_path):
    path = tmp_path / "db.sqlite3"
    db = await Database.open(path)
    version = await db.schema_version()
    assert version == len(bundled_migrations())
    rows = await db.fetchall("SELECT version, name FROM schema_migrations ORDER BY version")
    assert [row["version"] for row in rows] == list(range(1, version + 1))
    await db.close()

    again = await Database.open(path)
    assert len(await again.fetchall("SELECT * FROM schema_migrations")) == version
    await again.close()


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
