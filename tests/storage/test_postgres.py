"""PostgreSQL specifics against a real server: placeholders, migrations racing, a process dying mid-action,
start-up failures that name the server but never the password."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import sys
import textwrap
from pathlib import Path

import pytest

from bot.goldfish import GameStore, StaleGameError, StatsDelta
from bot.storage import StorageError, bundled_migrations
from bot.storage.postgres import PostgresDatabase, placeholders

ROOT = Path(__file__).resolve().parents[2]


def test_placeholders_are_numbered_outside_quotes_only():
    sql = "SELECT '?', \"a?\" FROM t WHERE x = ? AND y = 'it''s ?' AND z IN (?, ?)"
    assert placeholders(sql) == "SELECT '?', \"a?\" FROM t WHERE x = $1 AND y = 'it''s ?' AND z IN ($2, $3)"


async def test_processes_starting_together_migrate_once(postgres_url):
    # Separate pools, as separate processes would have: the advisory lock lets one migrate, the others wait.
    opened = await asyncio.gather(*(PostgresDatabase.open(postgres_url) for _ in range(4)))
    try:
        versions = {await db.schema_version() for db in opened}
        assert versions == {len(bundled_migrations("postgresql"))}
        rows = await opened[0].fetchall("SELECT klass FROM scryfall_budget ORDER BY klass")
        assert [row["klass"] for row in rows] == ["other", "search"]
    finally:
        for db in opened:
            await db.close()


DIE_MID_ACTION = textwrap.dedent(
    """
    import asyncio, sys
    from bot.storage.postgres import PostgresDatabase

    async def main(url):
        db = await PostgresDatabase.open(url)
        async with db.transaction() as conn:
            await conn.execute("UPDATE goldfish_games SET state = ?, version = version + 1 WHERE channel_id = ?",
                               ('{"turn": 99}', 100))
            await conn.execute("INSERT INTO goldfish_stats (user_id, games) VALUES (?, ?)", (1, 5))
            print("written", flush=True)
            await asyncio.sleep(60)

    asyncio.run(main(sys.argv[1]))
    """
)


async def test_a_process_killed_mid_action_leaves_the_game_as_it_was_and_unlocked(postgres_url):
    db = await PostgresDatabase.open(postgres_url)
    store = GameStore(db)
    game = (await store.create(channel_id=100, guild_id=10, owner_id=1, shared=False, state={"turn": 1})).key
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", DIE_MID_ACTION, postgres_url, cwd=ROOT, stdout=asyncio.subprocess.PIPE
    )
    try:
        line = await asyncio.wait_for(process.stdout.readline(), 30)
        assert line.strip() == b"written"
    finally:
        os.kill(process.pid, signal.SIGKILL)
        await process.wait()

    # The server rolls the dead connection's transaction back and frees its row lock.
    loaded = await store.load(game)
    assert loaded.version == 1 and loaded.state == {"turn": 1}
    assert await store.get_stats(1) is None
    assert await asyncio.wait_for(store.save(game, {"turn": 2}, 1, user_id=1, stats=StatsDelta(turns=1)), 10) == 2
    with pytest.raises(StaleGameError):
        await store.save(game, {"turn": 3}, 1)
    await db.close()


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


async def test_an_unreachable_server_is_named_with_the_remedy_and_without_the_password():
    url = f"postgresql://bot:hunter2secret@127.0.0.1:{_closed_port()}/cyclebot"
    with pytest.raises(StorageError) as caught:
        await PostgresDatabase.open(url)
    message = str(caught.value)
    assert "cannot reach PostgreSQL" in message and "DATABASE_URL" in message
    assert "hunter2secret" not in message and "bot:***@127.0.0.1" in message
    assert "\n" not in message


async def test_a_missing_database_is_named_with_the_remedy(postgres_server):
    with pytest.raises(StorageError, match="does not exist.*createdb"):
        await PostgresDatabase.open(postgres_server.url("no_such_database"))
