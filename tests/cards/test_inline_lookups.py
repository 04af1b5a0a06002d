"""Inline [[card]] lookups in chat (INLINE_CARDS=1, Message Content intent) against the fake Scryfall."""

from __future__ import annotations

import discord
import pytest

from bot.client import CycleBot
from bot.config import Config


def bot_replies(channel) -> list:
    return sorted((m for m in channel.history() if m.author.bot), key=lambda m: m.id)


async def test_six_references_are_answered_with_five_cards_in_one_reply(cards, channel, alice):
    names = ["Street Wraith", "Ash Barrens", "Sanctum Plowbeast", "Step Through", "Test Xcycler", "Fire // Ice"]
    sent = await alice.send(channel, "What about " + " ".join(f"[[{name}]]" for name in names) + "?")

    (reply,) = bot_replies(channel)
    assert [embed.title.split(" {")[0] for embed in reply.embeds] == names[:5]
    assert reply.reference.message_id == sent.id
    wraith = reply.embeds[0]
    assert wraith.description.count("Cycling—Pay 2 life") == 1 and not wraith.fields
    assert wraith.thumbnail.url


async def test_code_blocks_inline_code_and_quotes_are_ignored(cards, channel, alice, fake_scryfall):
    await alice.send(channel, "```\n[[Street Wraith]]\n```\n`[[Ash Barrens]]`\n> [[Step Through]]")
    assert bot_replies(channel) == []
    assert not fake_scryfall.requests

    await alice.send(channel, "> quoted [[Step Through]]\nbut this one: [[Ash Barrens]]")
    (reply,) = bot_replies(channel)
    assert [embed.title for embed in reply.embeds] == ["Ash Barrens"]


async def test_set_variant_asks_for_that_set(cards, channel, alice, fake_scryfall):
    await alice.send(channel, "[[Test Xcycler|tst]]")
    assert fake_scryfall.requests_to("/cards/named")[0].query == {"fuzzy": "Test Xcycler", "set": "tst"}
    assert bot_replies(channel)[0].embeds[0].title == "Test Xcycler {3}{U}"


async def test_channel_cooldown_holds_then_lifts(cards, channel, alice):
    now = [1000.0]
    cards.inline.clock = lambda: now[0]
    sent = [await alice.send(channel, "[[Street Wraith]]") for _ in range(5)]
    assert len(bot_replies(channel)) == 3  # the fourth and fifth messages in 30 s get no answer…
    for message in (next(m for m in channel.history() if m.id == h.id) for h in sent[3:]):
        # …but the bot says it saw them: one ⏳ each (only the bot reacts here).
        assert [(str(r.emoji), r.count) for r in message.reactions] == [("⏳", 1)]
    assert all(not next(m for m in channel.history() if m.id == s.id).reactions for s in sent[:3])

    now[0] += 31
    await alice.send(channel, "[[Street Wraith]]")
    assert len(bot_replies(channel)) == 4


async def test_misses_are_listed_and_mentions_ping_nobody(cards, channel, alice):
    await alice.send(channel, "[[@everyone]] [[Street Wraith]]")
    (reply,) = bot_replies(channel)
    # As the user reads it (Discord hides the escapes), yet inert even where mentions parse.
    # Explained as /card explains it.
    assert reply.content.replace("\\", "").replace("\u200b", "").startswith("No card is called “@everyone”.")
    assert "@everyone" not in reply.content
    assert not reply.mention_everyone and not reply.mentions
    assert len(reply.embeds) == 1


async def test_scryfall_down_is_said_once(cards, channel, alice, fake_scryfall):
    fake_scryfall.fail_next(500, count=10)
    await alice.send(channel, "[[Street Wraith]] [[Ash Barrens]]")
    (reply,) = bot_replies(channel)
    assert reply.content == "Scryfall is not answering right now, please try again in a few minutes."
    assert reply.embeds == []


async def test_a_huge_message_still_asks_for_at_most_five_short_names(cards, channel, alice, fake_scryfall):
    await alice.send(channel, "[[" + "x" * 1990 + "]]")
    await alice.send(channel, "[[Ash Barrens]] " * 120)
    assert len(fake_scryfall.requests_to("/cards/named")) == 1  # duplicates collapse, overlong names are skipped


async def test_bots_are_ignored(cards, channel, simcord_env, guild, fake_scryfall):
    robot = guild.add_member(simcord_env.create_user("robot", bot=True))
    await robot.send(channel, "[[Street Wraith]]")
    assert not fake_scryfall.requests


class TestInlineOff:
    @pytest.fixture
    def bot_config(self, data_dir, fake_scryfall) -> Config:
        return Config(data_dir=data_dir, scryfall_api_url=fake_scryfall.base_url, inline_cards=False)

    async def test_nothing_is_looked_up_and_message_content_is_not_requested(
        self, simcord_env, channel, alice, fake_scryfall
    ):
        assert isinstance(simcord_env.bot, CycleBot)
        assert not simcord_env.bot.intents.message_content
        await alice.send(channel, "[[Street Wraith]]")
        assert bot_replies(channel) == []
        assert not fake_scryfall.requests


async def test_without_permission_to_react_a_held_back_lookup_gets_one_short_reply(cards, guild, alice):
    now = [1000.0]
    cards.inline.clock = lambda: now[0]
    channel = guild.create_text_channel(
        "quiet", overwrites={guild.me: discord.PermissionOverwrite(add_reactions=False)}
    )
    for _ in range(5):
        await alice.send(channel, "[[Street Wraith]]")

    replies = bot_replies(channel)
    notes = [m for m in replies if not m.embeds]
    assert len(replies) == 4 and len(notes) == 1  # three answers, one note for the two held back
    assert "paused" in notes[0].content and "⏳" in notes[0].content
