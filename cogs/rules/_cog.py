"""/rule: Comprehensive Rules lookups by number, glossary term or question (the work is done in bot.rules)."""

from __future__ import annotations

import asyncio
import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.cards.questions import answer_about_cards
from bot.rules.answer import Answer, Line, clip
from bot.rules.diff import EditionDiff, diff_documents, is_changes_query
from bot.rules.document import RulesFormatError, load_document
from bot.rules.history_text import (
    history_for,
    history_subject,
    is_history_query,
    number_from_answer,
    parse_history_query,
)
from bot.rules.index import RulesIndex
from bot.rules.numbers import find_numbers
from bot.rules.service import RulesService
from bot.rules.sources import LoadedRules, previous_path
from cogs._ui import reply
from cogs.rules._components import SELECT_LIMIT, PageButton, RelatedSelect, answer_key, answer_view
from cogs.rules._render import render_pages

log = logging.getLogger(__name__)


class Rules(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self._diff: tuple[tuple[float, int], EditionDiff] | None = None

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

    # ------------------------------------------------------------------ answers

    async def answer_for(self, query: str, *, examples: bool) -> Answer:
        if is_changes_query(query):
            return await self.changes_answer(query)
        if is_history_query(query):
            return await self.history_answer(query)
        index = self.index
        about_cards = await answer_about_cards(index, getattr(self.bot, "card_data", None), query)
        return about_cards if about_cards is not None else index.lookup(query, examples=examples)

    async def history_answer(self, query: str) -> Answer:
        """A rule's history across the editions kept ("history 702.29", "history of cycling", "… in 2009")."""
        number, edition = parse_history_query(query)
        if number is None and self.loaded is not None:
            number = number_from_answer(self.index.lookup(history_subject(query)))
        service = self.service
        return await asyncio.to_thread(history_for, service.histories, service.edition_paths(), number, edition)

    async def changes_answer(self, query: str) -> Answer:
        """What the latest update changed, or one rule's old and new text ("changes 702.29")."""
        edition = self.index.edition
        diff = await self._edition_diff()
        if diff is None:
            lines = [
                Line("No earlier edition is kept yet to compare with."),
                Line(
                    "When the bot updates its downloaded rules to a new edition, it keeps the previous one, "
                    "and this lists what changed. From a terminal, `python -m bot rules diff OLD_FILE NEW_FILE` "
                    "compares any two rules files."
                ),
            ]
            return Answer(False, "changes", "Rules changes", lines, edition)
        numbers = find_numbers(query)
        if numbers:
            number = numbers[0].start
            return Answer(
                True,
                "changes",
                clip(f"{diff.title} · {number}", 256),
                [Line(t) for t in diff.rule_lines(number)],
                edition,
            )
        return Answer(True, "changes", diff.title, [Line(text) for text in diff.summary_lines()], edition)

    async def _edition_diff(self) -> EditionDiff | None:
        loaded = self.loaded
        previous = previous_path(self.bot.config.data_dir)
        if loaded is None or loaded.origin != "downloaded" or not previous.is_file():
            return None
        stamp = (previous.stat().st_mtime, id(loaded))
        if self._diff is not None and self._diff[0] == stamp:
            return self._diff[1]
        try:
            old = await asyncio.to_thread(load_document, previous)
        except (OSError, RulesFormatError) as error:
            log.warning("The kept previous rules edition is unreadable (%s): %s", previous, error)
            return None
        diff = await asyncio.to_thread(diff_documents, old, loaded.index.document)
        self._diff = (stamp, diff)
        return diff

    # ------------------------------------------------------------------ sending

    async def send_page(
        self, interaction: discord.Interaction, key: str, answer: Answer, page: int, *, examples: bool, ephemeral: bool
    ) -> None:
        pages = render_pages(answer)
        page = max(0, min(page, len(pages) - 1))
        view = answer_view(
            answer, key, page, len(pages), owner=interaction.user.id, examples=examples, ephemeral=ephemeral
        )
        await reply(interaction, embed=pages[page], view=view or discord.utils.MISSING, ephemeral=ephemeral)

    async def edit_page(
        self, interaction: discord.Interaction, key: str, answer: Answer, page: int, *, owner: int, examples: bool
    ) -> None:
        pages = render_pages(answer)
        page = max(0, min(page, len(pages) - 1))
        private = interaction.message is not None and interaction.message.flags.ephemeral
        view = answer_view(answer, key, page, len(pages), owner=owner, examples=examples, ephemeral=private)
        await interaction.response.edit_message(embed=pages[page], view=view)

    async def send_answer(
        self, interaction: discord.Interaction, query: str, *, examples: bool, ephemeral: bool = False
    ) -> None:
        answer = await self.answer_for(query, examples=examples)
        key = answer_key(query, answer)
        await self.send_page(interaction, key, answer, 0, examples=examples, ephemeral=ephemeral or not answer.found)

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
        if is_history_query(query) and not self.service.histories.is_current(self.service.edition_paths()):
            await interaction.response.defer(thinking=True)  # the editions are read and aligned first
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
