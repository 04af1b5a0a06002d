"""/rule on Discord: the cog, its rendering and components. May import `bot`, `cogs._*`."""

from __future__ import annotations

from discord.ext import commands

from cogs.rules._cog import Rules
from cogs.rules._render import render_pages

__all__ = ["Rules", "render_pages", "setup"]


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Rules(bot))
