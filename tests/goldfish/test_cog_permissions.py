"""Goldfish tables where the bot lacks a permission, through discord.py (simcord refuses what Discord refuses: an embed
edited in through the channel without Embed Links is a 403). A table never loses its text: the interaction that
posted it, or the last press on it, edits it while its token lasts; then the channel, as text without Embed Links.
Without Send Messages a table is played all the same, and says why it has no picture; /about says so too."""

from __future__ import annotations

import asyncio
import logging
import time

import pytest

from cogs.goldfish._edits import TOKEN_SECONDS
from tests.cards.conftest import bulk_copy, loaded_config  # noqa: F401  (fixtures: the local card data)
from tests.cards.test_permissions import lacking
from tests.goldfish.cog_support import SLIDE_SIMPLE, controls, updated


@pytest.fixture
def bot_config(loaded_config):  # noqa: F811
    return loaded_config


def logged(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name.startswith("cogs")]


async def test_without_embed_links_a_table_keeps_its_text_however_it_is_edited(simcord_env, guild, alice, caplog):
    closed = lacking(guild, "no-embeds", embed_links=False)
    table = (await alice.slash(closed, "goldfish start", deck="slide", seed=SLIDE_SIMPLE)).response

    updated(await alice.slash(closed, "goldfish keep"))  # edited by the start's own interaction: an embed
    assert "**Turn 1**" in table.embeds[0].description and not table.content

    await simcord_env.advance_time(TOKEN_SECONDS)  # the start's token has run out: the channel edits it, as text
    with caplog.at_level(logging.INFO):
        updated(await alice.slash(closed, "goldfish play", card="Plains"))
        updated(await alice.slash(closed, "goldfish next"))
    assert not table.embeds and table.content.startswith("**Goldfish · Astral Slide (W/R cycling)**")
    assert "**Hand (" in table.content and "**What happened**" in table.content and len(table.content) <= 2000
    assert controls(table)  # its buttons stay
    assert logged(caplog) == ["no Embed Links in #no-embeds: goldfish tables edited as text"]  # once

    await alice.click(table, label="Undo")  # a press edits it through itself: an embed again
    assert table.embeds and not table.content
    await simcord_env.advance_time(TOKEN_SECONDS / 2)
    updated(await alice.slash(closed, "goldfish next"))  # and the press's token edits it for its 15 minutes
    assert table.embeds and not table.content
    assert not simcord_env.errors


async def test_without_send_messages_a_table_is_played_and_says_why_it_has_no_picture(
    simcord_env, guild, alice, caplog
):
    muted = lacking(guild, "muted", send_messages=False)
    with caplog.at_level(logging.INFO):
        table = (await alice.slash(muted, "goldfish start", deck="slide", seed=SLIDE_SIMPLE)).response
        await alice.click(table, label="Keep")
        await simcord_env.bot.get_cog("Goldfish").pictures.settled()

    assert "**Turn 1**" in table.embeds[0].description and not table.attachments
    assert table.embeds[0].footer.text.endswith("The picture of the table needs the Send Messages permission here.")
    assert logged(caplog) == ["no Send Messages in #muted: goldfish tables shown without their picture"]
    about = (await alice.slash(muted, "about")).response.embeds[0]
    missing = {f.name: f.value for f in about.fields}["Missing in this channel"]
    assert missing == (
        "**Send Messages**: inline [[card]] lookups get no answer; goldfish tables have no picture, and turn to text "
        "as they do without Embed Links"
    )

    await simcord_env.advance_time(TOKEN_SECONDS)  # without Send Messages, Discord takes Embed Links away too
    updated(await alice.slash(muted, "goldfish next"))
    assert not table.embeds and "**Goldfish · Astral Slide" in table.content
    assert not simcord_env.errors


async def test_a_deleted_table_comes_back_as_the_answer_where_the_bot_may_not_post(simcord_env, guild, alice):
    muted = lacking(guild, "muted-too", send_messages=False)
    table = (await alice.slash(muted, "goldfish start", deck="slide", seed=SLIDE_SIMPLE)).response
    await simcord_env.bot.http.delete_message(muted.id, table.id)
    store = simcord_env.bot.get_cog("Goldfish").store
    save = store.save

    async def slow_save(*args, **kwargs):
        await asyncio.to_thread(time.sleep, 2.0)  # past the 1.5 s after which a move is acknowledged, privately
        return await save(*args, **kwargs)

    store.save = slow_save
    try:
        kept = await alice.slash(muted, "goldfish keep")
    finally:
        store.save = save

    note, again = kept.response, kept.followups[-1]  # the private acknowledgement, then the table in public
    assert note.ephemeral and note.content.startswith("Kept the hand") and "here it is again" in note.content
    assert not again.ephemeral and "**Turn 1**" in again.embeds[0].description and controls(again)
    assert not simcord_env.errors
