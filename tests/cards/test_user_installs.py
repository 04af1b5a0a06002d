"""Card answers where the bot is not a member (a group chat, a server that never added it): buttons and pages keep
working through the interaction's webhook, and nothing is sent with the bot's own token."""

from __future__ import annotations

import pytest

from tests.support.installs import add_to_my_apps, click, group_chat, server_without_the_bot, slash


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
