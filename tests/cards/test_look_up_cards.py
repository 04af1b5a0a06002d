"""“Look up cards” on any message (a message command): the message's [[card]] references, or the card names
written out in it, answered as inline lookups are, wherever the app is installed, with no Message Content intent
and INLINE_CARDS unset; the message's text is never logged."""

from __future__ import annotations

import asyncio
import logging
import shutil

import discord
import pytest

from bot.carddb import FILE_NAME
from bot.cards import CardReference
from bot.config import Config
from bot.serving import LOOKUPS
from tests.support.installs import (
    add_to_my_apps,
    group_chat,
    message_command,
    say,
    server_without_the_bot,
)

LOOK_UP = "Look up cards"


@pytest.fixture
def bot_config(data_dir, fake_scryfall, bulk_copy) -> Config:
    """The local card data, and inline lookups left off (INLINE_CARDS unset): the command needs neither."""
    shutil.copyfile(bulk_copy, data_dir / FILE_NAME)
    return Config(data_dir=data_dir, scryfall_api_url=fake_scryfall.base_url)


def titles(message) -> list[str]:
    return [embed.title.split(" {")[0] for embed in message.embeds]


async def test_the_command_is_a_message_command_for_both_installs_everywhere(simcord_env):
    [command] = [c for c in simcord_env.backend.commands[None].values() if c["name"] == LOOK_UP]
    assert command["type"] == 3
    assert sorted(command["integration_types"]) == [0, 1] and sorted(command["contexts"]) == [0, 1, 2]
    assert not simcord_env.bot.intents.message_content and not simcord_env.bot.config.inline_cards


async def test_the_references_of_someone_elses_message_are_answered_publicly_with_each_form(
    local_cards, simcord_env, channel, alice, bob, caplog, fake_scryfall
):
    text = "Deck tech: [[Street Wraith]], [[$Krosan Tusker]], [[#Ash Barrens]] and [[Test Xcycler|tst]] @everyone"
    message = await bob.send(channel, text)

    with caplog.at_level(logging.DEBUG):
        result = await alice.context_menu(channel, LOOK_UP, message)

    assert not result.ephemeral
    answer = result.response
    assert titles(answer) == ["Street Wraith", "Prices: Krosan Tusker", "Legality: Ash Barrens", "Test Xcycler"]
    assert fake_scryfall.requests_to("/cards/named")[-1].query == {"fuzzy": "Test Xcycler", "set": "tst"}
    assert "Deck tech" not in caplog.text and "Street Wraith" not in caplog.text, "someone else's text is not logged"
    request = [r for r in simcord_env.http_requests if r.path.endswith("/callback")][-1]
    assert request.json["data"]["allowed_mentions"] == {"parse": []}
    assert not simcord_env.errors


async def test_without_references_it_finds_the_card_names_written_out(local_cards, simcord_env, channel, alice, bob):
    message = await bob.send(channel, "I cycled street wraith and then a Krosan Tusker, the island was tapped")

    result = await alice.context_menu(channel, LOOK_UP, message)

    assert not result.ephemeral
    assert titles(result.response) == ["Street Wraith", "Krosan Tusker"]


async def test_a_message_with_no_cards_gets_a_private_line(local_cards, simcord_env, channel, alice, bob):
    message = await bob.send(channel, "see you all on friday, bring snacks")

    result = await alice.context_menu(channel, LOOK_UP, message)

    assert result.ephemeral
    assert result.response.content == "I found no `[[card]]` references or card names in that message."
    assert [m for m in channel.history() if m.author.id == simcord_env.bot.user.id and not m.flags.ephemeral] == []


async def test_only_misses_are_told_privately(local_cards, channel, alice, bob):
    message = await bob.send(channel, "[[Zzyzx Qwerty]]")

    result = await alice.context_menu(channel, LOOK_UP, message)

    assert result.ephemeral
    assert result.response.content == "No card is called “Zzyzx Qwerty”."  # as /card and inline lookups say it


async def test_seven_references_are_answered_with_five_cards_and_the_rest_named(local_cards, channel, alice, bob):
    names = ["Street Wraith", "Ash Barrens", "Sanctum Plowbeast", "Step Through", "Test Xcycler", "Krosan Tusker"]
    message = await bob.send(channel, " ".join(f"[[{name}]]" for name in [*names, "Fire // Ice"]))

    result = await alice.context_menu(channel, LOOK_UP, message)

    assert len(result.response.embeds) == 5
    assert result.response.content == "I look up 5 cards a message; not looked up: Krosan Tusker, Fire // Ice"


