"""/goldfish on Discord: commands, components, tables. May import `bot`, `cogs._*`, `cogs.decks`.

Practise cycling in a solitaire game: each player's own in a channel, beside the channel's shared one, kept in the
database. The game itself (engine, service, store, table text) lives in :mod:`bot.goldfish`; this package is the
Discord shell: commands (``_cog``), buttons and selects (``_components``), embeds and views (``_render``), where a
table is edited from (``_edits``) and input parsing (``_inputs``).
"""

from discord.ext import commands

from cogs.goldfish._cog import Goldfish


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Goldfish(bot))


__all__ = ["Goldfish", "setup"]
