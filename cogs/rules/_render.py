"""An answer as Discord embeds: pages of at most 6,000 characters, a link to the rule, escaped text."""

from __future__ import annotations

import discord

from bot.rules.answer import Answer
from bot.ui import EMBED_DESCRIPTION_LIMIT, chunk_lines

EMBED_TOTAL_LIMIT = 6000
FIELD_LIMIT = 1024


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


def _escape(text: str) -> str:
    return discord.utils.escape_mentions(discord.utils.escape_markdown(text))


def render_pages(answer: Answer) -> list[discord.Embed]:
    """The answer as embeds of at most 6,000 characters each; long answers become several pages."""
    fields: list[tuple[str, str]] = []
    if answer.references:
        fields.append(("Related rules", _listing([choice.value for choice in answer.references], ", ")))
    if answer.see_also:
        name = "See also" if answer.found else "Closest matches"
        fields.append((name, _listing([_escape(choice.name) for choice in answer.see_also], "\n")))
    footer = f"Comprehensive Rules {answer.edition}"
    title = _escape(answer.title)[:256]
    reserved = len(title) + len(footer) + len(" · page 999/999") + sum(len(n) + len(v) for n, v in fields)
    limit = min(EMBED_DESCRIPTION_LIMIT, EMBED_TOTAL_LIMIT - reserved - 50)

    lines = []
    if answer.intro:
        lines.append(f"*{_escape(answer.intro)}*")
    for line in answer.lines:
        text = _escape(line.text)
        if line.example:
            lines.append(f"> *Example:* {text}")
        elif line.number:
            lines.append(f"**{line.number}** {text}")
        else:
            lines.append(text)
    colour = discord.Colour.dark_teal() if answer.found else discord.Colour.orange()
    blocks = chunk_lines(lines, limit)
    pages = []
    for number, block in enumerate(blocks, start=1):
        embed = discord.Embed(title=title, description=block, colour=colour, url=answer.url or None)
        for name, value in fields:
            embed.add_field(name=name, value=value, inline=False)
        embed.set_footer(text=footer + (f" · page {number}/{len(blocks)}" if len(blocks) > 1 else ""))
        pages.append(embed)
    return pages
