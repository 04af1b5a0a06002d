"""/card, /search, /cycling and the listener for inline [[card]] lookups (answered in cogs.cards._inline): a thin
shell over the bot's card source (local copy first, Scryfall's API as the fallback) and bot.cards."""

from __future__ import annotations

import contextlib
import logging
import math
import re

import discord
from discord import app_commands
from discord.ext import commands

from bot import limits
from bot.carddb import QueryError, SearchPage, asks_for_rebalanced, heavy_search, of_locale
from bot.carddb.query import warning_sentence
from bot.cards import (
    DEFAULT_KIND,
    DISCORD_MARKS,
    KINDS,
    MAX_EXTRA_QUERY,
    CardSource,
    QueryTooLong,
    autocomplete_choices,
    check_syntax,
    cycling_query,
    miss_suggestions,
    miss_text,
    no_set_text,
    unknown_sets,
)
from bot.scryfall import AmbiguousCard, CardNotFound, ScryfallClient, ScryfallError
from bot.serving import LOOKUPS, SEARCHES
from bot.text import Entry, clip, escape, one_line
from cogs._admission import asker_of, fair_share, place, turn_of
from cogs._pagers import Pagers
from cogs._symbols import symbols_for
from cogs._ui import in_time, reply, reply_private
from cogs.cards._components import CandidatePicker, CardInfoButton, SearchSource, card_message
from cogs.cards._inline import InlineLookups
from cogs.cards._message import MessageLookups
from cogs.cards._pages import COG_NAME, PageButton, send_pages
from cogs.cards._render import (
    RESULTS_PER_PAGE,
    echo,
    failure_text,
)
from cogs.cards._search import (
    OpenCardSelect,
    SearchPageButton,
    query_error_text,
    result_line,
    search_failure_text,
    search_message,
)

log = logging.getLogger(__name__)

MAX_NAME = 150
MAX_SEARCH = 6000  # Discord's own limit: a longer search is still answered, with the reason it is refused
SET_CODE = re.compile(r"[a-z0-9]{2,6}")
# A search that is only words (no key:value, quotes, brackets or comparisons) may be a card's name being typed.
NAME_LIKE = re.compile(r"[^:\"'()<>=!/-][^:\"()<>=!/]*")
KIND_CHOICES = [app_commands.Choice(name=kind.label, value=kind.value) for kind in KINDS.values()]
HOURGLASS = "\N{HOURGLASS WITH FLOWING SAND}"


def card_choices(entries: list[Entry], value=None) -> list[app_commands.Choice[str]]:
    """Autocomplete choices of card entries: the label (a digital-only card says so), the exact name as value (or
    ``value(name)``). A name longer than a choice's value may be (an Un-card's 141 characters) sends its first 100,
    which the lookup finds by prefix; a made value that long is left out."""
    choices: dict[str, app_commands.Choice[str]] = {}
    for entry in entries:
        sent = value(entry.value) if value is not None else entry.value[: limits.CHOICE_VALUE]
        if len(sent) <= limits.CHOICE_VALUE and sent not in choices:
            choices[sent] = app_commands.Choice(name=one_line(entry.name, limits.CHOICE_NAME), value=sent)
    return list(choices.values())[: limits.AUTOCOMPLETE_CHOICES]


def exact_name_search(name: str) -> str:
    """``!"Krosan Tusker"``: the search for exactly this name, its quotes escaped (Unhinged's card is called
    ``"Ach! Hans, Run!"``, quotes and all)."""
    escaped = name.replace('"', '\\"')
    return f'!"{escaped}"'


# ---------------------------------------------------------- input decided without a pool
# Each is run before the command's cooldown and its place in a share (``fair_share``'s ``vet``): what it answers
# is the asker's alone, told at once, and costs nothing of their share. They read the options as Discord sent
# them (``interaction.namespace``), before discord.py converts them.


def syntax_answer(client: discord.Client, query: str) -> str | None:
    """The sentence for a search the local copy cannot read at all; None when it can (or no copy is loaded yet:
    then Scryfall's API reads it)."""
    card_data = client.card_source.card_data  # type: ignore[attr-defined]
    if not query or card_data is None or not card_data.loaded:
        return None
    try:
        check_syntax(query)
    except QueryError as error:
        return query_error_text(error)
    return None


def search_input(interaction: discord.Interaction) -> str | None:
    return syntax_answer(interaction.client, " ".join(str(interaction.namespace.query or "").split()))


