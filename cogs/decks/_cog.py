"""/deck save, list, show and delete: a player's own decks, private to them, kept in the bot's database.

The cog also holds what every way in to a deck shares (its store, the deck sites' reader and the resolver's names
sources); the goldfish commands reach it through the bot (``get_cog("Decks")``).
"""

from __future__ import annotations

import asyncio
import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.goldfish.decks import (
    CollectionNames,
    DeckExists,
    DeckProblem,
    DeckResolver,
    DeckSites,
    DeckStore,
    LocalCards,
    NameSource,
    PlayerDeck,
    PrintedCards,
    clean_deck_name,
    read_list,
)
from bot.text import escape, plural
from cogs._commands import command
from cogs._ui import Paginator, reply
from cogs.decks._form import DeckForm, ask_to_replace
from cogs.decks._options import DeckName, deck_choices, deck_options
from cogs.decks._reading import PRESET, DeckRequest, read_request, resolved
from cogs.decks._render import deck_pages, list_text, saved_text

log = logging.getLogger(__name__)

ROOM_CHECK_SECONDS = 1.0  # before a form: how long the check for room may take (the form must answer in 3 s)


def bot_names(bot: commands.Bot) -> list[NameSource]:
    """Where the bot finds a list's names: its local copy of the card data, then the names printed in the languages
    the operator chose (their typos read by the bot's one name matcher); or Scryfall's collection by name until the
    first import has finished."""
    card_data = getattr(bot, "card_data", None)
    if card_data is not None and card_data.loaded:
        if not card_data.printed.loaded:
            return [LocalCards(card_data)]
        matchers = getattr(getattr(bot, "card_source", None), "names", None)
        return [LocalCards(card_data), PrintedCards(card_data, matchers.printed if matchers is not None else None)]
    source = getattr(bot, "card_source", None) or getattr(bot, "scryfall", None)
    if source is None:
        raise DeckProblem("Decklists need the card data, which this bot doesn't have right now: try a preset deck.")
    return [CollectionNames(source.collection)]


class Decks(commands.Cog):
    deck = app_commands.Group(name="deck", description="Your own decks: save, list, show, delete (only you see them)")

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        # The resolver's names sources; None: the bot's (bot_names). A test gives its own.
        self.names: list[NameSource] | None = None

    async def cog_load(self) -> None:
        self.store = DeckStore(self.bot.db)  # type: ignore[attr-defined]
        config = self.bot.config  # type: ignore[attr-defined]
        self.sites = DeckSites(config.archidekt_url, config.tappedout_url)

    async def cog_unload(self) -> None:
        await asyncio.to_thread(self.sites.close)

    def resolver(self) -> DeckResolver:
        return DeckResolver(self.names if self.names is not None else bot_names(self.bot))

    # ------------------------------------------------------------ /deck save

    @command(deck, "save")
    @app_commands.describe(name="The deck's name (1–100 characters); without a list, file or link, a form opens")
    @deck_options("decklist", "file", "link")
    async def save(self, interaction: discord.Interaction, name: DeckName, wanted: DeckRequest) -> None:
        """Save one of your decks: paste its list, upload its file or link it (or fill in the form)."""
        name = clean_deck_name(name)
        if name.lower().startswith(PRESET):
            raise DeckProblem(f"A deck's name can't start with `{PRESET}`: that is how presets are offered.")
        if len(wanted.given()) > 1:
            raise DeckProblem("Give the deck one way: a `decklist`, a `file` or a `link`, not several.")
        if not wanted.given():
            # The form must be the first answer: only a quick check for room goes before it.
            try:
                await asyncio.wait_for(self.store.check_room(interaction.user.id, name), ROOM_CHECK_SECONDS)
            except TimeoutError:
                pass
            await interaction.response.send_modal(DeckForm(name, self.submitted))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        existing = await self.store.check_room(interaction.user.id, name)
        text, _ = await read_request(interaction, wanted)
        await self.keep(interaction, await resolved(interaction, text, name), existing is not None)

    async def submitted(self, interaction: discord.Interaction, name: str, text: str) -> None:
        """The form's list, read and saved like any other."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        existing = await self.store.check_room(interaction.user.id, name)
        deck = await resolved(interaction, read_list(text), name)
        await self.keep(interaction, deck, existing is not None)

    async def keep(self, interaction: discord.Interaction, deck: PlayerDeck, exists: bool) -> None:
        """Save the deck, or ask first when a deck of its name is saved."""
        try:
            replaced = await self.store.save(interaction.user.id, deck, replace=False)
        except DeckExists as taken:
            await ask_to_replace(interaction, taken.existing, deck, self.replace)
            return
        await reply(interaction, saved_text(deck, replaced), ephemeral=True)

    async def replace(self, interaction: discord.Interaction, deck: PlayerDeck) -> None:
        replaced = await self.store.save(interaction.user.id, deck, replace=True)
        await interaction.response.edit_message(content=saved_text(deck, replaced), view=None)

    # ------------------------------------------------------------ /deck list, show, delete

    @command(deck, "list")
    async def list_decks(self, interaction: discord.Interaction) -> None:
        """Your saved decks, with their counts (only you see them)."""
        await reply(interaction, list_text(await self.store.summaries(interaction.user.id)), ephemeral=True)

    @command(deck, "show")
    @app_commands.describe(name="One of your saved decks")
    async def show(self, interaction: discord.Interaction, name: DeckName) -> None:
        """One of your decks, grouped by type with mana costs (only you see it)."""
        deck = await self.store.load(interaction.user.id, name)
        if deck is None:
            raise DeckProblem(no_deck(name))
        await Paginator(deck_pages(deck), interaction.user.id).send(interaction, ephemeral=True)

    @command(deck, "delete")
    @app_commands.describe(name="One of your saved decks", all="Delete every deck you saved")
    async def delete(self, interaction: discord.Interaction, name: DeckName | None = None, all: bool = False) -> None:
        """Delete one of your saved decks, or all of them with all:True."""
        if all:
            count = await self.store.delete_all(interaction.user.id)
            said = f"Deleted your {plural(count, 'saved deck')}." if count else "You had no saved decks."
        elif name:
            deleted = await self.store.delete(interaction.user.id, name)
            if deleted is None:
                raise DeckProblem(no_deck(name))
            said = f"Deleted your deck **{escape(deleted)}**."
        else:
            raise DeckProblem("Name the deck to delete, or give `all:True` to delete every deck you saved.")
        await reply(interaction, said, ephemeral=True)

    @show.autocomplete("name")
    @delete.autocomplete("name")
    async def name_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice]:
        decks = await self.store.summaries(interaction.user.id)
        return deck_choices([(f"{deck.name} — {deck.counts_text()}", deck.name) for deck in decks], current)


def no_deck(name: str) -> str:
    return f"You have no saved deck called “{escape(name, typed=True)}”. `/deck list` lists yours."
