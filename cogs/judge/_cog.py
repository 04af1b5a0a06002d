"""/mtr and /ipg: the Magic Tournament Rules and the Infraction Procedure Guide by section, name or words.

The cog reads the interaction, asks the judges' documents (``bot.judge``, owned by the bot) and sends the pages. A
lookup is answered at once from memory; a section's history reads the versions kept, so it acknowledges first.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot import limits
from bot.rules import clip
from cogs.judge._components import OpenSelect, PageButton, documents_of, send


def _choices(interaction: discord.Interaction, doc: str, current: str) -> list[app_commands.Choice[str]]:
    docs = getattr(interaction.client, "judge_docs", None)
    if docs is None:
        return []
    found = docs.autocomplete(doc, current[:100])[: limits.AUTOCOMPLETE_CHOICES]
    return [app_commands.Choice(name=clip(name, 100), value=value[:100]) for name, value in found]


async def _ask(interaction: discord.Interaction, doc: str, query: str, history: bool) -> None:
    documents_of(interaction)
    if history and not query.lower().startswith("history"):
        query = f"history {query}"
    await send(interaction, doc, query, 0, ephemeral=False)


class JudgeDocuments(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(PageButton, OpenSelect)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(PageButton, OpenSelect)

    @app_commands.command(name="mtr")
    @app_commands.describe(
        query="A section (3.8, 2.11, appendix b), its title, or words (how long between games)",
        history="What changed in the section between the versions the bot keeps",
    )
    async def mtr(
        self, interaction: discord.Interaction, query: app_commands.Range[str, 1, 600], history: bool = False
    ) -> None:
        """Look up the Magic Tournament Rules by section, title or words."""
        await _ask(interaction, "mtr", query, history)

    @app_commands.command(name="ipg")
    @app_commands.describe(
        query="An infraction by number (2.2), name or short name (hce, grv, usc minor), or words",
        history="What changed in the section between the versions the bot keeps",
    )
    async def ipg(
        self, interaction: discord.Interaction, query: app_commands.Range[str, 1, 600], history: bool = False
    ) -> None:
        """Look up the Infraction Procedure Guide: an infraction's penalty, definition and remedy."""
        await _ask(interaction, "ipg", query, history)

    @mtr.autocomplete("query")
    async def mtr_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return _choices(interaction, "mtr", current)

    @ipg.autocomplete("query")
    async def ipg_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return _choices(interaction, "ipg", current)
