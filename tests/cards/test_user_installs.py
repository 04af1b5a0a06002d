"""Card answers where the bot is not a member (a group chat, a server that never added it): buttons and pages keep
working through the interaction's webhook, and nothing is sent with the bot's own token."""

from __future__ import annotations

import asyncio

import discord
import pytest

from bot.serving import LOOKUPS, SEARCHES
from tests.cards.conftest import only_refusals, start_slash, wait_until
from tests.cards.test_fair_shares import SLOW, answered_at
from tests.cards.test_one_rendering import as_emoji, as_text
from tests.support.installs import (
    add_to_my_apps,
    autocomplete,
    click,
    group_chat,
    message_command,
    say,
    server_without_the_bot,
    slash,
)


@pytest.fixture
def bot_config(loaded_config):
    return loaded_config


@pytest.fixture
async def places_without_the_bot(simcord_env):
    """A group chat and a server that never added the bot, each with alice (who added the app) and bob."""
    alice, bob = simcord_env.create_user("alice"), simcord_env.create_user("bob")
    add_to_my_apps(simcord_env, alice)
    server = await server_without_the_bot(simcord_env)
    members = [server.guild.add_member(user) for user in (alice, bob)]
    return {"group chat": (group_chat(simcord_env, alice, bob), alice, bob), "server": (server, *members)}


@pytest.mark.parametrize("where", ["group chat", "server"])
async def test_search_pages_turn_through_the_interaction(local_cards, simcord_env, places_without_the_bot, where):
    channel, alice, bob = places_without_the_bot[where]

    result = await slash(alice, channel, "search", query="o:cycling order:cmc")
    assert not result.ephemeral and "page 1/16" in result.response.embeds[0].footer.text
    await click(alice, result.response.message, label="Next")
    refused = await click(bob, result.response.message, label="Next")

    assert "page 2/16" in result.response.embeds[0].footer.text
    assert refused.ephemeral and "belong to whoever asked" in refused.response.content
    assert_only_through_interactions(simcord_env)


@pytest.mark.parametrize("where", ["group chat", "server"])
async def test_card_buttons_answer_anyone_through_the_interaction(
    local_cards, simcord_env, places_without_the_bot, where
):
    channel, alice, bob = places_without_the_bot[where]

    result = await slash(alice, channel, "card", name="Street Wraith")
    legality = await click(bob, result.response.message, label="Legality")

    assert not result.ephemeral and result.response.embeds[0].title.startswith("Street Wraith")
    assert legality.ephemeral and legality.response.embeds
    assert_only_through_interactions(simcord_env)


def assert_only_through_interactions(env) -> None:
    """Every message the bot sent or edited went through an interaction's callback or webhook, never its token."""
    sent = [r for r in env.http_requests if r.method in ("POST", "PATCH", "PUT", "DELETE")]
    assert sent, "the bot answered"
    assert all(r.path.startswith(("/interactions/", "/webhooks/", "/applications/")) for r in sent), [
        r.path for r in sent
    ]
    assert not env.errors


async def test_a_flood_from_a_group_chat_leaves_a_player_in_another_group_chat_served(local_cards, simcord_env):
    """Group chats and DMs share one share, larger than a server's, served round-robin by user."""
    flooder, other, friend = (simcord_env.create_user(name) for name in ("flooder", "other", "friend"))
    add_to_my_apps(simcord_env, flooder, other)
    flooding, quiet = group_chat(simcord_env, flooder, friend), group_chat(simcord_env, other, friend)
    flood = [start_slash(simcord_env, flooder, flooding, "search", query=SLOW) for _ in range(5)]
    flood += [start_slash(simcord_env, flooder, flooding, "card", name="Fling") for _ in range(12)]
    await wait_until(lambda: simcord_env.bot.admission.in_flight(SEARCHES) > 0)
    search = start_slash(simcord_env, other, quiet, "search", query="t:creature c:g pow>=4")
    card = start_slash(simcord_env, other, quiet, "card", name="Street Wraith")
    await simcord_env.settle(timeout=60)

    assert search.response.embeds[0].title.startswith("Search: ")
    assert card.response.embeds[0].title.startswith("Street Wraith")
    assert max(answered_at(simcord_env, search), answered_at(simcord_env, card)) < max(
        answered_at(simcord_env, r) for r in flood
    )
    assert only_refusals(simcord_env)


