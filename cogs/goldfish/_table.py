"""One table a game: the public message every action edits in place, and its older copies. A channel may hold
several games (a player's own, the shared one), each with its own table.

The table's message id is remembered in memory and saved with the game's state on its next write,
so it survives a restart. Slash commands edit the table and answer the player privately; the table
is posted again only when there is none or it was deleted. When a game ends or is replaced, its
older copies lose their controls; so does a copy as soon as newer ones push it out of the few remembered,
so no copy keeps live controls. The table's picture follows each change (:mod:`cogs.goldfish._picture`).
"""

from __future__ import annotations

import contextlib
import functools
import logging

import discord

from bot.errors import UserFacingError
from bot.goldfish import TABLE_COPIES, GameKey, GameService, StoredGame, is_loadable
from bot.goldfish.engine import IllegalAction
from bot.text import plural
from cogs._permissions import NotHere, bot_can_post
from cogs._symbols import symbols_for
from cogs._ui import NO_MENTIONS, reply
from cogs.goldfish._edits import TableEdits
from cogs.goldfish._picture import TablePictures
from cogs.goldfish._render import game_embed, game_view

log = logging.getLogger(__name__)

# The commands that need no table: they work wherever the app does (a group chat, a server that never added it).
NO_TABLE = frozenset({"odds", "simulate", "show", "forget", "view"})
NOT_HERE = (
    "Goldfish games need a channel I can post in: a server that added me, or a DM with me "
    "(`/goldfish odds` and `/goldfish simulate` work here too)."
)
POSTED_AGAIN = "The table was gone, so here it is again, just below."


def check_table_possible(interaction: discord.Interaction) -> None:
    """A table is a message the bot posts and edits with its own token: where it can't (a group chat, a server
    where only the player added the app), a command that needs one says privately where games work."""
    command = interaction.command
    if command is not None and command.name not in NO_TABLE and not bot_can_post(interaction):
        raise NotHere(NOT_HERE)


def jump_url(interaction: discord.Interaction, message_id: int) -> str:
    where = interaction.guild_id or "@me"  # a DM's messages live under @me
    return f"https://discord.com/channels/{where}/{interaction.channel_id}/{message_id}"


