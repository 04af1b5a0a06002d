"""A test-only extension with the interaction shapes the wire tests need: a button, a defer, pages, a counter
whose button id changes on every press, and a command that takes a while."""

import asyncio

import discord
from discord import app_commands
from discord.ext import commands

from cogs._ui import GuardedView, Paginator, reply

CYCLE_BUTTON_ID = "wire:cycle"
LINGER_SECONDS = 1.5


class CountButton(discord.ui.DynamicItem[discord.ui.Button], template=r"wire:count:(?P<n>\d+)"):
    """Like a game's buttons: the id carries the state it was drawn for, so each press redraws a new id."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"Count {n}", custom_id=f"wire:count:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(CountButton(self.n + 1))
        await interaction.response.edit_message(content=f"Counted {self.n + 1}", view=view)


class CycleView(GuardedView):
    """A persistent view: its button keeps working after a restart because its custom_id is fixed."""

    def __init__(self) -> None:
        super().__init__(owner_id=None, timeout=None)

    @discord.ui.button(label="Cycle", style=discord.ButtonStyle.primary, custom_id=CYCLE_BUTTON_ID)
    async def cycle(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.edit_message(content=f"Cycled by {interaction.user.name}", view=self)


class Wire(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_view(CycleView())
        self.bot.add_dynamic_items(CountButton)

    @app_commands.command(name="cycle")
    async def cycle(self, interaction: discord.Interaction) -> None:
        """Shows a persistent button."""
        await reply(interaction, "Press to cycle", view=CycleView())

    @app_commands.command(name="slow")
    async def slow(self, interaction: discord.Interaction) -> None:
        """Defers, then answers with a follow-up."""
        await interaction.response.defer(thinking=True)
        await reply(interaction, "Done thinking")

    @app_commands.command(name="count")
    async def count(self, interaction: discord.Interaction) -> None:
        """Shows a counter button."""
        view = discord.ui.View(timeout=None)
        view.add_item(CountButton(0))
        await reply(interaction, "Counted 0", view=view)

    @app_commands.command(name="linger")
    async def linger(self, interaction: discord.Interaction, seconds: float = LINGER_SECONDS) -> None:
        """Defers, works for a while, then answers."""
        await interaction.response.defer(thinking=True)
        await asyncio.sleep(seconds)
        await reply(interaction, "Done lingering")

    @app_commands.command(name="pages")
    async def pages(self, interaction: discord.Interaction) -> None:
        """Three pages only the requester can turn."""
        embeds = [discord.Embed(title=f"Page {n}") for n in (1, 2, 3)]
        await Paginator(embeds, owner_id=interaction.user.id).send(interaction)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Wire(bot))
