"""A bot that knows its permissions, through discord.py: inline lookups answered as the channel allows (text without
Embed Links, a plain message without Read Message History), one log line per channel and missing permission, /about
listing what is missing in the channel, and a goldfish table that says why it has no picture. The fake Discord refuses
what real Discord refuses (403, Missing Permissions: tests/support/simcord_discord.py)."""

from __future__ import annotations

import logging

import discord
import pytest

from cogs._permissions import NEEDED


@pytest.fixture
def bot_config(loaded_config):
    return loaded_config


def bot_messages(channel) -> list[discord.Message]:
    return sorted((m for m in channel.history() if m.author.bot), key=lambda m: m.id)


def lacking(guild, name: str, **denied: bool):
    return guild.create_text_channel(name, overwrites={guild.me: discord.PermissionOverwrite(**denied)})


async def test_without_embed_links_inline_cards_come_as_text_and_the_log_says_so_once(
    simcord_env, guild, alice, caplog
):
    lfg = lacking(guild, "lfg", embed_links=False)
    with caplog.at_level(logging.INFO):
        for _ in range(2):
            await alice.send(lfg, "[[Krosan Tusker]] and [[Street Wraith]]")

    answers = bot_messages(lfg)
    assert len(answers) == 2 and all(not m.embeds for m in answers)
    text = answers[0].content
    assert text.startswith("**[Krosan Tusker {5}{G}{G}](<https://scryfall.com/")
    assert "Street Wraith" in text and "Cycling" in text and len(text) <= 2000
    assert answers[0].reference is not None  # still a reply: only the embeds were missing
    said = [r.getMessage() for r in caplog.records if r.name == "cogs._permissions"]
    assert said == ["no Embed Links in #lfg: inline cards sent as text"]
    assert not [r for r in caplog.records if r.exc_info]  # no traceback


async def test_without_read_message_history_inline_cards_are_a_plain_message(simcord_env, guild, alice, caplog):
    quiet = lacking(guild, "quiet", read_message_history=False)
    with caplog.at_level(logging.INFO):
        await alice.send(quiet, "[[Street Wraith]]")
        await alice.send(quiet, "[[Krosan Tusker]]")

    answers = bot_messages(quiet)
    assert [m.embeds[0].title.split(" {")[0] for m in answers] == ["Street Wraith", "Krosan Tusker"]
    assert all(m.reference is None for m in answers)
    said = [r.getMessage() for r in caplog.records if r.name == "cogs._permissions"]
    assert said == ["no Read Message History in #quiet: inline cards sent as messages, not replies"]


async def test_without_send_messages_the_bot_stays_quiet_and_says_so_once_in_the_log(simcord_env, guild, alice, caplog):
    muted = lacking(guild, "muted", send_messages=False)
    with caplog.at_level(logging.INFO):
        for _ in range(3):
            await alice.send(muted, "[[Street Wraith]]")

    assert bot_messages(muted) == []
    said = [r.getMessage() for r in caplog.records if r.name.startswith("cogs")]
    assert said == ["no Send Messages in #muted: inline cards not answered"]


async def test_about_lists_what_the_bot_lacks_in_the_channel(simcord_env, guild, channel, alice):
    closed = lacking(guild, "closed", embed_links=False, attach_files=False)
    fields = {f.name: f.value for f in (await alice.slash(closed, "about")).response.embeds[0].fields}
    missing = fields["Missing in this channel"].split("\n")
    assert missing == [
        "**Embed Links**: inline cards come as plain text, and so do goldfish tables a command edits 15 minutes after "
        "they were posted or pressed",
        "**Attach Files**: goldfish tables have no picture",
    ]

    everything = {f.name for f in (await alice.slash(channel, "about")).response.embeds[0].fields}
    assert "Missing in this channel" not in everything
    assert {needed.label for needed in NEEDED} >= {"Embed Links", "Read Message History", "Attach Files"}


async def test_without_attach_files_a_table_says_its_picture_needs_it(simcord_env, guild, alice, caplog):
    bare = lacking(guild, "bare", attach_files=False)
    with caplog.at_level(logging.INFO):
        started = await alice.slash(bare, "goldfish start", deck="slide", seed=12)
        await alice.click(started.response.message, label="Keep")
        await simcord_env.bot.get_cog("Goldfish").pictures.settled()

    table = [m for m in bot_messages(bare) if m.embeds][-1]
    footer = table.embeds[0].footer.text
    assert footer.endswith("The picture of the table needs the Attach Files permission here.")
    assert footer.count("Attach Files") == 1 and not table.attachments
    said = [r.getMessage() for r in caplog.records if r.name == "cogs._permissions"]
    assert said == ["no Attach Files in #bare: goldfish tables shown without their picture"]
    assert not [r for r in caplog.records if r.exc_info]
