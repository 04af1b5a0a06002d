"""A test-only extension whose commands fail in the ways real commands can."""

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import UserFacingError
from bot.ui import reply


class Boom(commands.Cog):
    @app_commands.command(name="boom")
    async def boom(self, interaction: discord.Interaction) -> None:
        """Fails unexpectedly."""
        raise RuntimeError("kaboom")

    @app_commands.command(name="refuse")
    async def refuse(self, interaction: discord.Interaction) -> None:
        """Fails with a message for the user."""
        raise UserFacingError("No such card: @everyone")

    @app_commands.command(name="slowboom")
    async def slowboom(self, interaction: discord.Interaction) -> None:
        """Defers, then fails."""
        await interaction.response.defer(thinking=True)
        raise RuntimeError("late kaboom")

    @app_commands.command(name="echo")
    async def echo(self, interaction: discord.Interaction, text: str) -> None:
        """Echoes the text (used to prove nobody is pinged)."""
        await reply(interaction, text)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Boom())
