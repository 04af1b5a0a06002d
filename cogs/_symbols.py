"""Card symbols on Discord, one way per message: all as the application's emoji, or all as text.

Where emoji may show depends on the app's permissions there (``cogs._permissions``): Use External Emojis. The text
form is the fallback for a whole message, never for part of one: a symbol without an emoji, a footer (which Discord
shows as text) or a limit passed keeps every symbol of the message as text.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot import limits
from bot.hosts import PLAIN, SYMBOL, SymbolText
from bot.text import clip, one_line
from cogs._permissions import app_permissions, channel_permissions


def symbols_of(client: discord.Client | None) -> SymbolText:
    """How the bot shows mana symbols now: its application emoji once they are ready, else the text form."""
    return getattr(client, "mana", None) or PLAIN


def symbols_for(interaction: discord.Interaction) -> SymbolText:
    """How mana symbols show in the answer to ``interaction``: as the application's emoji only where the app may
    use external emoji there (``app_permissions``, the one thing known where only a user installed it), else all
    as text."""
    return symbols_of(interaction.client) if app_permissions(interaction).use_external_emojis else PLAIN


def symbols_in(channel: discord.abc.Messageable | None, client: discord.Client) -> SymbolText:
    """How mana symbols show in a message the bot posts itself in ``channel``: emoji only with Use External
    Emojis there."""
    return symbols_of(client) if channel_permissions(channel, client).use_external_emojis else PLAIN


def one_message(
    content: str | None, embeds: Sequence[discord.Embed], symbols: SymbolText
) -> tuple[str | None, list[discord.Embed]]:
    """A message's text and embeds with every symbol shown one way: the one decision every answer goes through,
    with ``symbols`` from where it goes (:func:`symbols_for` an interaction, :func:`symbols_in` a channel). All
    emoji, or all text when any part can't show them all (a message without text is not such a part)."""
    embeds = list(embeds)
    if not symbols:
        return content, embeds
    shown = one_rendering(embeds, symbols)
    text = symbols.full(content) if content else content
    if content and (text is None or len(text) > limits.MESSAGE_CONTENT):
        return content, embeds
    if any(SYMBOL.search(shown_text(embed)) for embed in shown):
        return content, embeds  # something must stay text, so all of it does
    return text, shown


def with_symbols(embed: discord.Embed, symbols: SymbolText) -> discord.Embed:
    """``embed`` with ``{2}{G}`` shown as emoji, or the text form when that can't be done for all of it: one
    rendering per screen. A message of several embeds goes through :func:`one_rendering` instead."""
    return one_rendering([embed], symbols)[0]


def one_rendering(embeds: Sequence[discord.Embed], symbols: SymbolText) -> list[discord.Embed]:
    """The embeds of one message with every symbol as an emoji, or, if any part can't show them all (a symbol
    without an emoji, a footer, which Discord shows as text, a limit passed, the message's 6,000 characters
    passed), all of them as they are, in text: never some symbols as pictures and others as braces.

    A field whose emoji would pass its 1,024 characters is split over two (a continuation field without a name)
    rather than left in text; a title too long for its cost's emoji gives the cost to the description."""
    embeds = list(embeds)
    if not symbols or not any(SYMBOL.search(shown_text(embed)) for embed in embeds):
        return embeds
    shown = [_converted(embed, symbols) for embed in embeds]
    if any(embed is None for embed in shown) or sum(len(embed) for embed in shown) > limits.EMBED_TOTAL:
        return embeds
    return shown


def shown_text(embed: discord.Embed) -> str:
    parts = [embed.title, embed.description, embed.footer.text, embed.author.name]
    parts += [text for field in embed.fields for text in (field.name, field.value)]
    return "\n".join(part for part in parts if part)


def _converted(embed: discord.Embed, symbols: SymbolText) -> discord.Embed | None:
    """A copy of ``embed`` with its symbols as emoji, or None when it can't have them all."""
    if any(SYMBOL.search(text or "") for text in (embed.footer.text, embed.author.name)):
        return None
    embed = embed.copy()
    if embed.title:
        _cost_out_of_title(embed, symbols)
        embed.title = symbols.full(embed.title)
        if embed.title is None or len(embed.title) > limits.EMBED_TITLE:
            return None
    if embed.description:
        embed.description = symbols.full(embed.description)
        if embed.description is None or len(embed.description) > limits.EMBED_DESCRIPTION:
            return None
    fields = [(field.name, field.value, field.inline) for field in embed.fields]
    embed.clear_fields()
    for name, value, inline in fields:
        name = symbols.full(name)
        parts = _field_parts(value or "", symbols)
        if name is None or len(name) > limits.EMBED_FIELD_NAME or parts is None:
            return None
        for number, part in enumerate(parts):
            embed.add_field(name=name if number == 0 else CONTINUED, value=part, inline=inline)
    return embed if len(embed.fields) <= limits.EMBED_FIELDS else None


CONTINUED = "\u200b"  # the name of a field that carries on the one before it (Discord needs a name; this shows none)


def _field_parts(value: str, symbols: SymbolText) -> list[str] | None:
    """A field's value with its symbols as emoji, in as many values as its 1,024 characters need (split between
    lines); None when a symbol has no emoji or a single line can't fit."""
    whole = symbols.full(value)
    if whole is None or len(whole) <= limits.EMBED_FIELD_VALUE:
        return None if whole is None else [whole]
    parts: list[str] = []
    for line in whole.split("\n"):
        if len(line) > limits.EMBED_FIELD_VALUE:
            return None
        if parts and len(parts[-1]) + 1 + len(line) <= limits.EMBED_FIELD_VALUE:
            parts[-1] += "\n" + line
        else:
            parts.append(line)
    return parts


def as_text(embeds: Sequence[discord.Embed], limit: int = limits.MESSAGE_CONTENT) -> str:
    """Embeds written as a message's text, for a channel where the bot may not embed: the title (its link masked,
    with no preview), the description, each field's name and value, and the footer in small print."""
    blocks = []
    for embed in embeds:
        lines = []
        if embed.title:
            lines.append(f"**[{embed.title}](<{embed.url}>)**" if embed.url else f"**{embed.title}**")
        if embed.description:
            lines.append(embed.description)
        for field in embed.fields:
            lines.append(field.value if field.name == CONTINUED else f"**{field.name}**\n{field.value}")
        if embed.footer.text:
            lines.append(f"-# {one_line(embed.footer.text, 300)}")
        blocks.append("\n".join(lines))
    return clip("\n\n".join(block for block in blocks if block), limit)


def _cost_out_of_title(embed: discord.Embed, symbols: SymbolText) -> None:
    """A title whose symbols would pass its limit as emoji (a long name with a long cost, both faces' costs) keeps
    its name, and the symbols open the description instead, unless it shows them already (each face's cost):
    emoji there rather than braces in the title."""
    title = embed.title or ""
    found = SYMBOL.search(title)
    shown = symbols.full(title)
    if found is None or shown is None or len(shown) <= limits.EMBED_TITLE or not title[: found.start()].strip():
        return
    head, cost = title[: found.start()].rstrip(), title[found.start() :].strip()
    description = embed.description or ""
    if not all(part.strip() in description for part in cost.split("//")):
        description = f"{cost}\n{description}".strip()
    embed.title = head
    embed.description = description
