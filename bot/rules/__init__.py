"""Comprehensive Rules: parsing, lookup and search, download. Framework-free (no discord import)."""

from bot.rules.answer import FULL, NONE, SURE, UNSURE, Answer, Choice, Cited, Edition, Line, clip
from bot.rules.cards import CardFacts, FoundCards
from bot.rules.history_text import is_history_query, word_diff
from bot.rules.index import RulesIndex
from bot.rules.layout import Block, pages
from bot.rules.layout import text as answer_text
from bot.rules.query import STOPWORDS, stem, words
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
    # Shared with other documents (bot.documents) until the generic machinery moves there: the answer and its
    # phone layout, the words of a query, a word diff.
    "FULL",
    "NONE",
    "SURE",
    "UNSURE",
    "Choice",
    "Cited",
    "Edition",
    "Line",
    "STOPWORDS",
    "answer_text",
    "stem",
    "word_diff",
    "words",
]
