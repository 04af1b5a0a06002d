"""What a rules query is answered with (how sure, what is cited, the text) and its pages laid out for a phone.

Uses ``text``. Other rooms import this package, never its modules."""

from bot.rules.reply.answer import (
    EXCERPT,
    FULL,
    NONE,
    NOT_LOADED,
    SURE,
    UNSURE,
    Answer,
    Choice,
    Cited,
    Edition,
    Line,
    clip,
    rule_url,
)
from bot.rules.reply.layout import Block, pages, text

__all__ = [
    "Answer",
    "Block",
    "Choice",
    "Cited",
    "EXCERPT",
    "Edition",
    "FULL",
    "Line",
    "NONE",
    "NOT_LOADED",
    "SURE",
    "UNSURE",
    "clip",
    "pages",
    "rule_url",
    "text",
]
