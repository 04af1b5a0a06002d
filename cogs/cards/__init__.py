"""Card lookups on Discord: /card, /search, /cycling, inline, Look up cards. May import `bot`, `cogs._*`."""

from discord.ext import commands

from cogs.cards._cog import Cards


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Cards(bot))


__all__ = ["Cards", "setup"]
