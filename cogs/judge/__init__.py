"""/mtr and /ipg on Discord. May import `bot`, `cogs._*`, `cogs.rules`.

The answering is done in bot.judge; the private modules are the cog and its buttons.
"""

from __future__ import annotations

from discord.ext import commands

from cogs.judge._cog import JudgeDocuments

__all__ = ["JudgeDocuments", "setup"]


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(JudgeDocuments(bot))
