"""Installable by a server and by a user: every command declared for both kinds of installation and all three
contexts, answers in the bot's DM, group chats and servers that never added the bot, and a sync that survives an
application without User Install."""

from __future__ import annotations

import logging

import discord
import pytest

from bot.client import CycleBot
from tests.support.installs import (
    BOT_DM_PERMISSIONS,
    add_to_my_apps,
    click,
    group_chat,
    places,
    select,
    server_without_the_bot,
    slash,
)

EVERYWHERE = ["rule", "card", "search", "cycling", "help", "goldfish"]


def synced(env) -> dict[str, dict]:
    """The global commands as Discord holds them, by name."""
    return {command["name"]: command for command in env.backend.commands[None].values()}


def seen(env) -> list[discord.Interaction]:
    """Every interaction the bot parsed, as discord.py built it."""
    found: list[discord.Interaction] = []

    async def on_interaction(interaction: discord.Interaction) -> None:
        found.append(interaction)

    env.bot.add_listener(on_interaction)
    return found


@pytest.mark.parametrize("name", EVERYWHERE)
async def test_the_command_is_declared_for_server_and_user_installs_in_every_context(simcord_env, name):
    command = synced(simcord_env)[name]
    assert sorted(command["integration_types"]) == [0, 1]
    assert sorted(command["contexts"]) == [0, 1, 2]


async def test_no_command_is_left_to_servers_alone(simcord_env):
    """/about and the message command too: a command that needs a server says so where it is used instead."""
    commands = synced(simcord_env)
    assert set(EVERYWHERE) | {"about", "Look up cards"} <= set(commands)
    for name, command in commands.items():
        assert sorted(command["integration_types"]) == [0, 1], name
        assert sorted(command["contexts"]) == [0, 1, 2], name


async def test_rule_in_a_group_chat_answers_through_the_interaction(simcord_env):
    alice, bob = simcord_env.create_user("alice"), simcord_env.create_user("bob")
    add_to_my_apps(simcord_env, alice)
    chat = group_chat(simcord_env, alice, bob)
    interactions = seen(simcord_env)

    result = await slash(alice, chat, "rule", query="702.29")

    assert not result.ephemeral
    assert result.response.embeds[0].title.startswith("702.29")
    [interaction] = interactions
    assert interaction.context.private_channel and interaction.guild_id is None
    assert interaction.is_user_integration() and not interaction.is_guild_integration()
    assert isinstance(interaction.channel, discord.GroupChannel)
    assert not simcord_env.errors


async def test_rule_in_the_bots_dm_knows_it_is_the_bots_dm_with_its_documented_permissions(simcord_env):
    alice = simcord_env.create_user("alice")
    add_to_my_apps(simcord_env, alice)
    interactions = seen(simcord_env)

    result = await alice.slash("rule", query="702.29")

    assert result.response.embeds[0].title.startswith("702.29")
    [interaction] = interactions
    assert interaction.context.dm_channel and interaction.guild_id is None
    assert interaction.app_permissions.value == BOT_DM_PERMISSIONS
    assert interaction.app_permissions.use_external_emojis and interaction.app_permissions.embed_links


async def test_card_in_a_server_that_never_added_the_bot_is_answered_as_a_user_install(simcord_env, fake_scryfall):
    channel = await server_without_the_bot(simcord_env)
    alice = channel.guild.add_member(simcord_env.create_user("alice"))
    add_to_my_apps(simcord_env, alice)
    interactions = seen(simcord_env)
    assert simcord_env.bot.get_guild(channel.guild.id) is None, "the bot never heard of that server"

    result = await slash(alice, channel, "rule", query="cycling")

    assert not result.ephemeral
    assert "Cycling" in result.response.embeds[0].title
    [interaction] = interactions
    assert interaction.guild_id == channel.guild.id and interaction.context.guild
    assert interaction.is_user_integration() and not interaction.is_guild_integration()
    assert not simcord_env.errors


async def test_where_the_user_has_not_added_the_app_discord_offers_no_command(simcord_env):
    alice, bob = simcord_env.create_user("alice"), simcord_env.create_user("bob")
    add_to_my_apps(simcord_env, alice)
    chat = group_chat(simcord_env, alice, bob)

    with pytest.raises(Exception, match="not visible"):
        await slash(bob, chat, "rule", query="702.29")


async def test_a_server_blocking_external_apps_shows_the_answer_to_the_user_alone(simcord_env):
    channel = await server_without_the_bot(simcord_env, external_apps=False)
    alice = channel.guild.add_member(simcord_env.create_user("alice"))
    add_to_my_apps(simcord_env, alice)

    result = await slash(alice, channel, "rule", query="702.29")

    assert result.ephemeral, "Discord shows it to alice alone"
    assert result.response.embeds[0].title.startswith("702.29")
    assert not simcord_env.errors


