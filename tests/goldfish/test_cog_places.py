"""Goldfish where players are: games in the bot's own DM (the table posted and edited with the bot's token), and
where the bot can't post (a group chat, a server where only the player added the app) the table's commands say
privately where games work, while odds and simulate answer there too."""

from __future__ import annotations

import dataclasses

import pytest

from tests.goldfish.cog_support import SLIDE_SIMPLE
from tests.support.installs import add_to_my_apps, group_chat, server_without_the_bot, slash
from tests.support.waits import CEILING

WHERE = "Goldfish games need a channel I can post in: a server that added me, or a DM with me"


async def test_a_game_in_the_bots_dm_is_played_on_one_table_the_bot_edits(simcord_env):
    alice = simcord_env.create_user("alice")
    add_to_my_apps(simcord_env, alice)

    table = (await alice.slash("goldfish start", deck="slide", seed=SLIDE_SIMPLE)).response
    kept = await alice.slash("goldfish keep")
    turned = await alice.slash("goldfish next")

    assert not table.ephemeral and table.embeds
    assert kept.ephemeral and turned.ephemeral
    # The note links to the table in the DM (under @me: a DM has no server), which the bot edited in place.
    assert f"https://discord.com/channels/@me/{alice.dm_channel.id}/{table.id}" in turned.response.content
    games = [m for m in alice.dm_channel.history() if not m.flags.ephemeral and m.embeds]
    assert [m.id for m in games] == [table.id]
    assert "**Turn 2**" in games[0].embeds[0].description
    assert not simcord_env.errors


@pytest.mark.parametrize("command", ["goldfish start", "goldfish status", "goldfish next"])
async def test_in_a_group_chat_a_table_command_says_privately_where_games_work(simcord_env, command):
    alice, bob = simcord_env.create_user("alice"), simcord_env.create_user("bob")
    add_to_my_apps(simcord_env, alice)
    chat = group_chat(simcord_env, alice, bob)

    result = await slash(alice, chat, command)

    assert result.ephemeral
    assert result.response.content.startswith(WHERE)
    assert result.response.content.count(". ") == 0, "one sentence"
    assert [m for m in chat.history() if not m.flags.ephemeral] == []
    assert [type(error).__name__ for error in simcord_env.errors] == ["NotHere"]


async def test_in_a_server_that_never_added_the_bot_start_says_where_games_work_and_odds_answer(simcord_env):
    channel = await server_without_the_bot(simcord_env)
    alice = channel.guild.add_member(simcord_env.create_user("alice"))
    add_to_my_apps(simcord_env, alice)

    refused = await slash(alice, channel, "goldfish start", deck="slide")
    odds = await slash(alice, channel, "goldfish odds", copies=4, deck_size=60, wanted=1, turns=3)

    assert refused.ephemeral and refused.response.content.startswith(WHERE)
    assert not odds.ephemeral
    assert odds.response.embeds[0].title == "At least 1 of 4 in 60 cards"
    assert [type(error).__name__ for error in simcord_env.errors] == ["NotHere"]


async def test_odds_answer_in_a_group_chat(simcord_env):
    alice, bob = simcord_env.create_user("alice"), simcord_env.create_user("bob")
    add_to_my_apps(simcord_env, alice)
    chat = group_chat(simcord_env, alice, bob)

    odds = await slash(alice, chat, "goldfish odds", copies=4, deck_size=60, wanted=1, turns=3)

    assert not odds.ephemeral and odds.response.embeds
    assert not simcord_env.errors


async def test_view_for_a_whole_server_asked_in_a_dm_says_it_is_for_servers(simcord_env):
    alice = simcord_env.create_user("alice")

    result = await alice.slash("goldfish view", pictures=False, scope="server")

    assert result.ephemeral
    assert result.response.content == "That choice is for a server; here, choose for your own games."


class TestReviewInTheBotsDM:
    @pytest.fixture
    def bot_config(self, bot_config):
        return dataclasses.replace(bot_config, goldfish_reviews=True)

    async def test_a_game_ended_in_the_bots_dm_is_reviewed_on_its_table_there(self, simcord_env, monkeypatch):
        from cogs.goldfish import _coach
        from tests.goldfish.test_cog_coach import REVIEW_GAMES, coach_state, reviews_done

        # As the coach's tests run a review (tests/goldfish/test_cog_coach.py): at the bot's priority, by the
        # suite's ceiling, and simcord waits for it and then some; its worker processes start with it.
        monkeypatch.setattr(_coach, "REVIEW_NICE", 0)
        cog = simcord_env.bot.get_cog("Goldfish")
        coach_state(cog).review_seconds = 2 * CEILING
        simcord_env.settle_timeout = 3 * CEILING
        coach_state(cog).review_games = REVIEW_GAMES
        alice = simcord_env.create_user("alice")
        table = (await alice.slash("goldfish start", deck="slide", seed=SLIDE_SIMPLE)).response
        await alice.click(table, label="Keep")
        await alice.click(table, label="Next turn")

        ended = await alice.slash("goldfish end")
        await reviews_done(cog)

        assert not ended.ephemeral
        reviewed = next(m for m in alice.dm_channel.history() if len(m.embeds) > 1)
        assert reviewed.id == table.id, "the review is added to the table, edited with the bot's token"
        assert [f.name for f in reviewed.embeds[1].fields][0] == "Your game"
        assert not simcord_env.errors


async def test_simulate_in_a_server_that_never_added_the_bot_sends_its_chart_through_the_interaction(simcord_env):
    """Pictures included: the chart is a file of the interaction's answer, not a message the bot posts."""
    from bot.goldfish.practice.chart import PNG_SIGNATURE

    channel = await server_without_the_bot(simcord_env)
    alice = channel.guild.add_member(simcord_env.create_user("alice"))
    add_to_my_apps(simcord_env, alice)

    result = await slash(alice, channel, "goldfish simulate", deck="slide", games=30, turns=4, seed=3)

    assert not result.ephemeral
    [attachment] = result.response.attachments
    assert (await attachment.read()).startswith(PNG_SIGNATURE)
    sent = [r.path for r in simcord_env.http_requests if r.method in ("POST", "PATCH")]
    assert all(path.startswith(("/interactions/", "/webhooks/")) for path in sent), sent
    assert not simcord_env.errors
