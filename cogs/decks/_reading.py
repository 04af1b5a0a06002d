"""One way from a command's deck options to a deck: a saved deck or a preset by name, a pasted list, an uploaded
file or a link, each read and resolved the same way (the resolver and the readers of :mod:`bot.goldfish.decks`).

What a command was given is a :class:`DeckRequest`; :func:`chosen_deck` makes it a :class:`Chosen` deck, or raises
:class:`~bot.goldfish.decks.DeckProblem` (one line for the player, nothing saved or started).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import PurePath
from typing import Protocol

import discord

from bot.goldfish.decks import (
    MAX_DECK_NAME,
    DeckProblem,
    DeckResolver,
    DeckSites,
    DeckStore,
    DeckText,
    PlayerDeck,
    preset_decks,
    read_link,
    read_list,
)
from bot.goldfish.engine import Deck
from bot.hosts import host_of
from bot.scryfall import ScryfallError, ScryfallUnavailable
from bot.serving import DECK_SITES
from bot.text import clip, escape
from cogs._admission import place

DEFAULT_DECK = "slide"
PRESET = "preset:"  # the value a preset is offered with: a saved deck of the same name stays reachable by its own
CUSTOM = "Custom deck"
MAX_DECKLIST_CHARS = 6000
# Where Discord serves the files players upload; a Discord that isn't Discord (DISCORD_API_BASE) serves its own.
DISCORD_CDN_HOSTS = frozenset({"cdn.discordapp.com", "media.discordapp.net"})


class Shelf(Protocol):
    """What the deck readers need of the bot's decks (the Decks cog): its store, sites and resolver."""

    store: DeckStore
    sites: DeckSites

    def resolver(self) -> DeckResolver: ...


@dataclass(frozen=True)
class DeckRequest:
    """The deck options a command was given: at most one of them."""

    deck: str | None = None
    decklist: str | None = None
    file: discord.Attachment | None = None
    link: str | None = None

    def given(self) -> list[str]:
        return [name for name in ("deck", "decklist", "file", "link") if getattr(self, name)]

    @property
    def own(self) -> bool:
        """Whether it names the player's own list (read and resolved), rather than a deck by name."""
        return bool(self.decklist or self.file or self.link)


ANY_DECK = DeckRequest()  # no deck option given: the default preset


@dataclass(frozen=True)
class Chosen:
    """The deck to play: the engine's deck, and the player's deck it came from (None for a preset)."""

    deck: Deck
    own: PlayerDeck | None = None


def shelf_of(client: discord.Client) -> Shelf:
    shelf = client.get_cog("Decks")  # type: ignore[attr-defined]
    if shelf is None:
        raise DeckProblem("Players' own decks aren't available right now: try a preset deck (slide, landcycling).")
    return shelf  # type: ignore[return-value]


def preset(name: str) -> Deck:
    decks = preset_decks()
    key = name.strip().lower().removeprefix(PRESET)
    if key not in decks:
        names = ", ".join(sorted(decks))
        raise DeckProblem(
            f"You have no saved deck called “{escape(clip(name, 60), typed=True)}”, and no preset has that name. "
            f"The presets are: {names} (`/deck list` lists yours)."
        )
    return decks[key]


async def named_deck(interaction: discord.Interaction, name: str) -> Chosen:
    """A deck by the name the ``deck`` option gives: a preset picked as one, else the player's saved deck of that
    name, else the preset of that name."""
    if name.strip().lower().startswith(PRESET):
        return Chosen(preset(name))
    shelf = interaction.client.get_cog("Decks")  # type: ignore[attr-defined]
    saved = await shelf.store.load(interaction.user.id, name) if shelf is not None else None
    if saved is not None:
        return Chosen(saved.engine_deck(), saved)
    return Chosen(preset(name))


async def read_request(interaction: discord.Interaction, request: DeckRequest) -> tuple[DeckText, str | None]:
    """The list a request's decklist, file or link holds, and the name it gives itself (a file's, a site's)."""
    shelf = shelf_of(interaction.client)
    if request.decklist is not None:
        if len(request.decklist) > MAX_DECKLIST_CHARS:
            raise DeckProblem(f"That decklist is too long: at most {MAX_DECKLIST_CHARS} characters.")
        text = read_list(request.decklist)
        return text, text.title
    if request.file is not None:
        file = request.file
        text = await shelf.sites.read_upload(file.url, file.filename, file.size, upload_hosts(interaction.client))
        return text, text.title or clip(PurePath(file.filename).stem, 100) or None
    link = read_link(request.link or "")  # refused here, before any request, unless it names a deck's page
    admission = interaction.client.admission  # type: ignore[attr-defined]
    wait = admission.spend(DECK_SITES, interaction.user.id)
    if wait:
        raise DeckProblem(
            f"You've read {DECK_SITES.rate} decks from sites in the last minute: try again in {math.ceil(wait)} s, "
            "or paste the list."
        )
    async with place(interaction, DECK_SITES):
        text = await shelf.sites.read(link)
    return text, text.title


async def resolved(interaction: discord.Interaction, text: DeckText, name: str) -> PlayerDeck:
    """The list's lines made cards by the one resolver; a lookup that failed is said in one line."""
    try:
        return await shelf_of(interaction.client).resolver().resolve(text, name)
    except (ScryfallError, ScryfallUnavailable) as error:
        raise DeckProblem(f"I couldn't look the decklist up on Scryfall: {error.user_message()}") from None


async def chosen_deck(interaction: discord.Interaction, request: DeckRequest) -> Chosen:
    """The deck a command's options name (the default preset when none is given)."""
    if len(request.given()) > 1:
        given = [f"`{name}`" for name in request.given()]
        several = "both" if len(given) == 2 else "several"
        raise DeckProblem(f"Choose one deck: {', '.join(given[:-1])} or {given[-1]}, not {several}.")
    if not request.own:
        return await named_deck(interaction, request.deck or DEFAULT_DECK)
    text, title = await read_request(interaction, request)
    own = await resolved(interaction, text, clip(" ".join((title or "").split()) or CUSTOM, MAX_DECK_NAME))
    return Chosen(own.engine_deck(), own)


def upload_hosts(client: discord.Client) -> frozenset[str]:
    """The hosts an uploaded file may be read from: Discord's CDN, or the host of the Discord the bot talks to."""
    base = getattr(getattr(client, "config", None), "discord_api_base", None)
    return DISCORD_CDN_HOSTS | ({host_of(base)} if base else set())
