"""A goldfish game in a thread of its own, through discord.py (simcord): optional, only where the bot may create
threads, and the game then lives in the thread."""

from __future__ import annotations

import asyncio
import time

import discord
import pytest

from tests.goldfish.cog_support import SLIDE_SIMPLE, game_of, stored, table, updated


async def test_a_game_can_open_its_own_thread_and_is_played_there(simcord_env, channel, alice):
    started = await alice.slash(channel, "goldfish start", deck="slide", seed=SLIDE_SIMPLE, thread=True)

    [thread] = channel.threads
    assert started.ephemeral  # the channel itself gets no table, only the thread
    assert started.response.content == f"Your goldfish game is in its own thread: {thread_url(thread)}"
    assert thread.name == "Goldfish · alice"
    posted = table(thread)
    assert await stored(simcord_env, channel) is None

    updated(await alice.slash(thread, "goldfish keep"), "Kept the hand")  # commands typed there act on it
    await alice.click(posted, label="Next turn")  # and so do its table's buttons
    assert (await game_of(simcord_env, thread)).turn == 2
    assert not simcord_env.errors


def thread_url(thread) -> str:
    return f"https://discord.com/channels/{thread.guild.id}/{thread.id}"


async def test_without_permission_to_create_threads_the_game_says_so_and_starts_nowhere(simcord_env, guild, alice):
    no_threads = discord.PermissionOverwrite(create_public_threads=False)
    closed = guild.create_text_channel("no-threads", overwrites={simcord_env.bot.user: no_threads})

    refused = await alice.slash(closed, "goldfish start", deck="slide", thread=True)

    assert refused.ephemeral
    assert refused.response.content == (
        "I may not create threads in this channel (Create Public Threads and Send Messages in Threads), "
        "so start the game without `thread:`."
    )
    assert closed.threads == [] and await stored(simcord_env, closed) is None

    inside = await alice.slash(closed, "goldfish start", deck="slide")  # without a thread it starts as ever
    assert not inside.ephemeral and await stored(simcord_env, closed) is not None


@pytest.mark.parametrize("thread", [False, True])
async def test_a_slow_database_acknowledges_a_start_as_public_as_its_answer(simcord_env, channel, alice, thread):
    store = simcord_env.bot.get_cog("Goldfish").store
    create = store.create

    async def slow_create(**kwargs):
        await asyncio.to_thread(time.sleep, 2.0)  # past the 1.5 s after which the interaction is acknowledged
        return await create(**kwargs)

    store.create = slow_create
    try:
        started = await alice.slash(channel, "goldfish start", deck="slide", seed=SLIDE_SIMPLE, thread=thread)
    finally:
        store.create = create

    callbacks = [r.json for r in simcord_env.http_requests if r.path.endswith("/callback")]
    assert callbacks[-1]["type"] == 5  # "thinking…" first
    # Private only when the table goes elsewhere (the thread).
    assert bool((callbacks[-1].get("data") or {}).get("flags", 0) & 64) is thread
    answer = started.followups[-1] if started.followups else started.response
    assert answer.ephemeral is thread
    assert bool(answer.embeds) is not thread  # the table itself is the public answer, or the thread's link is said
