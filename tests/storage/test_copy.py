"""``python -m bot db copy --to postgresql://…``: every game, statistic and setting arrives, or nothing does."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import asyncpg

from bot.goldfish import GameStore, StatsDelta
from bot.storage import Database
from bot.storage.postgres import PostgresDatabase

ROOT = Path(__file__).resolve().parents[2]
GAMES = 40


def run_module(*args: str, data_dir: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "BOT_", "DATABASE_"))}
    env.update(PYTHONPATH=str(ROOT), BOT_DATA_DIR=str(data_dir))
    return subprocess.run(
        [sys.executable, "-m", "bot", *args], env=env, cwd=data_dir.parent, capture_output=True, text=True, timeout=60
    )


async def seed(path: Path) -> None:
    db = await Database.open(path)
    store = GameStore(db)
    for n in range(GAMES):
        state = {"turn": n, "deck_name": "Ségolène's 'slide' \\ \"quoted\" @everyone", "hand": list(range(n))}
        created = await store.create(
            channel_id=2**62 + n,
            guild_id=10,
            owner_id=n % 7 + 1,
            shared=n % 2 == 0,
            state=state,
            stats=StatsDelta(games=1),
        )
        for _ in range(n % 3):
            version = (await store.load(created.key)).version
            await store.save(created.key, {**state, "turn": n + 1}, version, user_id=n % 7, stats=StatsDelta(turns=1))
    await db.set_meta("command_sync:1:global", "abc123")
    await db.close()


async def dump(url_or_path) -> dict[str, list[tuple]]:
    """Every row of the copied tables, sorted, as plain tuples."""
    queries = {
        "goldfish_games": (
            "SELECT channel_id, player_id, guild_id, owner_id, shared, version, state, created_at, updated_at "
            "FROM goldfish_games ORDER BY channel_id, player_id"
        ),
        "goldfish_stats": "SELECT * FROM goldfish_stats ORDER BY user_id",
        "meta": "SELECT * FROM meta ORDER BY key",
    }
    if isinstance(url_or_path, Path):
        db = await Database.open(url_or_path)
    else:
        db = await PostgresDatabase.open(url_or_path)
    try:
        return {name: [tuple(row) for row in await db.fetchall(sql)] for name, sql in queries.items()}
    finally:
        await db.close()


async def test_db_copy_moves_every_game_statistic_and_setting_and_refuses_to_copy_twice(tmp_path, postgres_url):
    data = tmp_path / "data"
    await seed(data / "bot.sqlite3")
    before = await dump(data / "bot.sqlite3")
    assert len(before["goldfish_games"]) == GAMES and before["goldfish_stats"] and before["meta"]

    copied = await asyncio.to_thread(run_module, "db", "copy", "--to", postgres_url, data_dir=data)
    assert copied.returncode == 0, copied.stderr
    assert f"{GAMES} goldfish_games" in copied.stdout

    assert await dump(postgres_url) == before
    # The copied games carry on where they were: the next write names the version they had.
    db = await PostgresDatabase.open(postgres_url)
    store = GameStore(db)
    game = (await store.in_channel(2**62 + 5))[0]
    assert await store.save(game.key, {"turn": 99}, game.version) == game.version + 1
    await db.close()

    again = await asyncio.to_thread(run_module, "db", "copy", "--to", postgres_url, data_dir=data)
    assert again.returncode == 2
    assert "already holds data" in again.stderr and "nothing was copied" in again.stderr
    assert "Traceback" not in again.stderr
    assert len((await dump(postgres_url))["goldfish_games"]) == GAMES


async def test_a_copy_that_fails_half_way_leaves_the_target_empty(tmp_path, postgres_url):
    data = tmp_path / "data"
    await seed(data / "bot.sqlite3")
    # A row PostgreSQL's table refuses (not JSON) comes after good ones: the whole copy must roll back.
    db = await Database.open(data / "bot.sqlite3")
    async with db.transaction() as conn:
        await conn.execute("PRAGMA ignore_check_constraints = ON")
        await conn.execute("UPDATE goldfish_games SET state = '{not json' WHERE channel_id = ?", (2**62 + GAMES - 1,))
        await conn.execute("PRAGMA ignore_check_constraints = OFF")
    await db.close()

    failed = await asyncio.to_thread(run_module, "db", "copy", "--to", postgres_url, data_dir=data)
    assert failed.returncode != 0
    connection = await asyncpg.connect(postgres_url)
    try:
        assert await connection.fetchval("SELECT count(*) FROM goldfish_games") == 0
        assert await connection.fetchval("SELECT count(*) FROM goldfish_stats") == 0
        assert await connection.fetchval("SELECT count(*) FROM meta") == 0
    finally:
        await connection.close()


def test_db_copy_refuses_a_target_that_is_not_postgresql_and_never_prints_a_password(tmp_path):
    data = tmp_path / "data"
    wrong = run_module("db", "copy", "--to", "mysql://bot:hunter2secret@db/cyclebot", data_dir=data)
    assert wrong.returncode == 2 and "postgresql://" in wrong.stderr and "hunter2secret" not in wrong.stderr
    missing = run_module("db", "copy", "--to", "postgresql://bot:hunter2secret@127.0.0.1:9/x", data_dir=data)
    assert missing.returncode == 2 and "does not exist" in missing.stderr
    assert "hunter2secret" not in missing.stderr + missing.stdout


async def test_db_copy_to_a_server_that_is_not_there_names_the_option_it_came_from(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    await (await Database.open(data / "bot.sqlite3")).close()
    unreachable = run_module("db", "copy", "--to", "postgresql://bot:hunter2secret@127.0.0.1:9/x", data_dir=data)
    assert unreachable.returncode == 2
    (line,) = unreachable.stderr.splitlines()
    assert line.startswith("error: cannot reach PostgreSQL at") and "host and port in --to right?" in line
    assert "DATABASE_URL" not in line and "hunter2secret" not in line