class Tables:
    """Where each game's table is; needs ``bot``."""

    bot: discord.Client
    service: GameService
    tables: dict[GameKey, list[int]]
    pictures: TablePictures
    unsaved: set[GameKey]

    @functools.cached_property
    def edits(self) -> TableEdits:
        """Where each table is edited from (its interaction while the token lasts, else the channel)."""
        return TableEdits(self.bot)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """The cog's check before each of its commands: one that needs a table says where games work, where the
        bot can't post one."""
        check_table_possible(interaction)
        return True

    async def save_tables(self) -> None:
        """Save the table lists that changed since the games' last writes (tables posted again), when the bot
        stops: after a restart every copy is known and loses its controls when its game ends. Saved here rather
        than when posted, because /goldfish status is a read-only view that never waits for a writer."""
        for key in list(self.unsaved):
            self.unsaved.discard(key)
            try:
                record = await self.service.store.load(key)
                if record is not None and key in self.tables:
                    await self.service.keep_tables(record, self.tables[key])
            except UserFacingError as error:
                log.warning("Could not save the table messages of a game in channel %s: %s", key.channel_id, error)

    def known_tables(self, record: StoredGame) -> list[int]:
        known = self.tables.get(record.key)
        if known is None:
            known = self.tables[record.key] = record.tables
        return known

    def remember(self, key: GameKey, message_id: int, *, fresh: bool = False) -> list[int]:
        """``message_id`` is the game's table now; returns the older copies no longer remembered."""
        tables = [] if fresh else [t for t in self.tables.get(key, []) if t != message_id]
        tables.append(message_id)
        self.tables[key] = tables[-TABLE_COPIES:]
        return tables[:-TABLE_COPIES]

    def partial(self, channel_id: int, message_id: int) -> discord.PartialMessage:
        return self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)  # type: ignore[attr-defined]

    async def strip(self, channel_id: int, message_ids: list[int]) -> None:
        """Remove the controls from a game's older messages (a deleted one is simply skipped)."""
        for message_id in message_ids:
            with contextlib.suppress(discord.HTTPException):
                await self.partial(channel_id, message_id).edit(view=None)

    async def check_table(self, interaction: discord.Interaction, key: GameKey) -> None:
        """Refuse a click by someone who doesn't play the game, whichever copy they pressed; and a player's click on
        an older copy of the game's table, pointing at the latest one."""
        self.service.check_seat(key.player_id, interaction.user.id)
        tables = self.tables.get(key)
        if tables is None:
            record = await self.service.peek(key)
            tables = self.known_tables(record)
        clicked = interaction.message.id if interaction.message else None
        if clicked is None or not tables or clicked == tables[-1]:
            return
        if clicked not in tables:
            # A table this process never saw (say, posted before a restart and never saved): it is the table now.
            self.remember(key, clicked)
            return
        raise IllegalAction(
            "This is an old copy of the table, so nothing happened; use the latest one: "
            f"{jump_url(interaction, tables[-1])}"
        )

    async def post_table(
        self,
        interaction: discord.Interaction,
        record: StoredGame,
        *,
        mode=None,
        note=None,
        deferred: bool = False,
        said: str | None = None,
    ) -> None:
        """A new public table (start, status, or when the table is gone); older copies keep their place. It is the
        interaction's answer or follow-up (never a message of the bot's own), so it needs no permission in the channel,
        and the interaction edits it while its token lasts.

        ``deferred``: the command was acknowledged privately, so the acknowledgement becomes the private note (``said``
        first: what the move did) and the table follows it, in public.
        """
        footnote = await self.pictures.footnote(interaction, record)
        embed = game_embed(record, note=note, symbols=symbols_for(interaction), footnote=footnote)
        view = game_view(record, mode=mode)
        if deferred:
            await reply(interaction, f"{said}\n{POSTED_AGAIN}" if said else POSTED_AGAIN, ephemeral=True)
        if interaction.response.is_done():
            message = await interaction.followup.send(embed=embed, view=view, allowed_mentions=NO_MENTIONS, wait=True)
            self.edits.posted(message.id, interaction, original=False)
        else:
            await interaction.response.send_message(embed=embed, view=view, allowed_mentions=NO_MENTIONS)
            message = await interaction.original_response()
            self.edits.posted(message.id, interaction, original=True)
        await self.posted(record, message)

    async def post_in(self, channel: discord.abc.Messageable, record: StoredGame) -> None:
        """A new game's table, sent to ``channel`` (its own thread) rather than as an interaction's answer."""
        message = await self.edits.send(channel, functools.partial(game_embed, record), view=game_view(record))
        await self.posted(record, message)

    async def posted(self, record: StoredGame, message: discord.Message) -> None:
        """``message`` is the game's table now: followed by its picture, saved with the game."""
        forgotten = self.remember(record.key, message.id)
        self.pictures.follow(record, message.id)
        self.unsaved.add(record.key)  # saved with the game's next write, or when the bot stops
        # A copy pushed out of the remembered few would keep live controls nobody strips later.
        await self.strip(record.channel_id, forgotten)

    async def update_table(
        self, interaction: discord.Interaction, record: StoredGame, *, mode=None, note=None, said: str | None = None
    ) -> None:
        """A slash command's answer: the table edited in place, and privately ``said`` (what the move did and where
        the game is now, or what the table asks for) with a link to the table; a new table if it's gone."""
        tables = self.known_tables(record)
        if tables:
            footnote = await self.pictures.footnote(interaction, record)
            table = functools.partial(game_embed, record, note=note, footnote=footnote)
            try:
                await self.edits.edit(record.channel_id, tables[-1], table, view=game_view(record, mode=mode))
            except discord.NotFound:
                log.info("Goldfish table in channel %s was deleted; posting it again", record.channel_id)
            else:
                done = said or ("The table is updated" if mode is None else "The table asks for your choice")
                await reply(interaction, f"{done}\n{jump_url(interaction, tables[-1])}", ephemeral=True)
                self.pictures.follow(record, tables[-1])
                await self.after_update(record)
                return
        deferred = interaction.response.is_done()
        await self.post_table(interaction, record, mode=mode, note=note, deferred=deferred, said=said)
        await self.after_update(record)

    async def after_update(self, record: StoredGame) -> None:
        """A game that just ended keeps its controls (New game, Replay) on the latest table only."""
        if record.game.phase == "over":
            tables = self.known_tables(record)
            await self.strip(record.channel_id, tables[:-1])
            self.tables[record.key] = tables[-1:]
            await self.game_over(record, tables[-1] if tables else None)

    async def replaced(self, interaction: discord.Interaction, record: StoredGame, old: StoredGame | None) -> None:
        """A new game's table; the game it replaced loses the controls on all its messages."""
        tables = self.tables.pop(record.key, None) or (old.tables if old else [])
        await self.post_table(interaction, record)
        await self.strip(record.channel_id, tables)

    async def ended(self, interaction: discord.Interaction, record: StoredGame) -> None:
        """/goldfish end: the game's messages lose their controls, and the channel hears how it went."""
        tables = self.tables.pop(record.key, None) or record.tables
        await self.strip(record.channel_id, tables)
        if not is_loadable(record):
            await reply(interaction, f"Ended the goldfish game that could not be loaded ({interaction.user.mention}).")
            return
        game = record.game
        cycled = game.stats.get("cards_cycled", 0)
        # A channel may hold several games: say whose ended when it was not the ender's own.
        if record.shared:
            whose = "The shared goldfish game"
        elif record.owner_id != interaction.user.id:
            whose = f"<@{record.owner_id}>'s goldfish game"
        else:
            whose = "Goldfish game"
        await reply(
            interaction,
            f"{whose} ended by {interaction.user.mention} after {plural(game.turn, 'turn')}: "
            f"{plural(cycled, 'card')} cycled, opponent at {game.opponent.life} life.",
        )
        if game.phase != "over":  # a game that ended by itself was reviewed then
            await self.game_over(record, tables[-1] if tables else None)
