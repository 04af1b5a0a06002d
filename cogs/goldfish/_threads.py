"""A goldfish game in a thread of its own, on request (``/goldfish start thread:true``).

Optional, and only where the bot may create threads: in a server's text channel where the bot is a member (not where
only a player's account added the app, where it can't create anything) and has Create Public Threads and Send
Messages in Threads. The game then lives in the thread, keyed by it like any channel: its table is posted there and
the commands typed there act on it.
"""

from __future__ import annotations

import logging

import discord

from bot import limits
from bot.goldfish.engine import IllegalAction
from bot.text import clip, one_line

log = logging.getLogger(__name__)

ARCHIVE_MINUTES = 1440  # a day without a message: a practice session is over by then


def thread_problem(interaction: discord.Interaction) -> str | None:
    """Why a game can't open a thread here, in one sentence; None when it can."""
    # The bot's own servers are in its cache; a command run where only the player's account added the app is not
    # (and says so in its integration owners when Discord sends them).
    only_the_user = interaction.is_user_integration() and not interaction.is_guild_integration()
    if interaction.guild_id is None or interaction.client.get_guild(interaction.guild_id) is None or only_the_user:
        return "A game can open a thread only in a server that added the bot itself; start it without `thread:`."
    if not isinstance(interaction.channel, discord.TextChannel):
        return "A game can open a thread only from a text channel (not a thread or forum); start it without `thread:`."
    permissions = interaction.app_permissions
    if not (permissions.create_public_threads and permissions.send_messages_in_threads):
        return (
            "I may not create threads in this channel (Create Public Threads and Send Messages in Threads), "
            "so start the game without `thread:`."
        )
    return None


async def open_thread(interaction: discord.Interaction, *, shared: bool) -> discord.Thread:
    """A new public thread of the interaction's channel for the game, named for whose it is."""
    whose = "shared" if shared else interaction.user.display_name
    name = clip(one_line(f"Goldfish · {whose}"), limits.THREAD_NAME)
    try:
        return await interaction.channel.create_thread(  # type: ignore[union-attr]
            name=name, type=discord.ChannelType.public_thread, auto_archive_duration=ARCHIVE_MINUTES
        )
    except discord.HTTPException as error:
        log.info("Could not open a goldfish thread in channel %s: HTTP %s", interaction.channel_id, error.status)
        raise IllegalAction("I couldn't open a thread here, so no game started; start it without `thread:`.") from None