async def test_the_bot_cannot_post_to_a_group_chat_with_its_token(simcord_env):
    alice, bob = simcord_env.create_user("alice"), simcord_env.create_user("bob")
    chat = group_chat(simcord_env, alice, bob)

    with pytest.raises(discord.Forbidden):
        await simcord_env.bot.get_partial_messageable(chat.id).send("hello")


async def test_without_user_install_on_the_portal_the_commands_still_sync_for_servers_and_one_line_says_why(
    simcord_env, bot_config, caplog
):
    places(simcord_env).user_install_enabled = False
    again = CycleBot(bot_config)
    again.force_sync = True
    with caplog.at_level(logging.INFO, logger="bot.frame.command_sync"):
        await simcord_env.restart_bot(again)

    commands = synced(simcord_env)
    assert set(EVERYWHERE) <= set(commands)
    assert all(command["integration_types"] == [0] for command in commands.values())
    assert all(sorted(command["contexts"]) == [0, 1] for command in commands.values())
    [line] = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert "enable User Install on the Developer Portal's Installation tab" in line.getMessage()
    assert not simcord_env.errors

    # Nothing remembered as synced: the next start tries the full declaration again, and succeeds once enabled.
    places(simcord_env).user_install_enabled = True
    await simcord_env.restart_bot(CycleBot(bot_config))
    assert all(sorted(command["integration_types"]) == [0, 1] for command in synced(simcord_env).values())


async def test_help_tells_of_look_up_cards_and_lists_the_slash_commands_alone(simcord_env, channel, alice):
    result = await alice.slash(channel, "help")

    fields = {field.name: field.value for field in result.response.embeds[0].fields}
    assert "Look up cards" in fields["Any message"]
    assert "Look up cards" not in fields["All commands"] and "/card" in fields["All commands"]
    assert not simcord_env.errors


async def test_rule_pages_and_show_in_channel_work_in_a_group_chat_through_the_interaction(simcord_env):
    alice, bob = simcord_env.create_user("alice"), simcord_env.create_user("bob")
    add_to_my_apps(simcord_env, alice)
    chat = group_chat(simcord_env, alice, bob)

    result = await slash(alice, chat, "rule", query="cycling")
    private = await select(alice, result.response, ["702.29b"])
    shown = await click(alice, private.response, label="Show in channel")
    paged = await slash(alice, chat, "rule", query="how does trample work")
    turned = await click(alice, paged.response, label="Next")

    assert private.ephemeral and not shown.ephemeral
    assert shown.response.embeds[0].title == "702.29b Cycling"
    assert turned.response.embeds[0].description.startswith("**Rule 702.19 Trample**")
    sent = [r.path for r in simcord_env.http_requests if r.method in ("POST", "PATCH")]
    assert all(path.startswith(("/interactions/", "/webhooks/")) for path in sent), sent
    assert not simcord_env.errors


async def test_a_user_install_gets_five_follow_ups_an_interaction_as_on_discord(simcord_env):
    """The fake's limit, which the bot's answers stay within: one response, a few follow-ups at most."""
    alice, bob = simcord_env.create_user("alice"), simcord_env.create_user("bob")
    add_to_my_apps(simcord_env, alice)
    interactions = seen(simcord_env)
    await slash(alice, group_chat(simcord_env, alice, bob), "rule", query="702.29")
    [interaction] = interactions

    for _ in range(5):
        await interaction.followup.send("more", ephemeral=True)
    with pytest.raises(discord.HTTPException) as refused:
        await interaction.followup.send("one too many", ephemeral=True)
    assert refused.value.code == 40094


async def test_about_in_a_server_that_never_added_the_bot_lists_no_channel_gaps_to_mend(simcord_env):
    channel = await server_without_the_bot(simcord_env, app_permissions=discord.Permissions(view_channel=True).value)
    alice = channel.guild.add_member(simcord_env.create_user("alice"))
    add_to_my_apps(simcord_env, alice)

    result = await slash(alice, channel, "about")

    assert result.ephemeral
    assert "Missing in this channel" not in [field.name for field in result.response.embeds[0].fields]
    assert not simcord_env.errors


async def test_about_offers_both_ways_to_add_the_bot(simcord_env, channel, alice):
    result = await alice.slash(channel, "about")

    buttons = {c["label"]: c["url"] for row in result.response.components for c in row["components"]}
    app = simcord_env.bot.application_id
    assert buttons == {
        "Add to a server": f"https://discord.com/oauth2/authorize?client_id={app}&integration_type=0"
        "&scope=bot+applications.commands&permissions=309238025280",
        "Add to my apps": f"https://discord.com/oauth2/authorize?client_id={app}&integration_type=1"
        "&scope=applications.commands",
    }
