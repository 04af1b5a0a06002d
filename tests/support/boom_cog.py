"""A test-only extension whose commands fail in the ways real commands can."""

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import UserFacingError
from bot.text.lines import chunk_lines
from cogs._ui import Paginator, defer_public, guarded, reply, reply_private


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

    @app_commands.command(name="lookup")
    async def lookup(self, interaction: discord.Interaction, found: bool) -> None:
        """Defers publicly for a pool's work, then answers the table or, on a miss, only the asker."""
        await defer_public(interaction)
        if found:
            await reply(interaction, "Found it.")
        else:
            await reply_private(interaction, "Nothing by that name.")

    @app_commands.command(name="echo")
    async def echo(self, interaction: discord.Interaction, text: str) -> None:
        """Echoes the text (used to prove nobody is pinged)."""
        await reply(interaction, text)


class BoomButton(discord.ui.DynamicItem[discord.ui.Button], template=r"boom:(?P<n>\d+)"):
    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"Boom {n}", custom_id=f"boom:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["n"]))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        if self.n == 0:
            raise UserFacingError("That button is out of order.")
        if self.n == 2:
            # Long work defers first: the error must still reach the user afterwards.
            await interaction.response.defer()
            raise UserFacingError("That took too long and still failed.")
        raise RuntimeError("dynamic kaboom")


class Pages(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(BoomButton)

    @app_commands.command(name="pages")
    async def pages(self, interaction: discord.Interaction, count: int) -> None:
        """Shows a number of pages."""
        lines = [f"line {i}" for i in range(count * 10)]
        blocks = chunk_lines(lines, limit=70)
        await Paginator([discord.Embed(description=b) for b in blocks], interaction.user.id).send(interaction)

    @app_commands.command(name="buttons")
    async def buttons(self, interaction: discord.Interaction) -> None:
        """Shows failing persistent buttons."""
        view = discord.ui.View(timeout=None)
        view.add_item(BoomButton(0))
        view.add_item(BoomButton(1))
        view.add_item(BoomButton(2))
        await reply(interaction, "buttons", view=view)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Boom())
    await bot.add_cog(Pages(bot))
