"""Migration 0006 on SQLite and PostgreSQL alike: games saved when a channel held one game are found where they were,
each its owner's game in its channel or the channel's shared game, and the channel then takes more games."""

from __future__ import annotations

import pytest

from bot.goldfish import SHARED, GameExistsError, GameKey, GameStore
from bot.storage import Database, PostgresDatabase, bundled_migrations

BY_CHANNEL = 5  # the last schema with one game a channel
OLD_GAME = (
    "INSERT INTO goldfish_games (channel_id, guild_id, owner_id, shared, version, state, created_at, updated_at) "
    "VALUES (?, 10, ?, ?, ?, ?, '2026-01-01T00:00:00.000000Z', '2026-01-01T00:00:00Z')"
)


@pytest.fixture(params=["sqlite", "postgresql"])
async def old_db(request, tmp_path):
    """A database at schema 5 holding an own game (channel 100, owner 1) and a shared one (channel 200, owner 2)."""
    older = bundled_migrations(request.param)[:BY_CHANNEL]
    if request.param == "sqlite":
        db = await Database.open(tmp_path / "bot.sqlite3", older)
    else:
        db = await PostgresDatabase.open(request.getfixturevalue("postgres_url"), older)
    async with db.transaction() as conn:
        await conn.execute(OLD_GAME, (100, 1, 0, 7, '{"turn": 3}'))
        await conn.execute(OLD_GAME, (200, 2, 1, 4, '{"turn": 2}'))
    try:
        yield db
    finally:
        await db.close()


async def test_todays_games_are_found_where_they_were_after_the_migration(old_db):
    assert await old_db.schema_version() == BY_CHANNEL
    await old_db.migrate(bundled_migrations(old_db.dialect))
    store = GameStore(old_db)

    own = await store.load(GameKey(100, 1))
    assert (own.owner_id, own.shared, own.version, own.state) == (1, False, 7, {"turn": 3})
    shared = await store.load(GameKey(200, SHARED))
    assert (shared.owner_id, shared.shared, shared.version, shared.state) == (2, True, 4, {"turn": 2})
    # Its owner's commands find the own game; anyone's find the shared one.
    assert (await store.mine_or_shared(100, 1)).key == own.key
    assert await store.mine_or_shared(100, 3) is None
    assert (await store.mine_or_shared(200, 3)).key == shared.key
    # Writes go on from the versions they had.
    assert await store.save(own.key, {"turn": 4}, 7, created_at=own.created_at) == 8


async def test_after_the_migration_a_channel_takes_a_game_per_player(old_db):
    await old_db.migrate(bundled_migrations(old_db.dialect))
    store = GameStore(old_db)

    bob = await store.create(channel_id=100, guild_id=10, owner_id=3, shared=False, state={"turn": 1})
    shared = await store.create(channel_id=100, guild_id=10, owner_id=3, shared=True, state={"turn": 1})

    assert {game.key for game in await store.in_channel(100)} == {GameKey(100, 1), bob.key, shared.key}
    with pytest.raises(GameExistsError):
        await store.create(channel_id=100, guild_id=10, owner_id=1, shared=False, state={"turn": 1})
    # A shared game is player 0's and no one else's: the table refuses a row that says otherwise.
    with pytest.raises(old_db.integrity_errors):
        async with old_db.transaction() as conn:
            await conn.execute("UPDATE goldfish_games SET shared = 1 WHERE channel_id = ? AND player_id = ?", (100, 3))
