"""/rule: Comprehensive Rules lookups by number, glossary term or words (the work is done in bot.rules)."""

from __future__ import annotations

import asyncio
import contextlib
import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.limits import EMBED_DESCRIPTION as EMBED_DESCRIPTION_LIMIT
from bot.rules.index import Answer, Choice, RulesIndex, clip
from bot.rules.sources import LoadedRules, downloaded_path, load_configured
from bot.text import chunk_lines
from cogs._ui import Paginator, reply

log = logging.getLogger(__name__)

EMBED_TOTAL_LIMIT = 6000
FIELD_LIMIT = 1024
SELECT_LIMIT = 25
REFRESH_INTERVAL = 7 * 24 * 3600  # weekly, once the rules have been downloaded once


def _listing(items: list[str], separator: str) -> str:
    """Join items into at most one field's worth, saying how many did not fit (never cut silently)."""
    text = ""
    for count, item in enumerate(items):
        rest = len(items) - count
        candidate = f"{text}{separator}{item}" if text else item
        if len(candidate) + len(f"{separator}… and {rest} more") > FIELD_LIMIT:
            return f"{text}{separator}… and {rest} more"
        text = candidate
    return text


def render_pages(answer: Answer) -> list[discord.Embed]:
    """The answer as embeds of at most 6,000 characters each; long answers become several pages."""
    fields: list[tuple[str, str]] = []
    if answer.references:
        fields.append(("Related rules", _listing([choice.value for choice in answer.references], ", ")))
    if answer.see_also:
        name = "See also" if answer.found else "Closest matches"
        fields.append((name, _listing([choice.name for choice in answer.see_also], "\n")))
    footer = f"Comprehensive Rules {answer.edition}"
    reserved = len(answer.title) + len(footer) + len(" · page 999/999") + sum(len(n) + len(v) for n, v in fields)
    limit = min(EMBED_DESCRIPTION_LIMIT, EMBED_TOTAL_LIMIT - reserved - 50)

    lines = []
    if answer.intro:
        lines.append(f"*{discord.utils.escape_markdown(answer.intro)}*")
    for line in answer.lines:
        text = discord.utils.escape_markdown(line.text)
        if line.example:
            lines.append(f"> *Example:* {text}")
        elif line.number:
            lines.append(f"**{line.number}** {text}")
        else:
            lines.append(text)
    colour = discord.Colour.dark_teal() if answer.found else discord.Colour.orange()
    pages = []
    for block in chunk_lines(lines, limit):
        embed = discord.Embed(title=answer.title, description=block, colour=colour)
        for name, value in fields:
            embed.add_field(name=name, value=value, inline=False)
        embed.set_footer(text=footer)
        pages.append(embed)
    return pages


class RelatedSelect(discord.ui.Select):
    def __init__(self, choices: list[Choice]) -> None:
        options = [
            discord.SelectOption(label=clip(choice.name, 100), value=choice.value[:100])
            for choice in choices[:SELECT_LIMIT]
        ]
        super().__init__(placeholder="Open a related rule…", options=options)

    async def callback(self, interaction: discord.Interaction) -> None:
        view = self.view
        assert isinstance(view, RuleView)
        await view.cog.send_answer(interaction, self.values[0], examples=view.examples, ephemeral=True)


class RuleView(Paginator):
    """Previous/Next for long answers and a menu of related rules; only the requester can use them."""

    def __init__(
        self, cog: Rules, answer: Answer, owner_id: int | None, *, examples: bool = True, timeout: float = 600
    ) -> None:
        super().__init__(render_pages(answer), owner_id, timeout=timeout)
        self.cog = cog
        self.answer = answer
        self.examples = examples
        if len(self.pages) == 1:
            self.remove_item(self.previous)
            self.remove_item(self.next)
        related = answer.related()
        if related:
            self.add_item(RelatedSelect(related))

    async def send(self, interaction: discord.Interaction, *, ephemeral: bool = False) -> None:
        view = self if self.children else discord.utils.MISSING
        await reply(interaction, embed=self.current, view=view, ephemeral=ephemeral)
        if self.children:
            self.message = await interaction.original_response()


class Rules(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.loaded: LoadedRules | None = None
        self._refresh_task: asyncio.Task | None = None

    async def cog_load(self) -> None:
        config = self.bot.config
        self.loaded = await asyncio.to_thread(load_configured, config.rules_file, config.data_dir)
        log.info("Rules ready: %s (%s, %s)", self.loaded.description(), self.loaded.origin, self.loaded.path)
        if config.rules_file is None and downloaded_path(config.data_dir).is_file():
            self._refresh_task = asyncio.create_task(self._refresh_weekly(), name="rules-refresh")

    async def cog_unload(self) -> None:
        if self._refresh_task is not None:
            self._refresh_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._refresh_task

    async def _refresh_weekly(self) -> None:
        from bot.rules.updater import UpdateError, update_rules

        config = self.bot.config
        while True:
            await asyncio.sleep(REFRESH_INTERVAL)
            try:
                result = await asyncio.to_thread(update_rules, config.data_dir, config.rules_url)
                index = await asyncio.to_thread(RulesIndex, result.document)
            except UpdateError as error:
                log.warning("Weekly rules refresh failed; keeping the current text: %s", error)
                continue
            except Exception:
                log.exception("Weekly rules refresh failed unexpectedly; keeping the current text")
                continue
            self.loaded = LoadedRules(index, result.path, "downloaded")
            log.info("Weekly rules refresh: now %s", self.loaded.description())

    @property
    def index(self) -> RulesIndex:
        if self.loaded is None:
            raise RuntimeError("the rules are not loaded yet")
        return self.loaded.index

    def edition_description(self) -> str:
        """The rules edition in use, for /about."""
        return self.loaded.description() if self.loaded else "not loaded"

    async def send_answer(
        self, interaction: discord.Interaction, query: str, *, examples: bool, ephemeral: bool = False
    ) -> None:
        answer = self.index.lookup(query, examples=examples)
        view = RuleView(self, answer, interaction.user.id, examples=examples)
        await view.send(interaction, ephemeral=ephemeral or not answer.found)

    @app_commands.command(name="rule")
    @app_commands.describe(
        query="A rule number (702.29, 704.5k, 702), a glossary term (cycling) or a few words",
        examples="Show the examples under each rule (default: yes)",
    )
    async def rule(
        self,
        interaction: discord.Interaction,
        query: app_commands.Range[str, 1, 6000],
        examples: bool = True,
    ) -> None:
        """Look up the Magic Comprehensive Rules by number, glossary term or words."""
        await self.send_answer(interaction, query, examples=examples)

    @rule.autocomplete("query")
    async def rule_query_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        if self.loaded is None:
            return []
        return [
            app_commands.Choice(name=clip(choice.name, 100), value=choice.value[:100])
            for choice in self.index.autocomplete(current)[:SELECT_LIMIT]
        ]


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Rules(bot))
