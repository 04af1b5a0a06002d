"""GameStore against a real migrated database, SQLite and PostgreSQL alike: versions, atomicity, statistics.

The ``db`` fixture (tests/conftest.py) runs every test once per dialect.
"""

from __future__ import annotations

import asyncio

import pytest

from bot.goldfish import SHARED, GameExistsError, GameKey, GameStore, StaleGameError, StatsDelta

CHANNEL, GUILD, ALICE, BOB = 100, 10, 1, 2
GAME, SHARED_GAME = GameKey(CHANNEL, ALICE), GameKey(CHANNEL, SHARED)  # alice's own game, the shared one


@pytest.fixture
def store(db):
    return GameStore(db)


async def new_game(store, **overrides):
    values = dict(channel_id=CHANNEL, guild_id=GUILD, owner_id=ALICE, shared=False, state={"turn": 1})
    values.update(overrides)
    return await store.create(**values)


async def table_names(db) -> set[str]:
    if db.dialect == "sqlite":
        rows = await db.fetchall("SELECT name FROM sqlite_master WHERE type = 'table'")
    else:
        rows = await db.fetchall(
            "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'"
        )
    return {row["name"] for row in rows}


async def test_migration_creates_the_goldfish_tables(db):
    assert await db.schema_version() >= 2
    assert {"goldfish_games", "goldfish_stats"} <= await table_names(db)


async def test_a_created_game_loads_back_at_version_one(store):
    created = await new_game(store, shared=True, state={"turn": 1, "name": "Ségolène @everyone"})
    loaded = await store.load(SHARED_GAME)
    assert loaded == created
    assert loaded.version == 1 and loaded.shared and loaded.owner_id == ALICE
    assert loaded.state == {"turn": 1, "name": "Ségolène @everyone"}


async def test_loading_a_channel_without_a_game_gives_none(store):
    assert await store.load(GameKey(999, ALICE)) is None


async def test_save_bumps_the_version(store):
    await new_game(store)
    assert await store.save(GAME, {"turn": 2}, 1) == 2
    loaded = await store.load(GAME)
    assert loaded.version == 2 and loaded.state == {"turn": 2}


async def test_a_save_with_a_stale_version_raises_and_writes_nothing(store):
    await new_game(store)
    await store.save(GAME, {"turn": 2}, 1)
    with pytest.raises(StaleGameError):
        await store.save(GAME, {"turn": 99}, 1, user_id=ALICE, stats=StatsDelta(cards_cycled=5))
    loaded = await store.load(GAME)
    assert loaded.version == 2 and loaded.state == {"turn": 2}
    assert await store.get_stats(ALICE) is None


async def test_two_concurrent_saves_of_the_same_version_only_one_wins(store):
    await new_game(store)
    results = await asyncio.gather(
        store.save(GAME, {"by": "first"}, 1), store.save(GAME, {"by": "second"}, 1), return_exceptions=True
    )
    assert sorted(type(r).__name__ for r in results) == ["StaleGameError", "int"]
    assert (await store.load(GAME)).version == 2


async def test_saving_a_deleted_game_raises(store):
    await new_game(store)
    assert await store.delete(GAME)
    with pytest.raises(StaleGameError):
        await store.save(GAME, {"turn": 2}, 1)


async def test_creating_over_an_existing_game_needs_an_explicit_replace(store):
    await new_game(store, shared=True)
    with pytest.raises(GameExistsError):
        await new_game(store, owner_id=BOB, shared=True)
    replaced = await new_game(store, owner_id=BOB, shared=True, replace_version=1, state={"turn": 7})
    assert replaced.owner_id == BOB and replaced.version == 1 and replaced.state == {"turn": 7}


async def test_replacing_a_game_that_moved_on_raises_and_keeps_it(store):
    await new_game(store, shared=True)
    await store.save(SHARED_GAME, {"turn": 2}, 1)
    with pytest.raises(StaleGameError):
        await new_game(store, owner_id=BOB, shared=True, replace_version=1)
    loaded = await store.load(SHARED_GAME)
    assert loaded.owner_id == ALICE and loaded.state == {"turn": 2}


@pytest.mark.parametrize("stats", [None, StatsDelta(cards_cycled=1)])
async def test_a_write_meant_for_a_replaced_game_is_refused_at_the_same_version(store, stats):
    old = await new_game(store, shared=True)
    new = await new_game(store, owner_id=BOB, shared=True, replace_version=1, state={"turn": 7})  # also version 1
    assert new.version == old.version == 1 and new.created_at != old.created_at
    with pytest.raises(StaleGameError):
        await store.save(SHARED_GAME, {"turn": 2}, 1, user_id=ALICE, stats=stats, created_at=old.created_at)
    loaded = await store.load(SHARED_GAME)
    assert loaded.owner_id == BOB and loaded.state == {"turn": 7} and loaded.version == 1
    assert await store.get_stats(ALICE) is None
    assert await store.save(SHARED_GAME, {"turn": 8}, 1, created_at=new.created_at) == 2


