"""Inline [[card]] lookups in chat (INLINE_CARDS=1, Message Content intent) against the fake Scryfall."""

from __future__ import annotations

import discord
import pytest

from bot.client import CycleBot
from bot.config import Config
from bot.serving import LOOKUPS
from bot.serving.pace import Pace
from cogs.cards._inline import CHANNEL_RATE


def past_settling(env) -> float:
    """A pace's window longer than the test waits for the bot to go idle: held messages wait for the clock to be
    moved on, never out in real time."""
    return float(round(2 * env.settle_timeout))


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


async def test_a_lively_channel_is_answered_in_turn_and_held_messages_wait_with_an_hourglass(
    cards, simcord_env, channel, alice, bob
):
    # The channel's pace over a longer window than the default's 30 s: a wait shorter than the test's own patience
    # for the bot (simcord's settle timeout) would be waited out in real time.
    window = past_settling(simcord_env)
    cards.inline.pace = Pace(CHANNEL_RATE, window, longest_wait=window)
    sent = [await who.send(channel, "[[Street Wraith]]") for who in [alice, bob] * (CHANNEL_RATE // 2 + 1)]
    assert len(bot_replies(channel)) == CHANNEL_RATE  # ten in 30 s answered at once…

    def reactions(message) -> list:
        return [(str(r.emoji), r.count) for r in next(m for m in channel.history() if m.id == message.id).reactions]

    # …the next wait their turn, with one ⏳ each so nobody wonders (only the bot reacts here).
    assert [reactions(m) for m in sent[CHANNEL_RATE:]] == [[("⏳", 1)], [("⏳", 1)]]
    assert not any(reactions(m) for m in sent[:CHANNEL_RATE])

    await simcord_env.advance_time(window + 1)
    assert len(bot_replies(channel)) == CHANNEL_RATE + 2  # answered when their turn came, the ⏳ taken back
    assert not any(reactions(m) for m in sent)


async def test_a_message_whose_turn_would_come_too_late_gets_one_line(cards, simcord_env, channel, alice, bob):
    window = past_settling(simcord_env)
    cards.inline.pace = Pace(1, window, longest_wait=window)
    await alice.send(channel, "[[Street Wraith]]")
    held = await bob.send(channel, "[[Ash Barrens]]")  # its turn: one window from now
    late = await alice.send(channel, "[[Step Through]]")  # two windows: too late

    (answer, note) = bot_replies(channel)
    assert answer.embeds[0].title.startswith("Street Wraith")
    assert note.content == f"⏳ Too many card lookups here right now (1 every {window:.0f} s): ask again in a moment."
    assert note.reference.message_id == late.id and not note.mentions
    await simcord_env.advance_time(window + 1)
    assert bot_replies(channel)[-1].embeds[0].title.startswith("Ash Barrens")
    assert bot_replies(channel)[-1].reference.message_id == held.id


async def test_a_users_own_budget_is_checked_before_the_channels(cards, simcord_env, channel, alice, bob):
    for _ in range(LOOKUPS.rate):
        simcord_env.bot.admission.spend(LOOKUPS, alice.id)  # Alice's lookups of the last 20 s, elsewhere
    flood = [await alice.send(channel, "[[Street Wraith]]") for _ in range(CHANNEL_RATE)]
    assert bot_replies(channel) == []  # past her budget: ⏳ each, and nothing of the channel's pace spent
    assert all(next(m for m in channel.history() if m.id == f.id).reactions for f in flood)
    for _ in range(CHANNEL_RATE):
        await bob.send(channel, "[[Ash Barrens]]")
    assert len(bot_replies(channel)) == CHANNEL_RATE


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


async def test_without_permission_to_react_a_held_back_lookup_is_still_answered_in_turn(
    cards, simcord_env, guild, alice, bob
):
    window = past_settling(simcord_env)
    cards.inline.pace = Pace(1, window, longest_wait=window)
    channel = guild.create_text_channel(
        "quiet", overwrites={guild.me: discord.PermissionOverwrite(add_reactions=False)}
    )
    await alice.send(channel, "[[Street Wraith]]")
    await bob.send(channel, "[[Ash Barrens]]")

    assert len(bot_replies(channel)) == 1
    await simcord_env.advance_time(window + 1)
    assert [m.embeds[0].title.split(" {")[0] for m in bot_replies(channel)] == ["Street Wraith", "Ash Barrens"]
