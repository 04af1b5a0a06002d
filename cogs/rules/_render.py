"""An answer's pages (``bot.documents.phone``) as Discord embeds: markdown for the shape, everything quoted
escaped."""

from __future__ import annotations

import re

import discord

from bot.hosts import PLAIN, SymbolText
from bot.rules import Answer, Block, pages
from bot.text import escape
from cogs._symbols import with_symbols

# A history's word diff after escaping: "\[-old-\]" and "{+new+}" (see bot.rules.editions.history_text.word_diff).
_DELETED = re.compile(r"\\\[-(.+?)-\\\]")
_INSERTED = re.compile(r"\{\+(.+?)\+\}")


def _diff_markdown(text: str) -> str:
    """Removed words struck through, added words in bold: the words themselves are already escaped."""
    return _INSERTED.sub(r"**\1**", _DELETED.sub(r"~~\1~~", text))


def render_block(block: Block, *, diff: bool = False) -> str:
    """One block as markdown. The text quotes the rules, Scryfall and what people typed: always escaped; the
    links are the bot's own."""
    text = escape(block.text)
    if diff:
        text = _diff_markdown(text)
    links = "".join(f" {link}" for link in block.links)
    kind = block.kind
    if kind == "card":
        return f"**{text}**"
    if kind in ("type", "note"):
        return f"*{text}*" if text else ""
    if kind == "oracle":
        return f"> {text}"
    if kind == "ruling":
        return f"• {text}"
    if kind == "rule" and block.number:
        return f"**{escape(block.number)}** {text}{links}"
    if kind == "example":
        return f"> *Example:* {text}"
    if kind == "label":
        return f"**{text}**"
    if kind == "item":
        number, _, rest = block.text.partition(" ")
        return f"• **{escape(number)}** {escape(rest)}" if number[:1].isdigit() else f"• {text}"
    return f"{text}{links}"


def render_pages(answer: Answer, symbols: SymbolText = PLAIN) -> list[discord.Embed]:
    """The answer's pages as embeds: one title line, page one within about 1,200 visible characters; card costs and
    the rules' own symbols (``{T}``) as ``symbols`` show them, as everywhere else."""
    colour = discord.Colour.dark_teal() if answer.found else discord.Colour.orange()
    diff = answer.kind == "history"
    out = []
    for page in pages(answer):
        description = "\n".join(rendered for block in page.blocks if (rendered := render_block(block, diff=diff)))
        # A miss quotes what was asked in its title: a {G} typed there is the asker's text, not a symbol.
        title = escape(page.title, typed=answer.kind == "none")
        embed = discord.Embed(title=title, description=description or None, colour=colour)
        if answer.url:
            embed.url = answer.url
        embed.set_footer(text=page.footer)
        out.append(with_symbols(embed, symbols))
    return out
