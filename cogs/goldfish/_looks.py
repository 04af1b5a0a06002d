"""/goldfish status, hand and log: looks at a game, which change nothing.

Like /goldfish view, the commands are methods attached to the ``/goldfish`` group by :func:`attach_looks` and bound
to the Goldfish cog (``self``). A look shows the caller's own game, or the channel's shared one; else the game played
last in the channel, someone else's, to the caller alone (never a public copy of another player's table).
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot import limits
from bot.errors import UserFacingError
from bot.goldfish import StoredGame, game_of
from bot.text import fit_lines
from cogs._symbols import symbols_for, with_symbols
from cogs._ui import Paginator, reply
from cogs.goldfish._render import game_embed, hand_embed, log_pages
from cogs.goldfish._table import jump_url

START_YOUR_OWN = "start your own with `/goldfish start`."


def others_text(interaction: discord.Interaction, shown: StoredGame, games: list[StoredGame], tables: dict) -> str:
    """Whose the games in the channel are, to a player with none of their own: the one shown, and each other one with
    a link to its table (the caller's, so nobody is pinged)."""
    if len(games) <= 1:
        return f"That is <@{shown.owner_id}>'s game; {START_YOUR_OWN}"
    lines = [f"There are {len(games)} games here, none of them yours; {START_YOUR_OWN}"]
    lines.append(f"• <@{shown.owner_id}>'s, below")
    for record in games:
        if record.key == shown.key:
            continue
        known = tables.get(record.key) or record.tables
        lines.append(f"• <@{record.owner_id}>'s" + (f": {jump_url(interaction, known[-1])}" if known else ""))
    return fit_lines(lines, limits.MESSAGE_CONTENT)


class LookCommands:
    @app_commands.command(name="status")
    async def status(self, interaction: discord.Interaction) -> None:
        """Post your game's message again, with its buttons (another player's game: shown to you alone)."""
        try:
            record, mine = await self.service.viewed(interaction.channel_id, interaction.user.id)
            game_of(record)
        except UserFacingError as refusal:
            await reply(interaction, str(refusal), ephemeral=True)
            return
        if mine:
            await self.post_table(interaction, record)
            return
        try:
            games = await self.store.in_channel(interaction.channel_id)
        except UserFacingError:
            games = [record]
        said = others_text(interaction, record, games, self.tables)
        await reply(interaction, said, embed=game_embed(record, symbols=symbols_for(interaction)), ephemeral=True)

    @app_commands.command(name="hand")
    async def hand(self, interaction: discord.Interaction) -> None:
        """Your hand, with each cycling cost and what it would search for (only you see it)."""
        try:
            record, _ = await self.service.viewed(interaction.channel_id, interaction.user.id)
            embed = hand_embed(game_of(record), symbols_for(interaction))
        except UserFacingError as refusal:
            await reply(interaction, str(refusal), ephemeral=True)
            return
        await reply(interaction, embed=embed, ephemeral=True)

    @app_commands.command(name="log")
    async def log(self, interaction: discord.Interaction) -> None:
        """The whole game log, page by page (only you see it)."""
        try:
            record, _ = await self.service.viewed(interaction.channel_id, interaction.user.id)
            game = game_of(record)
        except UserFacingError as refusal:
            await reply(interaction, str(refusal), ephemeral=True)
            return
        symbols = symbols_for(interaction)  # "Paid {U}" reads as on the table's "What happened"
        pages = [with_symbols(page, symbols) for page in log_pages(game, shared=record.shared)]
        await Paginator(pages, interaction.user.id).send(interaction, ephemeral=True)


def attach_looks(group: app_commands.Group) -> None:
    """Add /goldfish status, hand and log to the ``goldfish`` group."""
    for command in (LookCommands.status, LookCommands.hand, LookCommands.log):
        group.add_command(command)
