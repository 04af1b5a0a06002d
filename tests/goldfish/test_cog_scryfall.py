"""Custom decklists resolved through the card feature's real Scryfall client, against the fake Scryfall."""

from __future__ import annotations

import pytest

from bot.config import Config
from tests.goldfish.cog_support import game_of, stored


@pytest.fixture
def bot_config(data_dir, fake_scryfall) -> Config:
    return Config(data_dir=data_dir, scryfall_api_url=fake_scryfall.base_url)


@pytest.fixture
def quick_client(simcord_env):
    client = simcord_env.bot.scryfall
    client.timeout, client.retries, client.backoff = 0.5, 1, 0.01
    return client


async def test_a_custom_decklist_is_resolved_through_scryfall_collection(
    simcord_env, channel, alice, fake_scryfall, quick_client
):
    result = await alice.slash(
        channel, "goldfish start", decklist="4 Street Wraith; 4 Ash Barrens; 4 Flame Jet; 28 Swamp", seed=5
    )

    assert "40 cards" in result.response.content
    game = await game_of(simcord_env, channel)
    assert len(game.zones.library) + len(game.zones.hand) == 40
    collection_calls = [r for r in fake_scryfall.requests if r.path == "/cards/collection"]
    assert len(collection_calls) == 1
    assert fake_scryfall.violations == []


async def test_unknown_names_come_back_from_scryfall_as_a_list(simcord_env, channel, alice, quick_client):
    result = await alice.slash(channel, "goldfish start", decklist="4 Street Wraith; 4 Flame Jetz; 32 Swamp")

    assert "Flame Jetz" in result.response.content
    assert await stored(simcord_env, channel) is None


async def test_scryfall_down_while_resolving_a_decklist_is_explained(
    simcord_env, channel, alice, fake_scryfall, quick_client
):
    fake_scryfall.fail_next(500, count=10)

    result = await alice.slash(channel, "goldfish start", decklist="4 Street Wraith; 36 Swamp")

    assert "couldn't look the decklist up on Scryfall" in result.response.content
    assert "error id" not in result.response.content
    assert await stored(simcord_env, channel) is None


async def test_custom_decklists_resolve_through_the_bots_client_without_the_card_feature(
    simcord_env, channel, alice, fake_scryfall, quick_client
):
    await simcord_env.bot.remove_cog("Cards")  # as when the card feature failed to load

    result = await alice.slash(channel, "goldfish start", decklist="4 Street Wraith; 36 Swamp", seed=5)

    assert "40 cards" in result.response.content
    assert [r.path for r in fake_scryfall.requests] == ["/cards/collection"]
