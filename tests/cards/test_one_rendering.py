"""One rendering per message, through discord.py: with the mana symbols uploaded as the application's emoji, every
reply type shows each card cost and symbol as an emoji, or (where that can't be done for all of it, or the app may
not use external emoji there) every one as text. The conftest's check looks at every message of every test; these
tests make sure each reply type is played with emoji on, and that the emoji are really there."""

from __future__ import annotations

import re

import discord
import pytest

from tests.cards.conftest import private
from tests.support.simcord_discord import EMOJI_SYMBOL, TEXT_SYMBOL, rendering_faults

# Seeds whose first hand of seven needs more than one field's 1,024 characters once every cost is an emoji.
FULL_HANDS = (("slide", 1), ("landcycling", 1), ("two-colour", 1))


@pytest.fixture
def bot_config(loaded_config):
    return loaded_config


def texts(message: discord.Message) -> list[str]:
    shown = [message.content or ""]
    for embed in message.embeds:
        shown += [embed.title or "", embed.description or "", embed.footer.text or ""]
        shown += [text for field in embed.fields for text in (field.name, field.value)]
    return shown


def as_emoji(message: discord.Message) -> bool:
    """Every symbol of the message is an emoji, and it shows at least one."""
    shown = texts(message)
    return any(EMOJI_SYMBOL.search(text) for text in shown) and not any(TEXT_SYMBOL.search(text) for text in shown)


def as_text(message: discord.Message) -> bool:
    shown = texts(message)
    return any(TEXT_SYMBOL.search(text) for text in shown) and not any(EMOJI_SYMBOL.search(text) for text in shown)


@pytest.mark.parametrize(("deck", "seed"), FULL_HANDS)
async def test_a_hand_of_seven_shows_every_cost_as_an_emoji_within_the_field_limits(emoji, channel, alice, deck, seed):
    table = (await alice.slash(channel, "goldfish start", deck=deck, seed=seed)).response.message

    assert as_emoji(table)
    names = [field.name for field in table.embeds[0].fields]
    hand = names.index("Hand (7)")
    fields = table.embeds[0].fields
    # Past a field's 1,024 characters the hand goes on in a field without a name, rather than in braces.
    shown = [fields[hand]] + ([fields[hand + 1]] if hand + 1 < len(names) and names[hand + 1] == "\u200b" else [])
    lines = "\n".join(field.value for field in shown).split("\n")
    assert len(lines) == 7 and all(len(field.value) <= 1024 for field in table.embeds[0].fields)


async def test_cards_searches_and_inline_answers_show_symbols_one_way(emoji, channel, alice):
    card = await alice.slash(channel, "card", name="Krosan Tusker")
    assert as_emoji(card.response.message)
    found = await alice.slash(channel, "search", query="t:creature c:g")
    assert as_emoji(found.response.message)
    cycling = await alice.slash(channel, "cycling")
    assert as_emoji(cycling.response.message)

    await alice.send(channel, "[[Krosan Tusker]] or [[Street Wraith]] or [[?t:elf]]")
    inline = channel.last_message
    assert len(inline.embeds) == 3 and as_emoji(inline)
    assert rendering_faults == []


async def test_a_rules_answer_naming_a_card_shows_its_costs_as_emoji(emoji, channel, alice):
    answer = (await alice.slash(channel, "rule", query="how does cycling work on Krosan Tusker?")).response.message

    assert as_emoji(answer), texts(answer)


async def test_a_refusal_quoting_a_cost_shows_it_as_the_table_does(emoji, channel, alice):
    started = await alice.slash(channel, "goldfish start", deck="slide", seed=12)
    await alice.click(started.response.message, label="Keep")
    refused = await alice.slash(channel, "goldfish cycle", card="Solar Blast")  # {1}{R}{R} with no land out

    assert refused.ephemeral
    assert EMOJI_SYMBOL.search(refused.response.content) and not TEXT_SYMBOL.search(refused.response.content)


async def test_what_a_player_typed_stays_text_beside_emoji(emoji, channel, alice):
    found = await alice.slash(channel, "search", query="t:elf foo:{G}")

    message = found.response.message
    assert as_emoji(message)  # the {G} typed carries a word joiner: quoted text, not a symbol
    assert "foo:{\u2060G}" in message.embeds[0].footer.text


async def test_without_use_external_emojis_every_reply_is_text(emoji, guild, alice):
    closed = guild.create_text_channel(
        "no-emoji", overwrites={guild.me: discord.PermissionOverwrite(use_external_emojis=False)}
    )
    card = await alice.slash(closed, "card", name="Krosan Tusker")
    assert as_text(card.response.message)
    table = await alice.slash(closed, "goldfish start", deck="slide", seed=1)
    assert as_text(table.response.message)

    await alice.send(closed, "[[Krosan Tusker]]")
    assert as_text(closed.last_message)


def test_the_check_finds_a_mixed_message():
    """The conftest's check itself: a message with an emoji beside a symbol in braces is a fault."""
    from tests.support import simcord_discord

    simcord_discord._check_rendering("/x", {"embeds": [{"title": "<:mana_G:1>", "description": "{2}"}]})
    simcord_discord._check_rendering("/y", {"content": "Cycling {2}", "embeds": [{"title": "a {\u2060G} typed"}]})
    found = list(rendering_faults)
    rendering_faults.clear()
    assert found == ["/x: emoji next to {2} in one message"]
    assert re.fullmatch(TEXT_SYMBOL, "{2/W}") and not TEXT_SYMBOL.search("{\u2060G}")


async def test_a_rules_miss_quotes_the_typed_braces_as_text(emoji, channel, alice):
    miss = private(await alice.slash(channel, "rule", query="qqqq {G} zzzz"))
    title = miss.embeds[0].title

    assert "{\u2060G}" in title and not EMOJI_SYMBOL.search(title)


async def test_the_hand_and_the_log_show_symbols_one_way(emoji, channel, alice):
    started = await alice.slash(channel, "goldfish start", deck="slide", seed=12)
    await alice.click(started.response.message, label="Keep")
    await alice.slash(channel, "goldfish play", card="Plains")
    await alice.slash(channel, "goldfish cycle", card="Secluded Steppe")  # pays {W}: "Paid {W}" in the log

    hand = (await alice.slash(channel, "goldfish hand")).response.message
    log = (await alice.slash(channel, "goldfish log")).response.message
    assert as_emoji(hand) and as_emoji(log), (texts(hand), texts(log))
    assert rendering_faults == []
