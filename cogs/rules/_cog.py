"""/rule: Comprehensive Rules lookups by number, glossary term or question (the answering is done in bot.rules).

The cog reads the interaction, asks the rules service (``bot.rules``) and sends the pages: a number or a term
is answered at once; a question that may name cards, a rule's history and what changed wait on a pool or on
files, so they acknowledge first ("thinking…" in the channel). A miss is shown only to whoever asked.
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.cards.questions import QuestionCards
from bot.rules.answer import Answer, clip
from bot.rules.history_text import is_history_query
from bot.rules.index import RulesIndex
from bot.rules.service import RulesService
from bot.rules.sources import LoadedRules
from cogs._ui import defer_public, reply, reply_private
from cogs.rules._components import SELECT_LIMIT, PageButton, RelatedSelect, answer_key, answer_view
from cogs.rules._render import render_pages

log = logging.getLogger(__name__)


class Rules(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        if self.bot.rules.loaded is None:
            raise RuntimeError("the Comprehensive Rules could not be loaded (see the log)")
        self.bot.add_dynamic_items(PageButton, RelatedSelect)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(PageButton, RelatedSelect)

    @property
    def service(self) -> RulesService:
        return self.bot.rules

    @property
    def loaded(self) -> LoadedRules | None:
        return self.service.loaded

    @property
    def index(self) -> RulesIndex:
        return self.service.index

    def cards(self) -> QuestionCards:
        """The card finder for questions that name cards (it finds nothing while no card data is loaded)."""
        return QuestionCards(getattr(self.bot, "card_data", None))

    # ------------------------------------------------------------------ sending

    async def send(
        self,
        interaction: discord.Interaction,
        key: str,
        answer: Answer,
        page: int,
        *,
        examples: bool,
        ephemeral: bool = False,
    ) -> None:
        """A page of ``answer`` as a new message: public (or ``ephemeral``) when it answers, private when not."""
        pages = render_pages(answer)
        page = max(0, min(page, len(pages) - 1))
        private = ephemeral or not answer.found
        view = answer_view(
            answer, key, page, len(pages), owner=interaction.user.id, examples=examples, ephemeral=private
        )
        if not answer.found:
            await reply_private(interaction, embed=pages[page], view=view or discord.utils.MISSING)
        else:
            await reply(interaction, embed=pages[page], view=view or discord.utils.MISSING, ephemeral=ephemeral)

    async def send_key(
        self, interaction: discord.Interaction, key: str, page: int, *, examples: bool, ephemeral: bool
    ) -> None:
        """The answer to ``key`` (a component's query) as a new message, acknowledged first if it may wait."""
        cards = self.cards()
        if self.service.waits(key, cards):
            if ephemeral:
                await interaction.response.defer(ephemeral=True, thinking=True)
            else:
                await defer_public(interaction)
        answer = await self.service.answer(key, examples=examples, cards=cards)
        await self.send(interaction, key, answer, page, examples=examples, ephemeral=ephemeral)

    async def edit_key(
        self, interaction: discord.Interaction, key: str, page: int, *, owner: int, examples: bool
    ) -> None:
        """Turn the message under a button to ``page`` of the answer to ``key``."""
        cards = self.cards()
        if self.service.waits(key, cards):
            await interaction.response.defer()
        answer = await self.service.answer(key, examples=examples, cards=cards)
        pages = render_pages(answer)
        page = max(0, min(page, len(pages) - 1))
        private = interaction.message is not None and interaction.message.flags.ephemeral
        view = answer_view(answer, key, page, len(pages), owner=owner, examples=examples, ephemeral=private)
        if interaction.response.is_done():
            await interaction.edit_original_response(embed=pages[page], view=view)
        else:
            await interaction.response.edit_message(embed=pages[page], view=view)

    # ------------------------------------------------------------------ the command

    @app_commands.command(name="rule")
    @app_commands.describe(
        query="A rule number (702.29, 704.5k, 702), a term (cycling), a question, or “changes”",
        examples="Show the examples under each rule (default: yes)",
        history="Follow the rule through every edition kept: its numbers, and each addition, removal and rewording",
    )
    async def rule(
        self,
        interaction: discord.Interaction,
        query: app_commands.Range[str, 1, 6000],
        examples: bool = True,
        history: bool = False,
    ) -> None:
        """Look up the Magic Comprehensive Rules by number, glossary term or question."""
        if history and not is_history_query(query):
            query = f"history {query}"
        cards = self.cards()
        if self.service.waits(query, cards):
            await defer_public(interaction)  # card data, or the editions, are read first
        answer = await self.service.answer(query, examples=examples, cards=cards)
        await self.send(interaction, answer_key(query, answer), answer, 0, examples=examples)

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
