"""/goldfish view: the table with its picture, or text only, for a player's games or a whole server.

Like /goldfish simulate, the command is a method attached to the ``/goldfish`` group by :func:`attach_view`
and bound to the Goldfish cog (``self``). The choice is kept in the database (:mod:`bot.goldfish.display`);
the channel's table follows it at once.
"""

from __future__ import annotations

import logging
from typing import Literal

import discord
from discord import app_commands

from bot.errors import UserFacingError
from bot.goldfish import DisplayStore, is_loadable
from cogs._ui import reply

log = logging.getLogger(__name__)


class ViewCommands:
    @app_commands.command(name="view")
    @app_commands.describe(
        pictures="Show the table as a picture of the cards (on) or as text only (off); the text is always there",
        scope="Your own games (default), or every game in this server (needs Manage Server)",
    )
    async def view(
        self, interaction: discord.Interaction, pictures: bool, scope: Literal["mine", "server"] = "mine"
    ) -> None:
        """Show goldfish tables with a picture of the cards, or as text only."""
        server = scope == "server"
        if server and interaction.guild_id is None:
            await reply(interaction, "That choice is for a server; here, choose for your own games.", ephemeral=True)
            return
        if server and not interaction.permissions.manage_guild:
            await reply(interaction, "Only someone with Manage Server can choose for the whole server.", ephemeral=True)
            return
        display: DisplayStore = self.pictures.display
        try:
            if server:
                await display.set_pictures("guild", interaction.guild_id or 0, pictures)
            else:
                await display.set_pictures("user", interaction.user.id, pictures)
            record = await self.store.mine_or_shared(interaction.channel_id, interaction.user.id)
        except UserFacingError as refusal:
            await reply(interaction, str(refusal), ephemeral=True)
            return
        whose = "every goldfish table in this server" if server else "your goldfish tables"
        if pictures:
            text = f"Pictures on for {whose}: the picture follows the text table after each move."
            choices = await display.choices(interaction.guild_id, interaction.user.id)
            if not server and not choices.get("guild", True):
                text += " This server has turned pictures off, so you will see text only here."
        else:
            text = f"Text only for {whose}: no pictures."
        await reply(interaction, text, ephemeral=True)
        # The player's table here follows the choice now, if the choice is about it.
        if record is None or not is_loadable(record) or not (server or record.owner_id == interaction.user.id):
            return
        tables = self.known_tables(record)
        if not tables:
            return
        if pictures:
            self.pictures.follow(record, tables[-1])
        else:
            await self.pictures.clear(record.key, tables[-1])


def attach_view(group: app_commands.Group) -> None:
    """Add /goldfish view to the ``goldfish`` group."""
    group.add_command(ViewCommands.view)
