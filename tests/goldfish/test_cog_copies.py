"""Controls on every copy of a table: when a game ends or is replaced, no public copy keeps live buttons, however
many copies /goldfish status posted and across a restart."""

from __future__ import annotations

from bot.client import CycleBot
from tests.goldfish.cog_support import SLIDE_SIMPLE, controls, stored


async def test_every_copy_of_the_table_loses_its_controls_not_only_the_remembered_ones(simcord_env, channel, alice):
    first = (await alice.slash(channel, "goldfish start", deck="slide", seed=SLIDE_SIMPLE)).response
    copies = [first]
    for _ in range(6):
        copies.append((await alice.slash(channel, "goldfish status")).response)

    assert controls(first) == []  # pushed out of the remembered copies: stripped at once
    assert all(controls(copy) for copy in copies[2:])

    await alice.slash(channel, "goldfish end")
    assert all(controls(copy) == [] for copy in copies)


async def test_copies_posted_before_a_restart_lose_their_controls_when_the_game_ends(
    simcord_env, channel, alice, bot_config
):
    first = (await alice.slash(channel, "goldfish start", deck="slide", seed=SLIDE_SIMPLE)).response
    second = (await alice.slash(channel, "goldfish status")).response

    await simcord_env.bot.close()  # a restart: the bot stops (SIGTERM), then a new process starts
    await simcord_env.restart_bot(CycleBot(bot_config))
    assert (await stored(simcord_env, channel)).state["tables"] == [first.id, second.id]
    await alice.slash(channel, "goldfish end")

    assert controls(first) == [] and controls(second) == []


async def test_a_new_game_strips_every_copy_of_the_game_it_replaces_after_a_restart(
    simcord_env, channel, alice, bot_config
):
    first = (await alice.slash(channel, "goldfish start", deck="slide", seed=SLIDE_SIMPLE)).response
    second = (await alice.slash(channel, "goldfish status")).response

    await simcord_env.bot.close()
    await simcord_env.restart_bot(CycleBot(bot_config))
    asked = await alice.slash(channel, "goldfish start", deck="landcycling")
    await alice.click(asked.response, label="Replace the game")

    assert controls(first) == [] and controls(second) == []


async def test_a_press_on_any_copy_of_someone_elses_table_says_whose_game_it_is(simcord_env, channel, alice, bob):
    older = (await alice.slash(channel, "goldfish start", deck="slide", seed=SLIDE_SIMPLE)).response
    latest = (await alice.slash(channel, "goldfish status")).response

    for copy in (older, latest):  # whichever copy bob presses, he hears whose game it is, not about old copies
        refused = await bob.click(copy, label="Keep")
        assert refused.ephemeral and refused.response.content.startswith(f"This is <@{alice.id}>'s goldfish game")
        assert "old copy" not in refused.response.content
        callback = [r for r in simcord_env.http_requests if r.path.endswith("/callback")][-1]
        assert callback.json["data"]["allowed_mentions"] == {"parse": []}  # alice is named, never pinged
    mine = await alice.click(older, label="Keep")  # only the game's own player hears about old copies
    assert mine.ephemeral and mine.response.content.startswith("This is an old copy of the table")
    assert f"/{latest.id}" in mine.response.content
    assert (await stored(simcord_env, channel)).version == 1


async def test_in_a_shared_game_everyone_hears_about_its_old_copies(simcord_env, channel, alice, bob):
    older = (await alice.slash(channel, "goldfish start", deck="slide", seed=SLIDE_SIMPLE, shared=True)).response
    latest = (await alice.slash(channel, "goldfish status")).response

    refused = await bob.click(older, label="Keep")

    assert refused.ephemeral and refused.response.content.startswith("This is an old copy of the table")
    assert f"/{latest.id}" in refused.response.content
