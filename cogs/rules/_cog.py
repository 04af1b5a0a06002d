"""/rule: Comprehensive Rules lookups by number, glossary term or question (the answering is done in bot.rules).

The cog reads the interaction, asks the rules service (``bot.rules``) and sends the pages: a number or a term
is answered at once; a question that may name cards, a rule's history and what changed wait on a pool or on
files, so they are deferred if not answered within a second ("thinking…" in the channel, ``in_time``), as is at
once a question an operator's language model reorders (``RULES_LLM_URL``). A miss is shown only to whoever asked.
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.rules import LoadedRules, RulesIndex, RulesService, clip, is_history_query
from cogs._ui import acknowledge_now, in_time
from cogs.rules._components import SELECT_LIMIT, PageButton, RelatedSelect, answer_key, question_cards, send

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
        cards = question_cards(self.bot)
        # A number, a term or a question the lexical ranker answers is answered at once; card data or the editions
        # read first may take longer: deferred then, publicly (an answer helps the table; a miss is private).
        async with in_time(interaction, public=True):
            answer = await self.service.answer(query, examples=examples, cards=cards)
            if self.service.wants_pick(answer):
                # The operator's model reorders the lexical answer: "thinking…" in the channel at once while it
                # reads. A miss never gets here: it goes privately at once.
                await acknowledge_now(interaction)
                answer = await self.service.ask_model(
                    answer, self.bot.admission, interaction.user.id, interaction.guild_id, examples=examples
                )
            await send(interaction, answer_key(query, answer), answer, 0, examples=examples)

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
