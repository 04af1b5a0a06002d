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
