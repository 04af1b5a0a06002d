"""Where a goldfish table is edited from: the interaction that posted it, or the last press on it, while its token
lasts; else the channel.

An interaction's token edits its own messages for 15 minutes: a command's answer and follow-ups, and for a press on
a button, the message the button is on. Those edits don't ask the bot's own permissions in the channel for Embed
Links or Attach Files (Discord grants them to an interaction's answers), so a table edited that way keeps its text
wherever it was posted. Past that, the table is edited through the channel with the bot's own permissions: where
it lacks Embed Links (or Send Messages, which takes Embed Links with it), the table goes as text rather than losing
its text, and the admin's log hears of it once for the channel.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import discord

from bot import limits
from bot.hosts import PLAIN, SymbolText
from bot.text import clip
from cogs._permissions import MissingNotes, channel_permissions
from cogs._symbols import as_text, symbols_for, symbols_in
from cogs._ui import NO_MENTIONS, created_at

log = logging.getLogger(__name__)

TOKEN_SECONDS = 15 * 60  # how long Discord lets an interaction's token edit its messages
# A minute early: an edit under way as the token runs out, or a clock a little ahead, goes through the channel instead.
TOKEN_MARGIN = 60.0
HANDLES = 4096  # tables edited through their interaction (a quarter of an hour of a busy bot's tables)
UNKNOWN_MESSAGE = 10008  # Discord's code for a message that is gone (not for a token that is)

# What a table's message shows, made for the symbols that show where it goes: called as ``table(symbols=...)``.
Table = Callable[..., discord.Embed | Sequence[discord.Embed]]


def embeds_of(table: Table, symbols: SymbolText) -> list[discord.Embed]:
    made = table(symbols=symbols)
    return [made] if isinstance(made, discord.Embed) else list(made)


@dataclass(frozen=True)
class Handle:
    """An interaction that may edit a table: ``original`` when the table is its original response (a command's
    answer, or the message of a pressed button), else one of its follow-ups; usable until ``until``
    (``time.monotonic()``)."""

    interaction: discord.Interaction
    original: bool
    until: float


def as_text_table(table: Table, symbols: SymbolText) -> str:
    """A table written as a message's text, its symbols as ``symbols`` show them when the whole message can."""
    embeds = embeds_of(table, PLAIN)
    text = as_text(embeds, limit=limits.EMBED_TOTAL * len(embeds))
    shown = symbols.full(text)
    return shown if shown is not None and len(shown) <= limits.MESSAGE_CONTENT else clip(text, limits.MESSAGE_CONTENT)


class TableEdits:
    """Edits a table's message the way that keeps its text (see the module's docstring)."""

    def __init__(self, bot: discord.Client) -> None:
        self.bot = bot
        self.handles: OrderedDict[int, Handle] = OrderedDict()
        self.notes = MissingNotes()

    def posted(self, message_id: int, interaction: discord.Interaction, *, original: bool) -> None:
        """``interaction`` posted the table ``message_id`` (or its button was pressed: ``original``); its token edits
        the table from now on, for as long as it lasts."""
        until = created_at(interaction) + TOKEN_SECONDS - TOKEN_MARGIN
        self.handles[message_id] = Handle(interaction, original, until)
        self.handles.move_to_end(message_id)
        while len(self.handles) > HANDLES:
            self.handles.popitem(last=False)

    def _handle(self, message_id: int) -> Handle | None:
        handle = self.handles.get(message_id)
        if handle is not None and handle.until <= time.monotonic():
            del self.handles[message_id]
            return None
        return handle

    async def edit(self, channel_id: int, message_id: int, table: Table | None = None, **fields) -> None:
        """Edit the table ``message_id``: its embeds as ``table`` makes them for the symbols that show where it goes,
        and ``fields`` (``view``, ``attachments``) as given. Raises :class:`discord.NotFound` when the table is gone."""
        handle = self._handle(message_id)
        if handle is not None:
            if table is not None:
                fields |= {"content": None, "embeds": embeds_of(table, symbols_for(handle.interaction))}
            try:
                if handle.original:
                    await handle.interaction.edit_original_response(**fields)
                else:
                    await handle.interaction.followup.edit_message(message_id, **fields)
                return
            except discord.HTTPException as error:
                if isinstance(error, discord.NotFound) and error.code == UNKNOWN_MESSAGE:
                    raise
                # The token is no longer good (Discord ended it early, or the clocks disagree): the channel, then.
                log.info("A goldfish table's interaction could not edit it (HTTP %s): now the channel", error.status)
                self.handles.pop(message_id, None)
                fields.pop("content", None)
                fields.pop("embeds", None)
        await self._in_channel(channel_id, message_id, table, fields)

    async def send(self, channel: discord.abc.Messageable, table: Table, **fields) -> discord.Message:
        """A table the bot posts itself in ``channel`` (a game's own thread): as text where it may not embed."""
        symbols = symbols_in(channel, self.bot)
        if channel_permissions(channel, self.bot).embed_links:
            return await channel.send(embeds=embeds_of(table, symbols), allowed_mentions=NO_MENTIONS, **fields)
        self.notes.note(channel, "embed_links", "goldfish tables posted as text")
        return await channel.send(as_text_table(table, symbols), allowed_mentions=NO_MENTIONS, **fields)

    async def _in_channel(self, channel_id: int, message_id: int, table: Table | None, fields: dict) -> None:
        message = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)  # type: ignore[attr-defined]
        if table is None:
            await message.edit(**fields)
            return
        channel = self.bot.get_channel(channel_id)
        symbols = symbols_in(channel, self.bot) if channel is not None else PLAIN
        # A channel the bot has not seen (a DM not in its cache) is one where it may embed.
        if channel is None or channel_permissions(channel, self.bot).embed_links:
            try:
                await message.edit(content=None, embeds=embeds_of(table, symbols), **fields)
                return
            except discord.Forbidden:  # the permissions changed before the bot heard of it
                pass
        self.notes.note(channel, "embed_links", "goldfish tables edited as text")
        await message.edit(content=as_text_table(table, symbols), embeds=[], allowed_mentions=NO_MENTIONS, **fields)
