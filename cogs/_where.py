"""Where an interaction comes from, and what the bot may do there beyond answering it.

A server can add the bot, and a user can add it to their own apps: then its commands work in group chats, in DMs
between users and in servers that never added it. There Discord sends the interaction, but the bot is no member:
it can't post, edit or read with its own token, only answer through the interaction (its response, follow-ups and
the webhook edits buttons make). Discord says where the interaction comes from (``context``) and who installed the
app (``authorizing_integration_owners``; https://discord.com/developers/docs/interactions/receiving-and-responding).
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.errors import UserFacingError


class NotHere(app_commands.CheckFailure, UserFacingError):
    """A command that needs a channel the bot can post in, used where it can't: the text says where it works."""


def bot_can_post(interaction: discord.Interaction) -> bool:
    """Whether the bot can send and edit messages in the interaction's channel with its own token: in the bot's own
    DM, and in a server that added the bot. Not in a group chat, a DM between users, or a server where only the
    user added the app."""
    context = interaction.context
    if context.dm_channel:
        return True
    if context.private_channel:
        return False
    if interaction.guild_id is None:  # no context (older payloads): only the bot's DM had commands then
        return isinstance(interaction.channel, discord.DMChannel)
    return interaction.is_guild_integration() or interaction.client.get_guild(interaction.guild_id) is not None


def may_post_publicly(interaction: discord.Interaction) -> bool:
    """Whether an answer to the interaction may be public: everywhere outside servers (Discord shows it, or makes it
    private where a server blocks external apps), and in a server where the app may send messages in the channel."""
    if interaction.guild_id is None:
        return True
    return interaction.app_permissions.send_messages
