"""Comprehensive Rules: parsing, lookup and search, download. Framework-free (no discord import)."""

from bot.rules.answer import Answer, clip
from bot.rules.cards import CardFacts, FoundCards
from bot.rules.history_text import is_history_query
from bot.rules.index import RulesIndex
from bot.rules.layout import Block, pages
from bot.rules.service import RulesService
from bot.rules.sources import LoadedRules

__all__ = [
    "LoadedRules",
    "clip",
    "is_history_query",
    "Answer",
    "Block",
    "CardFacts",
    "FoundCards",
    "RulesIndex",
    "RulesService",
    "pages",
]
