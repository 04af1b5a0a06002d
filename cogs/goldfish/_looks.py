"""/goldfish status, hand and log: looks at a game, which change nothing.

Like /goldfish view, the commands are methods attached to the ``/goldfish`` group by :func:`attach_looks` and bound
to the Goldfish cog (``self``). A look shows the caller's own game, or the channel's shared one; else the game played
last in the channel, someone else's, to the caller alone (never a public copy of another player's table).
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.errors import UserFacingError
from bot.goldfish import game_of
from cogs._symbols import symbols_for, with_symbols
from cogs._ui import Paginator, reply
from cogs.goldfish._render import game_embed, hand_embed, log_pages


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
        said = f"That is <@{record.owner_id}>'s game; start your own with `/goldfish start`."
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