async def test_an_undo_takes_back_from_the_sums_never_below_zero_and_keeps_the_maximum(store):
    await new_game(store)
    await store.save(GAME, {"turn": 2}, 1, user_id=ALICE, stats=StatsDelta(cards_cycled=2, turns=3, longest_game=3))
    back = StatsDelta(back=True, cards_cycled=1, turns=5)
    assert await store.save(GAME, {"turn": 1}, 2, user_id=ALICE, stats=back) == 3
    stats = await store.get_stats(ALICE)
    assert (stats.cards_cycled, stats.turns, stats.longest_game) == (1, 0, 3)

    with pytest.raises(StaleGameError):  # a stale undo takes nothing back
        await store.save(GAME, {"turn": 0}, 2, user_id=ALICE, stats=StatsDelta(back=True, cards_cycled=1))
    assert (await store.get_stats(ALICE)).cards_cycled == 1

    await store.save(GAME, {"turn": 0}, 3, user_id=BOB, stats=StatsDelta(back=True, cards_cycled=1))
    assert await store.get_stats(BOB) is None  # nothing to take back from: no row made


async def test_transaction_is_atomic_when_the_statistics_write_fails(store, db):
    await new_game(store)
    # Make the statistics write fail after the game UPDATE has already run in the same transaction.
    async with db.transaction() as conn:
        if db.dialect == "sqlite":
            await conn.execute(
                "CREATE TRIGGER fail_stats BEFORE INSERT ON goldfish_stats BEGIN SELECT RAISE(ABORT, 'boom'); END"
            )
        else:
            await conn.execute(
                "CREATE FUNCTION fail_stats() RETURNS trigger LANGUAGE plpgsql AS "
                "$$ BEGIN RAISE EXCEPTION 'boom'; END $$; "
                "CREATE TRIGGER fail_stats BEFORE INSERT ON goldfish_stats FOR EACH ROW EXECUTE FUNCTION fail_stats()"
            )
    with pytest.raises(Exception, match="boom"):
        await store.save(GAME, {"turn": 2}, 1, user_id=ALICE, stats=StatsDelta(cards_cycled=1))
    loaded = await store.load(GAME)
    assert loaded.version == 1 and loaded.state == {"turn": 1}
    if db.dialect == "sqlite":
        assert not db.connection.in_transaction
    else:
        # Every connection went back to the pool outside a transaction: the next write goes through.
        assert await store.save(GAME, {"turn": 3}, 1) == 2


async def test_delete_with_a_stale_version_keeps_the_game(store):
    await new_game(store)
    await store.save(GAME, {"turn": 2}, 1)
    assert not await store.delete(GAME, expected_version=1)
    assert await store.delete(GAME, expected_version=2)
    assert await store.load(GAME) is None


async def test_statistics_add_up_and_keep_the_longest_game(store):
    await new_game(store, stats=StatsDelta(games=1, cards_cycled=3, turns=2, longest_game=2))
    await store.save(
        GAME, {}, 1, user_id=ALICE, stats=StatsDelta(cards_cycled=2, typecycling_searches=1, turns=1, longest_game=5)
    )
    await new_game(store, channel_id=CHANNEL + 1, stats=StatsDelta(games=1, longest_game=3))
    stats = await store.get_stats(ALICE)
    assert (stats.games, stats.cards_cycled, stats.typecycling_searches, stats.turns, stats.longest_game) == (
        2,
        5,
        1,
        3,
        5,
    )


async def test_save_credits_the_acting_player_in_the_same_write(store):
    await new_game(store, shared=True, stats=StatsDelta(games=1))
    await store.save(SHARED_GAME, {"turn": 1}, 1, user_id=BOB, stats=StatsDelta(cards_cycled=1, longest_game=1))
    assert (await store.get_stats(ALICE)).games == 1
    bob = await store.get_stats(BOB)
    assert bob.cards_cycled == 1 and bob.games == 0


async def test_forget_deletes_only_that_players_statistics(store):
    await new_game(store, stats=StatsDelta(games=1))
    await new_game(store, channel_id=CHANNEL + 1, owner_id=BOB, stats=StatsDelta(games=1))
    assert await store.forget_stats(ALICE)
    assert await store.get_stats(ALICE) is None
    assert await store.get_stats(BOB) is not None
    assert await store.load(GAME) is not None  # the running game stays
    assert not await store.forget_stats(ALICE)


async def test_hostile_text_is_stored_as_data(store):
    evil = "'); DROP TABLE goldfish_games; --"
    await new_game(store, state={"deck_name": evil})
    assert (await store.load(GAME)).state["deck_name"] == evil


async def test_each_player_has_a_game_of_their_own_beside_the_channels_shared_one(store):
    await new_game(store, state={"by": "alice"})
    await new_game(store, owner_id=BOB, state={"by": "bob"})
    await new_game(store, owner_id=BOB, shared=True, state={"by": "everyone"})
    with pytest.raises(GameExistsError):
        await new_game(store, owner_id=BOB)  # one game a player a channel

    assert (await store.load(GameKey(CHANNEL, BOB))).state == {"by": "bob"}
    assert (await store.mine_or_shared(CHANNEL, ALICE)).state == {"by": "alice"}  # her own first
    assert (await store.mine_or_shared(CHANNEL, 3)).state == {"by": "everyone"}  # else the shared one
    assert await store.mine_or_shared(CHANNEL + 1, ALICE) is None
    assert {g.player_id for g in await store.in_channel(CHANNEL)} == {ALICE, BOB, SHARED}

    assert await store.delete(GAME)
    assert (await store.mine_or_shared(CHANNEL, ALICE)).state == {"by": "everyone"}
