"""One rendering decision for every card answer, made from where it goes: /card, inline [[…]] and "Look up cards"
in the same channel show a card's symbols the same way (the application's emoji where the app may use external
emoji there, all text where it may not), whatever else the message holds."""

from __future__ import annotations

import discord
import pytest

from tests.cards.test_one_rendering import as_emoji, as_text, texts
from tests.support.simcord_discord import rendering_faults

LOOK_UP = "Look up cards"


@pytest.fixture
def bot_config(loaded_config):
    return loaded_config


@pytest.mark.parametrize(
    "text",
    ["[[Krosan Tusker]]", "[[Krosan Tusker]] and [[Street Wraith]]", "I cycled a Krosan Tusker, then Street Wraith"],
    ids=["one", "two", "written out"],
)
async def test_look_up_cards_shows_symbols_as_card_and_inline_do_in_the_same_channel(emoji, channel, alice, bob, text):
    card = (await alice.slash(channel, "card", name="Krosan Tusker")).response.message
    await bob.send(channel, "[[Krosan Tusker]]")
    answer = channel.last_message
    message = await bob.send(channel, text)

    looked_up = await alice.context_menu(channel, LOOK_UP, message)

    assert not looked_up.ephemeral
    assert as_emoji(card) and as_emoji(answer)
    assert as_emoji(looked_up.response.message), texts(looked_up.response.message)
    assert not looked_up.response.content  # the cards alone: no line above them
    assert rendering_faults == []


async def test_without_use_external_emojis_every_card_answer_is_text(emoji, guild, alice, bob):
    closed = guild.create_text_channel(
        "no-emoji", overwrites={guild.me: discord.PermissionOverwrite(use_external_emojis=False)}
    )
    card = (await alice.slash(closed, "card", name="Krosan Tusker")).response.message
    inline = await bob.send(closed, "[[Krosan Tusker]] and [[Street Wraith]]")
    answer = closed.last_message

    looked_up = await alice.context_menu(closed, LOOK_UP, inline)

    assert as_text(card) and as_text(answer) and as_text(looked_up.response.message)