def cycling_input(interaction: discord.Interaction) -> str | None:
    kind, query = interaction.namespace.kind or DEFAULT_KIND, interaction.namespace.query
    if kind not in KINDS:  # not one of the choices: discord.py's conversion answers it
        return None
    try:
        cycling_query(kind, query)  # too long once expanded
    except QueryTooLong as error:
        return str(error)
    return syntax_answer(interaction.client, " ".join(str(query or "").split()))


def card_coming(seconds: float) -> str:
    """The asker's line when their card waits its turn at Scryfall's API (2 lookups a second for every user of the
    bot): the card follows, for everyone, when it comes."""
    return (
        f"{HOURGLASS} Scryfall answers 2 card lookups a second and others asked first: your card comes here in "
        f"about {math.ceil(seconds)} s."
    )


def card_input(interaction: discord.Interaction) -> str | None:
    name, set_code = interaction.namespace.name, interaction.namespace.set
    if set_code is not None and not SET_CODE.fullmatch(str(set_code).strip().lower()):
        return f"“{echo(str(set_code))}” is not a set code (2–6 letters or digits, like akh)."
    if not " ".join(str(name or "").split()):
        return "Give a card name."
    return None


class Cards(commands.Cog, name=COG_NAME):
    """Scryfall card lookups with cycling costs up front."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.inline = InlineLookups(bot)
        self.messages = MessageLookups(bot, self.inline)

    @property
    def client(self) -> ScryfallClient:
        """The bot's Scryfall client: the bot owns it, every feature shares its cache and rate limits."""
        return self.bot.scryfall

    @property
    def source(self) -> CardSource:
        """Where card answers come from: the bot's local copy first, the API when it cannot answer."""
        return self.bot.card_source

    @property
    def pagers(self) -> Pagers:
        """The bot's pagers: the bot owns them, so a button finds its pages without asking for this cog."""
        return self.bot.pagers

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(CardInfoButton, PageButton, SearchPageButton, OpenCardSelect)
        self.bot.tree.add_command(self.messages.command)  # "Look up cards" on any message

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(CardInfoButton, PageButton, SearchPageButton, OpenCardSelect)
        self.bot.tree.remove_command(self.messages.command.name, type=self.messages.command.type)

    # ---------------------------------------------------------- shared pieces

    async def choices(self, typed: str, interaction: discord.Interaction | None = None) -> list[Entry]:
        """The card names offered for ``typed``: the names printed in the asker's language first (their client's
        locale), when that language is one the bot holds."""
        return await autocomplete_choices(self.source, typed, self.language_of(interaction))

    def language_of(self, interaction: discord.Interaction | None) -> str | None:
        """The asker's language (Scryfall's code of their Discord locale) when the bot holds its printed names."""
        card_data = self.source.card_data
        code = of_locale(interaction.locale) if interaction is not None else None
        return code if card_data is not None and code in card_data.printed.languages else None

    async def suggestions(self, name: str) -> list[str]:
        return await miss_suggestions(self.source, name)

    # ---------------------------------------------------------- /card

    async def card_name_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice]:
        current = " ".join(current.split())[:MAX_NAME]
        entries = await self.choices(current, interaction)  # errors and slowness give no choices: nothing else fits
        return card_choices(entries)

    @app_commands.command(name="card")
    @app_commands.rename(set_code="set")
    @app_commands.describe(name="Card name; partial or misspelt names work", set_code="Set code, e.g. akh or mh2")
    @app_commands.autocomplete(name=card_name_autocomplete)
    @fair_share(LOOKUPS, vet=card_input)
    async def card(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, MAX_NAME],
        set_code: app_commands.Range[str, 1, 8] | None = None,
    ) -> None:
        """Look a card up on Scryfall: text, cycling costs, set, image, rulings and prices."""
        name = " ".join(name.split())
        set_code = set_code.strip().lower() if set_code is not None else None
        # The card helps the table, so the answer is public; a miss, a picker or a failure is the asker's alone. The
        # local copy decides in milliseconds, so most are answered without "thinking…"; only a wait for a place or
        # a call to Scryfall's API is deferred (publicly: a card is the likely answer).
        # A place is held only while the local copy is read: a printing (set code), or any card before the first
        # import, is Scryfall's API's answer, which its own rate limits share out.
        local = self.source.reads_locally(set_code)
        async with in_time(interaction, public=True, long_wait=card_coming):
            try:
                async with place(interaction, LOOKUPS) if local else contextlib.nullcontext():
                    answer = await self.source.named(name, set_code=set_code)
            except AmbiguousCard as error:
                candidates = error.candidates or await self.suggestions(name)
                if not candidates:
                    await reply_private(interaction, failure_text(error))
                    return
                picker = CandidatePicker(interaction.user.id, candidates, set_code)
                await reply_private(interaction, f"“{echo(name)}” matches several cards. Pick one:", view=picker)
                return
            except CardNotFound as error:
                said = await miss_text(self.source, name, set_code, error, DISCORD_MARKS)
                await reply_private(interaction, clip(said, limits.MESSAGE_CONTENT))
                return
            except ScryfallError as error:
                await reply_private(interaction, failure_text(error))
                return
            await reply(interaction, **card_message(answer))

    # ---------------------------------------------------------- /cycling

    @app_commands.command(name="cycling")
    @app_commands.describe(
        kind="Which cycling: plain, typecycling, landcycling...; default any",
        query="More Scryfall search terms, e.g. c:r cmc<=3 or set:akh",
    )
    @app_commands.choices(kind=KIND_CHOICES)
    @fair_share(SEARCHES, vet=cycling_input)
    async def cycling(
        self,
        interaction: discord.Interaction,
        kind: app_commands.Choice[str] | None = None,
        query: app_commands.Range[str, 1, MAX_EXTRA_QUERY] | None = None,
    ) -> None:
        """List cards with cycling on Scryfall, with each card's cycling costs."""
        kind_value = kind.value if kind is not None else DEFAULT_KIND
        label = KINDS[kind_value].label
        heading = label + (f" · {echo(query, MAX_EXTRA_QUERY)}" if query and query.strip() else "")
        async with in_time(interaction, public=True):
            turn = turn_of(interaction, heavy=heavy_search(query or ""))
            try:
                found = await self.source.cycling(kind_value, query, asker=asker_of(interaction), turn=turn)
            except (QueryError, ScryfallError) as error:
                failure = search_failure_text(error, f"No cards with {label} match that search.")
                await reply_private(interaction, failure)
                return
            pages = SearchSource(self.source, heading, found, symbols=symbols_for(interaction))
            await send_pages(interaction, self.pagers, pages)

    # ---------------------------------------------------------- /search

    async def search_query_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The search as typed first; when it is only words, the cards whose names they match, as exact-name
        searches (``!"Krosan Tusker"``), found the way /card finds names."""
        typed = " ".join(current.split())
        if not typed:
            return []
        first = [app_commands.Choice(name=one_line(f"Search: {typed}"), value=typed)] if len(typed) <= 100 else []
        if not NAME_LIKE.fullmatch(typed):
            return first
        # The search leaves Alchemy's rebalanced cards out unless asked (include:extras): not offered as names.
        names = [entry for entry in await self.choices(typed, interaction) if not asks_for_rebalanced(entry.value)]
        exact = card_choices(names, value=exact_name_search)
        return (first + exact)[: limits.AUTOCOMPLETE_CHOICES]

    @app_commands.command(name="search")
    @app_commands.describe(query='Scryfall search syntax, e.g. t:creature c:g pow>=3 or o:"draw a card" mv<=2')
    @app_commands.autocomplete(query=search_query_autocomplete)
    @fair_share(SEARCHES, vet=search_input)
    async def search(self, interaction: discord.Interaction, query: app_commands.Range[str, 1, MAX_SEARCH]) -> None:
        """Search cards in Scryfall's syntax, answered from the local copy of Scryfall's card data."""
        query = " ".join(query.split())
        async with in_time(interaction, public=True):
            turn, asker = turn_of(interaction, heavy=heavy_search(query)), asker_of(interaction)
            try:
                found = await self.source.search(query, page_size=RESULTS_PER_PAGE, asker=asker, turn=turn)
            except (QueryError, ScryfallError) as error:
                await reply_private(interaction, search_failure_text(error))
                return
            if not isinstance(found, SearchPage):  # only Scryfall could answer: its pages, fetched as read
                pages = SearchSource(
                    self.source,
                    echo(query, 200),
                    found,
                    title="Search",
                    line=result_line,
                    symbols=symbols_for(interaction),
                )
                await send_pages(interaction, self.pagers, pages)
                return
            if found.total == 0:
                missing = await unknown_sets(self.source, query)  # "set:zzz t:frog": the set is the reason
                note = warning_sentence(found.warnings) if found.warnings else ""
                said = no_set_text(missing, DISCORD_MARKS) if missing else f"No cards match that search. {escape(note)}"
                await reply_private(interaction, clip(said.strip(), limits.MESSAGE_CONTENT))
                return
            await reply(
                interaction,
                **search_message(self.source, query, found, interaction.user.id, symbols=symbols_for(interaction)),
            )

    # ---------------------------------------------------------- inline [[card]]

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        await self.inline.answer(message)