async def test_it_spends_the_lookup_budget_inline_lookups_and_card_share(local_cards, simcord_env, channel, alice, bob):
    message = await bob.send(channel, "[[Street Wraith]]")
    for _ in range(LOOKUPS.rate):  # alice's whole budget of lookups, spent on /card
        assert not (await alice.slash(channel, "card", name="Ash Barrens")).ephemeral

    result = await alice.context_menu(channel, LOOK_UP, message)

    assert result.ephemeral
    assert result.response.content.startswith("Slow down a little: try again in")
    assert [type(error).__name__ for error in simcord_env.errors] == ["Refused"]


async def test_in_a_group_chat_the_user_install_answers_through_the_interaction(local_cards, simcord_env):
    alice, bob = simcord_env.create_user("alice"), simcord_env.create_user("bob")
    add_to_my_apps(simcord_env, alice)
    chat = group_chat(simcord_env, alice, bob)
    message = say(simcord_env, chat, bob, "anyone played [[!Street Wraith]] in modern?")

    result = await message_command(alice, chat, LOOK_UP, message)

    assert not result.ephemeral
    assert result.response.embeds[0].image.url, "the picture, as [[!name]] asks"
    assert not simcord_env.errors


async def test_in_a_server_that_never_added_the_bot_it_answers_too(local_cards, simcord_env):
    channel = await server_without_the_bot(simcord_env)
    alice = channel.guild.add_member(simcord_env.create_user("alice"))
    bob = channel.guild.add_member(simcord_env.create_user("bob"))
    add_to_my_apps(simcord_env, alice)
    message = say(simcord_env, channel, bob, "Krosan Tusker is the best cycler")

    result = await message_command(alice, channel, LOOK_UP, message)

    assert not result.ephemeral
    assert titles(result.response) == ["Krosan Tusker"]
    assert not simcord_env.errors


async def test_a_slow_first_search_for_names_is_acknowledged_in_time(
    local_cards, simcord_env, channel, alice, bob, monkeypatch
):
    """The names index is built once per copy of the card data (about a second on 35,000 cards): a first search
    that takes longer is deferred by Discord's deadline, then answered."""
    # The module the running bot loaded (each bot loads its extensions afresh).
    handler = type(local_cards.messages).look_up.__globals__
    found = handler["written_card_names"]

    async def slow(*args, **kwargs):
        await asyncio.sleep(1.5)
        return await found(*args, **kwargs)

    monkeypatch.setitem(handler, "written_card_names", slow)
    message = await bob.send(channel, "street wraith is the best")

    result = await alice.context_menu(channel, LOOK_UP, message)

    callbacks = [r for r in simcord_env.http_requests if r.path.endswith("/callback")]
    assert callbacks[-1].json["type"] == 5, "deferred before the three seconds were up"
    assert not result.ephemeral and titles(result.response) == ["Street Wraith"]


async def test_a_long_message_is_searched_for_names_too(local_cards, channel, alice, bob):
    chatter = "we talked about sideboards and the weather for a long while, " * 15
    message = await bob.send(channel, f"{chatter}and then someone cast Krosan Tusker. {chatter}")
    assert len(message.content) > 1800

    result = await alice.context_menu(channel, LOOK_UP, message)

    assert titles(result.response) == ["Krosan Tusker"]


async def test_cards_too_long_to_show_together_are_named_not_lost(local_cards):
    """One message's embeds hold 6,000 characters together: a card past that is named, so nobody waits for it."""
    long = [discord.Embed(title=name, description="x" * 2500) for name in ("A", "B", "C")]
    references = [CardReference(name) for name in ("Alpha Card", "Beta Card", "Gamma Card")]

    content, embeds = await local_cards.inline.compose(references, long, [])

    assert [embed.title for embed in embeds] == ["A", "B"] and sum(map(len, embeds)) <= 6000
    assert content == "Too long to show with the others: Gamma Card (ask for it on its own)."


async def test_where_the_app_may_not_post_the_card_found_is_the_askers_alone_with_no_line_above_it(
    local_cards, simcord_env, guild, alice, bob
):
    closed = guild.create_text_channel(
        "no-posts", overwrites={guild.me: discord.PermissionOverwrite(send_messages=False)}
    )
    message = await bob.send(closed, "[[Street Wraith]] and [[Zzyzx Qwerty]]")

    result = await alice.context_menu(closed, LOOK_UP, message)

    assert result.ephemeral
    assert titles(result.response) == ["Street Wraith"]
    assert result.response.content == "No card is called “Zzyzx Qwerty”."  # the miss, never "I found no …"
    alone = await alice.context_menu(closed, LOOK_UP, await bob.send(closed, "[[Street Wraith]]"))
    assert alone.ephemeral and titles(alone.response) == ["Street Wraith"] and not alone.response.content
    assert not simcord_env.errors
