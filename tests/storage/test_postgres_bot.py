"""The whole bot on PostgreSQL (DATABASE_URL): games, statistics, the command-sync record and the Scryfall budget
live in the server, and survive a restart."""

from __future__ import annotations

import dataclasses

import asyncpg
import pytest

from bot.client import CycleBot
from bot.scryfall.limiter import PostgresBudget
from tests.goldfish.cog_support import SLIDE_SIMPLE, choose, fields


@pytest.fixture
def bot_config(bot_config, postgres_url):
    return dataclasses.replace(bot_config, database_url=postgres_url)


async def rows(url: str, sql: str, *args) -> list[asyncpg.Record]:
    connection = await asyncpg.connect(url)
    try:
        return await connection.fetch(sql, *args)
    finally:
        await connection.close()


async def test_a_bot_with_database_url_keeps_games_statistics_and_the_sync_record_in_postgresql(
    simcord_env, channel, alice, bot_config, postgres_url
):
    bot = simcord_env.bot
    assert bot.db.dialect == "postgresql"
    assert isinstance(bot.scryfall.limiter.budget, PostgresBudget)
    message = (await alice.slash(channel, "goldfish start", deck="slide", seed=SLIDE_SIMPLE)).response
    await alice.click(message, label="Keep")
    await choose(alice, message, "gf:land:", "Plains")
    await choose(alice, message, "gf:cycle:", "Cycle Secluded Steppe")

    games = await rows(postgres_url, "SELECT owner_id, version FROM goldfish_games WHERE channel_id = $1", channel.id)
    assert [(r["owner_id"], r["version"]) for r in games] == [(alice.id, 4)]
    stats = await rows(postgres_url, "SELECT games, cards_cycled FROM goldfish_stats WHERE user_id = $1", alice.id)
    assert [(r["games"], r["cards_cycled"]) for r in stats] == [(1, 1)]
    synced = await rows(postgres_url, "SELECT key FROM meta WHERE key LIKE 'command_sync:%'")
    assert len(synced) == 1

    await simcord_env.restart_bot(CycleBot(bot_config))
    shown = await alice.slash(channel, "goldfish stats show")
    assert fields(shown.response)["Cards cycled"] == "1"
    moved = await alice.slash(channel, "goldfish status")
    assert not simcord_env.errors and "could not be loaded" not in (moved.response.content or "")
