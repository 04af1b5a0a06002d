"""PostgreSQL going away under a running bot (simcord, a server of the test's own): players are told, the rest of
the bot goes on, one warning is logged for the outage, and the games carry on once the server is back."""

from __future__ import annotations

import asyncio
import dataclasses
import logging

import pytest

from tests.goldfish.cog_support import SLIDE_SIMPLE, walk_components
from tests.support.postgres import running_postgres

DOWN = "database isn't answering right now"


@pytest.fixture(scope="module")
def own_server():
    with running_postgres() as server:
        yield server


@pytest.fixture
def bot_config(bot_config, own_server):
    return dataclasses.replace(bot_config, database_url=own_server.create_database())


async def test_while_postgresql_is_down_players_are_told_and_games_go_on_once_it_is_back(
    simcord_env, channel, alice, own_server, caplog
):
    message = (await alice.slash(channel, "goldfish start", deck="slide", seed=SLIDE_SIMPLE)).response
    await alice.click(message, label="Keep")
    kept = channel.last_message
    assert kept.id == message.id and "**Turn 1**" in kept.embeds[0].description

    await asyncio.to_thread(own_server.pause)
    try:
        with caplog.at_level(logging.INFO, logger="bot.storage"):
            clicked = await alice.click(message, label="Next turn")
            status = await alice.slash(channel, "goldfish status")
            stats = await alice.slash(channel, "goldfish stats show")
            rule = await alice.slash(channel, "rule", query="702.29")  # no database needed: answered as ever
            offered = await alice.autocomplete(channel, "goldfish cycle", "card", "")
    finally:
        await asyncio.to_thread(own_server.resume)

    for result in (clicked, status, stats):
        assert result.ephemeral and DOWN in result.response.content, result.response.content
    assert rule.response.embeds[0].title == "702.29 Cycling"
    assert offered == []
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING and "unavailable" in r.getMessage()]
    assert len(warnings) == 1, "one warning for the outage, not one per request"
    assert "Traceback" not in caplog.text
    assert not simcord_env.errors

    # The server is back: the game is where it was, and the next click plays on.
    with caplog.at_level(logging.INFO, logger="bot.storage"):
        result = await alice.click(message, label="Next turn")
    assert not result.ephemeral
    next_turn = [c for c in walk_components(message.components) if c.get("label") == "Next turn"]
    assert next_turn and next_turn[0]["custom_id"] == f"gf:next:3~{alice.id}"  # the third write of alice's game
    assert "answers again" in caplog.text
