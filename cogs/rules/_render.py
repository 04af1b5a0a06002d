"""An answer as Discord embeds: pages of at most 6,000 characters, a link to the rule, escaped text."""

from __future__ import annotations

import re

import discord

from bot import limits
from bot.rules.answer import Answer
from bot.text import chunk_lines, clip, escape, fit_lines


def _listing(items: list[str], separator: str) -> str:
    return fit_lines(items, limits.EMBED_FIELD_VALUE, separator=separator)


def _escape(text: str) -> str:
    return escape(text)


# A history's word diff after escaping: "\[-old-\]" and "{+new+}" (see bot.rules.history_text.word_diff).
_DELETED = re.compile(r"\\\[-(.+?)-\\\]")
_INSERTED = re.compile(r"\{\+(.+?)\+\}")


def _diff_markdown(text: str) -> str:
    """Removed words struck through, added words in bold: the words themselves are already escaped."""
    return _INSERTED.sub(r"**\1**", _DELETED.sub(r"~~\1~~", text))


def _card_lines(answer: Answer) -> list[str]:
    """Each card the question names, then the rulings that bear on it: all of it text from Scryfall, escaped."""
    out = []
    for card in answer.cards:
        facts = card.facts
        text = "\n".join(f"> {_escape(line)}" for line in facts.oracle_text.split("\n") if line.strip())
        block = [f"**{_escape(card.heading)}**", _escape(facts.type_line), text, f"*{_escape(card.rulings_note())}*"]
        block += [
            f"• {_escape(ruling.get('published_at', ''))}: {_escape(clip(ruling.get('comment', ''), 600))}"
            for ruling in card.rulings
        ]
        out.append(clip("\n".join(part for part in block if part), 1800) + "\n")
    if answer.more_cards:
        out.append(f"*…and {answer.more_cards} more cards named; ask about fewer at a time.*")
    return out


def render_pages(answer: Answer) -> list[discord.Embed]:
    """The answer as embeds of at most 6,000 characters each; long answers become several pages."""
    fields: list[tuple[str, str]] = []
    if answer.references:
        fields.append(("Related rules", _listing([choice.value for choice in answer.references], ", ")))
    if answer.see_also:
        name = "See also" if answer.found else "Closest matches"
        fields.append((name, _listing([_escape(choice.name) for choice in answer.see_also], "\n")))
    footer = f"Comprehensive Rules {answer.edition}"
    title = clip(_escape(answer.title), limits.EMBED_TITLE)
    reserved = len(title) + len(footer) + len(" · page 999/999") + sum(len(n) + len(v) for n, v in fields)
    limit = min(limits.EMBED_DESCRIPTION, limits.EMBED_TOTAL - reserved - 50)

    lines = [*_card_lines(answer)]
    if answer.intro:
        lines.append(f"*{_escape(answer.intro)}*")
    for line in answer.lines:
        text = " ".join([_escape(line.text), *line.links])
        if answer.kind == "history":
            text = _diff_markdown(text)
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
