"""What the table picture needs from the database, SQLite and PostgreSQL alike: the players' and servers'
/goldfish view choices (migration 0004), and a game's table messages saved without a new version."""

from __future__ import annotations

import pytest

from bot.goldfish import DisplayStore, GameKey, GameStore

CHANNEL, GUILD, ALICE, BOB = 100, 10, 1, 2
BIG_ID = 2**63 - 1  # Discord ids are 64-bit


@pytest.fixture
def display(db):
    return DisplayStore(db)


async def test_pictures_are_on_until_a_player_or_the_server_turns_them_off(display):
    assert await display.pictures_on(GUILD, ALICE)

    await display.set_pictures("user", ALICE, False)
    assert not await display.pictures_on(GUILD, ALICE) and await display.pictures_on(GUILD, BOB)

    await display.set_pictures("user", ALICE, True)  # changed, not added
    await display.set_pictures("guild", GUILD, False)
    assert not await display.pictures_on(GUILD, ALICE) and not await display.pictures_on(GUILD, BOB)
    assert await display.pictures_on(GUILD + 1, BOB)  # another server
    assert await display.choices(GUILD, ALICE) == {"user": True, "guild": False}


async def test_64_bit_ids_and_an_unknown_scope(display):
    await display.set_pictures("user", BIG_ID, False)
    assert not await display.pictures_on(BIG_ID, BIG_ID)
    with pytest.raises(ValueError):
        await display.set_pictures("channel", 1, False)


async def test_the_table_messages_are_saved_without_a_new_version_and_never_over_a_newer_game(db):
    store = GameStore(db)
    created = await store.create(channel_id=CHANNEL, guild_id=GUILD, owner_id=ALICE, shared=False, state={"turn": 1})

    assert await store.keep_tables(GameKey(CHANNEL, ALICE), {"turn": 1, "tables": [7, 8]}, created.version)
    kept = await store.load(GameKey(CHANNEL, ALICE))
    assert kept.version == created.version and kept.tables == [7, 8] and kept.state["turn"] == 1

    newer = await store.save(GameKey(CHANNEL, ALICE), {"turn": 2}, created.version)
    assert not await store.keep_tables(GameKey(CHANNEL, ALICE), {"turn": 1, "tables": [9]}, created.version)
    assert (await store.load(GameKey(CHANNEL, ALICE))).state == {"turn": 2} and newer == created.version + 1
