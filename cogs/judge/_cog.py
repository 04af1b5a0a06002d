"""/mtr and /ipg: the Magic Tournament Rules and the Infraction Procedure Guide by section, name or words.

The cog reads the interaction, asks the judges' documents (``bot.judge``, owned by the bot) and sends the pages. A
lookup is answered at once from memory; a section's history reads the versions kept, so it acknowledges first.
The two commands differ only in their document, so one function makes both.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot import limits
from bot.rules import clip
from cogs.judge._components import OpenSelect, PageButton, documents_of, send

HISTORY_HELP = "What changed in the section between the versions the bot keeps"


def document_command(key: str, description: str, query_help: str) -> app_commands.Command:
    """``/key query: history:``, with its autocomplete, as a command of :class:`JudgeDocuments`."""

    async def look_up(
        cog: JudgeDocuments,
        interaction: discord.Interaction,
        query: app_commands.Range[str, 1, 600],
        history: bool = False,
    ) -> None:
        docs = documents_of(interaction)
        if history and not docs.waits(query):  # "history 3.8" and "3.8 history" ask it already
            query = f"history {query}"
        await send(interaction, key, query, 0, ephemeral=False)

    # discord.py binds the cog to a callback it takes for a method: one named as if written in the class.
    look_up.__qualname__ = f"JudgeDocuments.{key}"
    command = app_commands.command(name=key, description=description)(look_up)
    app_commands.describe(query=query_help, history=HISTORY_HELP)(command)

    async def offer(
        cog: JudgeDocuments, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        docs = getattr(interaction.client, "judge_docs", None)
        found = docs.autocomplete(key, current[:100])[: limits.AUTOCOMPLETE_CHOICES] if docs is not None else []
        return [app_commands.Choice(name=clip(name, 100), value=value[:100]) for name, value in found]

    offer.__qualname__ = f"JudgeDocuments.{key}_autocomplete"
    command.autocomplete("query")(offer)
    return command


class JudgeDocuments(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(PageButton, OpenSelect)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(PageButton, OpenSelect)

    mtr = document_command(
        "mtr",
        "Look up the Magic Tournament Rules by section, title or words.",
        "A section (3.8, 2.11, appendix b), its title, or words (how long between games)",
    )
    ipg = document_command(
        "ipg",
        "Look up the Infraction Procedure Guide: an infraction's penalty, definition and remedy.",
        "An infraction by number (2.2), name or short name (hce, grv, usc minor), or words",
    )
