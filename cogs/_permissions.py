"""What the bot may do where it answers, read in one place before anything is sent.

An interaction carries ``app_permissions``: what the app may do in that channel, and all that is known where only a
user installed it. A message the bot posts itself (an inline lookup's answer, a table's picture) depends on the bot
member's permissions in the channel. Without Embed Links an answer goes as text, without Read Message History as a
plain message rather than a reply, without Use External Emojis with its symbols as text, without Attach Files
without a picture; the admin's log hears of each missing permission once per channel and feature
(:class:`MissingNotes`), never a traceback per message.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import discord
from discord import app_commands

from bot.errors import UserFacingError

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Needed:
    """A permission the bot uses: its flag, its name in Discord's settings, and what players lose without it."""

    flag: str
    label: str
    without: str


# A goldfish table is edited through the interaction that posted it or was last pressed on it while its token lasts
# (no permission asked), then through the channel (cogs/goldfish/_edits.py).
LATE_TABLES = "goldfish tables a command edits 15 minutes after they were posted or pressed"
# What the bot uses in a channel, most needed first (/about lists the missing ones in this order).
NEEDED = (
    Needed("view_channel", "View Channel", "the bot can't see the channel"),
    Needed(
        "send_messages",
        "Send Messages",
        "inline [[card]] lookups get no answer; goldfish tables have no picture, and turn to text as they do without "
        "Embed Links",
    ),
    Needed("embed_links", "Embed Links", f"inline cards come as plain text, and so do {LATE_TABLES}"),
    Needed("read_message_history", "Read Message History", "inline lookups are answered as messages, not replies"),
    Needed("add_reactions", "Add Reactions", "a lookup held back gets a line instead of ⏳"),
    Needed("attach_files", "Attach Files", "goldfish tables have no picture"),
    Needed("use_external_emojis", "Use External Emojis", "mana symbols show as text, not as pictures"),
)
LABELS = {needed.flag: needed.label for needed in NEEDED}


def app_permissions(interaction: discord.Interaction) -> discord.Permissions:
    """What the app may do where ``interaction`` came from (Discord's ``app_permissions``)."""
    return interaction.app_permissions


# ------------------------------------------------------------------ where the bot is not a member
# A player can add the bot to their own apps: then its commands work in group chats, DMs between players and servers
# that never added it. Discord sends the interaction there, but the bot is no member: it can't post, edit or read
# with its own token, only answer through the interaction (its response, follow-ups and the webhook edits buttons
# make). Discord says where it comes from (``context``) and who installed the app (``authorizing_integration_owners``;
# https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object).


class NotHere(app_commands.CheckFailure, UserFacingError):
    """A command that needs a channel the bot can post in, used where it can't: the text says where it works."""


def bot_can_post(interaction: discord.Interaction) -> bool:
    """Whether the bot can send and edit messages in the interaction's channel with its own token: in its own DM,
    and in a server that added it. Not in a group chat, a DM between players, or a server where only the player
    added the app.

    discord.py's ``is_guild_integration()`` is False in the bot's DM (no guild id there, though Discord sends
    ``{"0": "0"}``), hence the context first; ``is_user_integration()`` is True only for the installing player's
    own interactions (it compares them with whoever clicked), so it can't tell where the bot is."""
    context = interaction.context
    if context.dm_channel:
        return True
    if context.private_channel:
        return False
    if interaction.guild_id is None:  # no context (older payloads): only the bot's DM had commands then
        return isinstance(interaction.channel, discord.DMChannel)
    return interaction.is_guild_integration() or interaction.client.get_guild(interaction.guild_id) is not None


def may_answer_publicly(interaction: discord.Interaction) -> bool:
    """Whether an answer to the interaction may be public: outside servers always (Discord shows it, or shows it to
    the asker alone where a server blocks external apps), and in a server where the app may send messages there."""
    return interaction.guild_id is None or app_permissions(interaction).send_messages


def channel_permissions(channel: object, client: discord.Client) -> discord.Permissions:
    """The bot's own permissions in ``channel`` (a DM's where it is one); none when the channel or the bot's
    member is not known, so that nothing is sent that Discord would refuse."""
    guild = getattr(channel, "guild", None)
    me = guild.me if guild is not None else client.user
    permissions_for = getattr(channel, "permissions_for", None)
    if me is None or permissions_for is None:
        return discord.Permissions.none()
    return permissions_for(me)


def missing(permissions: discord.Permissions) -> list[Needed]:
    """The permissions the bot uses that ``permissions`` lacks, most needed first."""
    return [needed for needed in NEEDED if not getattr(permissions, needed.flag)]


def channel_label(channel: object) -> str:
    """``#lfg`` for a server channel, ``a DM`` otherwise: how the log names where a permission is missing."""
    name = getattr(channel, "name", None)
    if name:
        return f"#{name}"
    return "a DM" if isinstance(channel, discord.DMChannel) else f"channel {getattr(channel, 'id', '?')}"


class MissingNotes:
    """One log line per channel and missing permission, for one feature: "no Embed Links in #lfg: inline cards
    sent as text". The same gap found again (every message of a busy channel) is not logged again."""

    def __init__(self, limit: int = 10_000) -> None:
        self.told: set[tuple[int, str]] = set()
        self.limit = limit

    def note(self, channel: object, flag: str, consequence: str) -> None:
        key = (getattr(channel, "id", 0), flag)
        if key in self.told:
            return
        if len(self.told) >= self.limit:  # a bot in many thousand channels: forget, and tell again one day
            self.told.clear()
        self.told.add(key)
        log.warning("no %s in %s: %s", LABELS.get(flag, flag), channel_label(channel), consequence)