async def test_symbols_are_text_where_app_permissions_lack_use_external_emojis(local_cards, simcord_env):
    """Where only a player added the app, app_permissions is all the bot knows: a group chat's (documented without
    Use External Emojis) and a server's whose @everyone may not use them get text symbols; the bot's DM, emoji."""
    await simcord_env.bot.prepare_symbols()
    assert simcord_env.bot.mana, "the symbols are the application's emoji"
    alice, bob = simcord_env.create_user("alice"), simcord_env.create_user("bob")
    add_to_my_apps(simcord_env, alice)
    no_emoji = discord.Permissions(view_channel=True, send_messages=True, embed_links=True).value
    server = await server_without_the_bot(simcord_env, app_permissions=no_emoji)
    member = server.guild.add_member(alice)

    chat = group_chat(simcord_env, alice, bob)
    in_dm = await alice.slash("card", name="Krosan Tusker")
    in_chat = await slash(alice, chat, "card", name="Krosan Tusker")
    in_server = await slash(member, server, "card", name="Krosan Tusker")
    # Look up cards decides as /card does, in the same places.
    looked_up_in_chat = await message_command(alice, chat, "Look up cards", say(simcord_env, chat, bob, "[[tusker]]"))
    named = say(simcord_env, server, member, "Krosan Tusker")
    looked_up_in_server = await message_command(member, server, "Look up cards", named)

    assert as_emoji(in_dm.response.message)
    assert as_text(in_chat.response.message) and as_text(in_server.response.message)
    assert as_text(looked_up_in_chat.response.message) and as_text(looked_up_in_server.response.message)
    assert not simcord_env.errors


async def test_a_user_install_inside_a_server_counts_as_that_server_not_as_the_dms(local_cards, simcord_env):
    """With the share of DMs and group chats all taken, a player's lookup in a server that never added the bot is
    served at once from that server's share, while one from a group chat waits for the DMs' share."""
    admission = simcord_env.bot.admission
    held = [admission.enter(LOOKUPS, 9000 + n, None) for n in range(LOOKUPS.outside)]  # DMs and group chats
    alice, bob = simcord_env.create_user("alice"), simcord_env.create_user("bob")
    add_to_my_apps(simcord_env, alice)
    server = await server_without_the_bot(simcord_env)
    member = server.guild.add_member(alice)

    in_server = await slash(member, server, "card", name="Street Wraith")
    assert in_server.response.embeds[0].title.startswith("Street Wraith")
    assert admission.waited["lookups"] == 0, "the server's own share: no wait"

    async def release_when_waiting() -> None:
        await wait_until(lambda: admission.waiting(LOOKUPS) == 1)
        for ticket in held:
            ticket.release()

    in_chat = start_slash(simcord_env, alice, group_chat(simcord_env, alice, bob), "card", name="Street Wraith")
    await asyncio.gather(simcord_env.settle(timeout=30), release_when_waiting())
    assert in_chat.response.embeds[0].title.startswith("Street Wraith")
    assert admission.waited["lookups"] == 1, "the DMs' share was full: it waited its turn"


@pytest.mark.parametrize("where", ["group chat", "server"])
async def test_card_names_autocomplete_where_the_bot_is_not_a_member(local_cards, places_without_the_bot, where):
    channel, alice, _ = places_without_the_bot[where]

    choices = await autocomplete(alice, channel, "card", "name", "street wra")

    assert [choice["value"] for choice in choices][:1] == ["Street Wraith"]
