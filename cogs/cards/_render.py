"""Card displays and Scryfall answers drawn as Discord embeds and texts; the one place that turns
an error into what the user reads."""

from __future__ import annotations

import math

import discord

from bot import limits
from bot.carddb.query import warning_sentence
from bot.cards import (
    CardAnswer,
    CardDisplay,
    legality_groups,
    legality_lines,
    price_lines,
    prices_note,
    render_compact,
    render_image,
    ruling_lines,
    set_line,
)
from bot.scryfall import ScryfallError
from bot.text import chunk_lines, clip, escape, one_line, plural

CARD_COLOUR = discord.Colour.dark_teal()
RESULTS_PER_PAGE = 15
RULINGS_PAGE_CHARS = 1800


def echo(text: str, limit: int = 100) -> str:
    """User input quoted back safely: one line, clipped, escaped (mentions never ping anyway); a ``{G}`` typed stays
    text, never a symbol's emoji."""
    return escape(one_line(text, limit), typed=True)


def failure_text(error: ScryfallError) -> str:
    """What the user reads when Scryfall could not give an answer (``str()`` is the escaped form)."""
    return clip(str(error), limits.MESSAGE_CONTENT)


def to_embed(display: CardDisplay) -> discord.Embed:
    colour = discord.Colour(display.colour) if display.colour is not None else CARD_COLOUR
    embed = discord.Embed(title=display.title, url=display.url, description=display.description or None, colour=colour)
    for name, value in display.fields:
        embed.add_field(name=name, value=value, inline=True)
    if display.image_url:
        embed.set_image(url=display.image_url)
    if display.thumbnail_url:
        embed.set_thumbnail(url=display.thumbnail_url)
    if display.footer:
        embed.set_footer(text=display.footer)
    return embed


def legality_embed(card: dict) -> discord.Embed:
    name = card.get("name") or "This card"
    embed = discord.Embed(title=clip(f"Legality: {escape(name)}", limits.EMBED_TITLE), colour=CARD_COLOUR)
    groups = legality_groups(card)
    for label, formats in groups:
        embed.add_field(name=label, value=clip(", ".join(formats), limits.EMBED_FIELD_VALUE), inline=False)
    if not groups:
        embed.description = legality_lines(card)[0]
    return embed


def prices_embed(card: dict, prices_date: str | None = None) -> discord.Embed:
    """The prices of a card; prices more than a day old say which day they are from."""
    name = card.get("name") or "This card"
    embed = discord.Embed(
        title=clip(f"Prices: {escape(name)}", limits.EMBED_TITLE),
        description="\n".join(price_lines(card)),
        url=(card.get("purchase_uris") or {}).get("tcgplayer"),
        colour=CARD_COLOUR,
    )
    taken = prices_note(prices_date)
    when = f"{taken} from Scryfall" if taken else "prices from Scryfall, updated daily"
    embed.set_footer(text=clip(f"{set_line(card)} · {when}", limits.EMBED_FOOTER))
    return embed


def rulings_embeds(name: str, rulings: list[dict]) -> list[discord.Embed]:
    """Rulings in pages (none when Scryfall lists none)."""
    lines = [escape(line) for line in ruling_lines(rulings)]
    if not lines:
        return []
    title = clip(f"Rulings: {escape(name)}", limits.EMBED_TITLE)
    return [
        discord.Embed(title=title, description=block, colour=CARD_COLOUR)
        for block in chunk_lines(lines, RULINGS_PAGE_CHARS)
    ]


def results_embed(
    heading: str, lines: list[str], total: int, index: int, pages: int, warnings, origin: str = ""
) -> discord.Embed:
    """One page of a list of cards (/cycling, or /search answered by Scryfall); ``lines`` are that page's. The
    heading says what was asked, in the asker's words; the footer only counts (the query the bot built from them,
    ``keyword:plainscycling or …``, is for Scryfall, not for a phone)."""
    embed = discord.Embed(
        title=clip(heading, limits.EMBED_TITLE),
        description=chunk_lines(lines)[0] or "No more results.",
        colour=CARD_COLOUR,
    )
    if warnings:
        # One sentence: the local engine's notes put together, or Scryfall's own words when it answered.
        local = origin.startswith("Scryfall bulk data")
        # They quote the search's own words: a {G} typed there stays text.
        if local:
            text = escape(warning_sentence([str(w) for w in warnings]), typed=True)
        else:
            text = " ".join(escape(str(w), typed=True).rstrip(".") + "." for w in warnings if str(w).strip())
        title = "Note" if local else "Scryfall warnings"
        embed.add_field(name=title, value=clip(text, limits.EMBED_FIELD_VALUE), inline=False)
    footer = f"{plural(total, 'card')} · page {index + 1}/{pages}" + (f" · {origin}" if origin else "")
    embed.set_footer(text=clip(footer, limits.EMBED_FOOTER))
    return embed


def page_count(known: int) -> int:
    return max(1, math.ceil(known / RESULTS_PER_PAGE))


def reference_embed(mode: str, answer: CardAnswer) -> discord.Embed:
    """The answer to one inline reference: the compact card, or only its image, prices or legality."""
    card = answer.card
    if mode == "image":
        return to_embed(render_image(card, origin=answer.origin))
    if mode == "prices":
        return prices_embed(card, answer.prices_date)
    if mode == "legality":
        return legality_embed(card)
    return to_embed(render_compact(card, origin=answer.origin, note=answer.note))
